package importer

import (
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// What AppendRecord writes, ParseRecord reads back into an equal entry:
// every metadata field, times to the nanosecond and in their zone, and
// Extra values of every JSON kind.
func TestRecordRoundTrip(t *testing.T) {
	zone := time.FixedZone("CST", 8*3600)
	for _, e := range []store.Entry{
		{Category: "trips", Name: "三亚之行", Content: "海边 <b>&</b>\n\"quoted\"\tand a \\ backslash"},
		{Category: "a/b/c", Name: "Tom's notes", Content: "", Meta: store.Meta{Tags: []string{"海边", "x y"}}},
		{Category: "work", Name: "Q&A", Content: "x", Meta: store.Meta{
			Created: time.Date(2024, 3, 2, 9, 15, 0, 123456789, zone),
			Updated: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
			Extra: map[string]any{
				"mood": "sunny", "n": int64(12345678901234567), "f": 2.5, "yes": true, "none": nil,
				"list":   []any{"a", int64(1), map[string]any{"k": "v"}},
				"nested": map[string]any{"deep": []any{false}},
			},
			Date: time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC), // a date without a time of day
		}},
		{Category: "work", Name: "dated", Content: "x", Meta: store.Meta{
			Date: time.Date(2024, 5, 1, 14, 30, 0, 0, zone), // an event time
		}},
	} {
		line, err := AppendRecord(nil, e)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(string(line), "}\n") || strings.Count(string(line), "\n") != 1 {
			t.Errorf("not one line: %q", line)
		}
		got, err := ParseRecord(line[:len(line)-1])
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if !Equal(got, e) {
			t.Errorf("round trip of %s:\n got %+v\nwant %+v", line, got, e)
		}
		if !got.Meta.Created.IsZero() && got.Meta.Created.Format(time.RFC3339Nano) != e.Meta.Created.Format(time.RFC3339Nano) {
			t.Errorf("created %v, want %v (the zone is kept)", got.Meta.Created, e.Meta.Created)
		}
	}
}

func TestAppendRecordKeepsText(t *testing.T) {
	line, err := AppendRecord([]byte("prefix\n"), store.Entry{Category: "c", Name: "n", Content: "<&> 海"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "prefix\n" + `{"category":"c","name":"n","content":"<&> 海"}` + "\n"; string(line) != want {
		t.Errorf("got %q, want %q", line, want)
	}
}
