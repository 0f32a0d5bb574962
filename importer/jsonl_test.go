package importer

import (
	"bufio"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseRecord(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 31) + "1" + strings.Repeat("}", 31)
	cases := []struct {
		line string
		err  string // prefix of the reason; "" for success
	}{
		{`{"category":"c","name":"n","content":"x"}`, ""},
		{`{"category":"c","name":"n","content":"x","meta":null}`, ""},
		{`{"category":"c","name":"n","content":"x","meta":{"tags":"one","created":"2024-01-02","k":{"n":[1,{"m":null}]}}}`, ""},
		{`{"category":"c","name":"n","content":"😀 \ud83d\ude00 \\ud800 is text"}`, ""}, // an escaped backslash, then "ud800"
		{`{"category":"c","name":"n","content":"x","meta":{"d":` + deep[:len(deep)-1] + `}}}`, "meta: nested more than 32 levels deep"},
		{`{"category":"c","name":"n","content":"x","meta":{"d":` + strings.Repeat(`{"a":`, 29) + "1" + strings.Repeat("}", 29) + `}}`, ""},
		{`{"category":"c","name":"n","content":"x","name":"m"}`, `key "name" appears twice`},
		{`{"category":"c","name":"n","content":"x","meta":{"a":{"b":1,"b":2}}}`, `meta.a: key "b" appears twice`},
		{`{"category":"c","name":"n","content":"x","meta":{"l":[{"b":1},{"b":2,"b":3}]}}`, `meta.l[]: key "b" appears twice`},
		{`{"category":"c","name":"n","content":"x","meta":{"a":{"b":1},"c":{"b":2}}}`, ""}, // same key, different objects
		{`{"category":"c","name":"n","content":"\ud800"}`, `\ud800 at byte 38 is half of a UTF-16 surrogate pair`},
		{`{"category":"c","name":"n","content":"\udc00\ud800"}`, `\udc00 at byte 38`},
		{`{"category":"c","name":"\ud83d","content":"x"}`, `\ud83d at byte 24`},
		{`{"category":"c","name":"n","content":"x","meta":{"tags":["a"," "]}}`, "meta.tags: item 2 must not be empty"},
		{`{"category":"c","name":"n","content":"x","meta":{"tags":["\u001b[31mred"]}}`, "meta.tags: item 1 contains control character U+001B, which is not allowed"},
		{`{"category":"c","name":"n","content":"x","meta":{"tags":[1]}}`, "meta.tags: item 1 is a number"},
		{`{"category":"c","name":"n","content":"x","meta":{"blob":"` + strings.Repeat("x", MaxMetaBytes) + `"}}`, "meta is 65547 bytes of JSON, the limit is 65536"},
		{`{"category":"c","name":"n","content":"x","meta":[1]}`, "meta is a JSON array, want an object"},
		{`{"category":"c","name":"n","content":"x","meta":"s"}`, "meta is a JSON string, want an object"},
		{`{"category":"c","name":"n"}`, "missing content"},
		{`{"category":5,"name":"n","content":"x"}`, "category is a JSON number, want a string"},
		{`{"x":1}`, `unknown field "x"`},
		{`{"Category":"c","name":"n","content":"x"}`, `key "Category" is not a known field: keys are case-sensitive (did you mean "category"?)`},
		{`[1]`, "is a JSON array, want an object"},
		{`{"category":"c","name":"n","content":"x"} {}`, "more than one JSON value on the line"},
		{"{\"category\":\"c\",\"name\":\"n\",\"content\":\"\xff\"}", "not valid UTF-8"},
		{`{"category":`, "not valid JSON"},
	}
	for _, c := range cases {
		_, err := ParseRecord([]byte(c.line))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%.80s: %v", c.line, err)
		case c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err)):
			t.Errorf("%.80s: error %v, want %q", c.line, err, c.err)
		}
	}
	e, err := ParseRecord([]byte(`{"category":"c","name":"n","content":"x","meta":{"tags":["b","a","b"],"updated":"2024-01-02","big":12345678901234567,"f":2.5}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e.Meta.Tags, []string{"b", "a"}) || !e.Meta.Updated.Equal(time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)) ||
		e.Meta.Extra["big"] != int64(12345678901234567) || e.Meta.Extra["f"] != 2.5 {
		t.Errorf("meta = %+v", e.Meta)
	}
}

func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", 100)
	src := "a\r\n" + long + "\n\nlast"
	type got struct {
		line    string
		tooLong bool
	}
	var lines []got
	// The smallest buffer bufio allows, so lines span several ReadSlice calls.
	br := bufio.NewReaderSize(strings.NewReader(src), 16)
	for {
		l, tooLong, err := readLine(br, 50)
		lines = append(lines, got{string(l), tooLong})
		if err != nil {
			break
		}
	}
	want := []got{{"a", false}, {"", true}, {"", false}, {"last", false}}
	if !slices.Equal(lines, want) {
		t.Errorf("lines = %+v, want %+v", lines, want)
	}
}

func TestReadJSONL(t *testing.T) {
	src := "\xef\xbb\xbf" + `{"category":"a","name":"b","content":"1"}` + "\n\n" +
		`{"category":"a","name":"b","content":"2"}` + "\r\n" + `{bad` + "\n" + `{"category":"a","name":"c:d","content":"x"}`
	p, err := ReadJSONL(ctx, strings.NewReader(src), "in")
	if err != nil {
		t.Fatal(err)
	}
	if got := keysOf(p.Items); !slices.Equal(got, []string{"a:b"}) || p.Items[0].Where != "in:1" {
		t.Errorf("items %+v", p.Items)
	}
	var where []string
	for _, s := range p.Skipped {
		where = append(where, s.Where)
	}
	if !slices.Equal(where, []string{"in:3", "in:4", "in:5"}) || p.Skipped[2].Rename != "c-d" {
		t.Errorf("skipped %+v", p.Skipped)
	}
}

// What parses renders back as `recall get --json` renders an entry, and
// parses to the same entry.
func FuzzParseRecord(f *testing.F) {
	f.Add([]byte(`{"category":"trips","name":"三亚之行","content":"x","meta":{"tags":["a"],"created":"2024-03-02T09:15:00Z","k":[1,2.5,{"n":null}]}}`))
	f.Add([]byte(`{"category":"a","name":"b","content":""}`))
	f.Add([]byte(`{"category":"a","name":"b","content":"c","meta":{"tags":"one","updated":"2024-01-02"}}`))
	f.Add([]byte(`{"category":1}`))
	f.Add([]byte("{\"content\":\"\xff\"}"))
	f.Add([]byte(`{"category":"a","name":"b","content":"\ud800\\ud800","a":1,"a":2}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		e, err := ParseRecord(line)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty reason")
			}
			return
		}
		meta := map[string]any{}
		for k, v := range e.Meta.Extra {
			meta[k] = v
		}
		if len(e.Meta.Tags) > 0 {
			meta["tags"] = e.Meta.Tags
		}
		if !e.Meta.Created.IsZero() {
			meta["created"] = e.Meta.Created.Format(time.RFC3339Nano)
		}
		if !e.Meta.Updated.IsZero() {
			meta["updated"] = e.Meta.Updated.Format(time.RFC3339Nano)
		}
		b, err := json.Marshal(map[string]any{"category": e.Category, "name": e.Name, "content": e.Content, "meta": meta})
		if err != nil {
			return // NaN cannot come from JSON; nothing else expected
		}
		again, err := ParseRecord(b)
		if err != nil {
			t.Fatalf("re-parse of %s: %v", b, err)
		}
		if !Equal(again, e) && !(len(again.Meta.Extra) == len(e.Meta.Extra) && again.Content == e.Content) {
			t.Fatalf("round trip changed the entry:\n%+v\n%+v", e, again)
		}
	})
}
