package bench

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"testing"
)

func TestWriteRun(t *testing.T) {
	queries := []Query{{ID: "q2"}, {ID: "q1"}, {ID: "q3"}}
	run := map[string][]Hit{
		"q1": {{"<dbpedia:A>", 1.5}, {"b", 2.25}, {"a", 1.5}},
		"q2": {{"x", 0.1}},
	}
	var sb strings.Builder
	if err := WriteRun(&sb, "recall-bm25", queries, run); err != nil {
		t.Fatal(err)
	}
	// Query order as given; hits by score, ties by id descending; q3 has
	// no hits and no lines.
	want := `q2 Q0 x 1 0.1 recall-bm25
q1 Q0 b 1 2.25 recall-bm25
q1 Q0 a 2 1.5 recall-bm25
q1 Q0 <dbpedia:A> 3 1.5 recall-bm25
`
	if sb.String() != want {
		t.Errorf("run file:\n%s\nwant:\n%s", sb.String(), want)
	}
	// Reading it back gives the same figures as the run in memory.
	back := readRun(t, strings.NewReader(sb.String()))
	qrels := Qrels{"q1": {"a": 2, "<dbpedia:A>": 1}, "q2": {"x": 1}}
	if a, b := Evaluate(qrels, run), Evaluate(qrels, back); a != b {
		t.Errorf("figures differ after a round trip through the file: %+v vs %+v", a, b)
	}
}

func TestWriteRunRejectsWhiteSpace(t *testing.T) {
	for _, c := range []struct {
		tag string
		q   Query
		hit Hit
	}{
		{"a tag", Query{ID: "q"}, Hit{ID: "d"}},
		{"", Query{ID: "q"}, Hit{ID: "d"}},
		{"t", Query{ID: "q 1"}, Hit{ID: "d"}},
		{"t", Query{ID: "q"}, Hit{ID: "d\t1"}},
		{"t", Query{ID: "q"}, Hit{ID: ""}},
	} {
		err := WriteRun(io.Discard, c.tag, []Query{c.q}, map[string][]Hit{c.q.ID: {c.hit}})
		if err == nil {
			t.Errorf("WriteRun(tag %q, query %q, doc %q) wrote a broken file", c.tag, c.q.ID, c.hit.ID)
		}
	}
}

// readRun parses a TREC run file as trec_eval does, keeping each line's
// score (the rank column is ignored by trec_eval too).
func readRun(t *testing.T, r io.Reader) map[string][]Hit {
	t.Helper()
	run := map[string][]Hit{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 6 || f[1] != "Q0" {
			t.Fatalf("bad run line %q", sc.Text())
		}
		score, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			t.Fatalf("bad score in %q", sc.Text())
		}
		run[f[0]] = append(run[f[0]], Hit{ID: f[2], Score: score})
	}
	return run
}
