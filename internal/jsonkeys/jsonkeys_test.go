package jsonkeys

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	fields := []string{"category", "name", "content", "meta"}
	for _, c := range []struct{ in, err string }{
		{`{"category":"c","name":"n","content":"x"}`, ""},
		{`{"category":"c","meta":{"Mood":1,"mood":2}}`, ""}, // a map's keys are its own
		{`{"x":1}`, ""}, // unknown: the decoder's to refuse
		{`{"name":"n","content":"x","name":"m"}`, `key "name" appears twice`},
		{`{"content":"a","Content":"b"}`, `key "Content" is not a known field: keys are case-sensitive (did you mean "content"?)`},
		{`{"CONTENT":"a"}`, `key "CONTENT" is not a known field: keys are case-sensitive (did you mean "content"?)`},
		{`{"meta":{"a":{"b":1,"b":2}}}`, `meta.a: key "b" appears twice`},
		{`{"meta":{"l":[{"b":1},{"b":2,"b":3}]}}`, `meta.l[]: key "b" appears twice`},
		{`{"meta":{"Name":1}}`, ""}, // only the top level is fields
		{`{"meta":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`, "meta: nested more than 32 levels deep"},
		{`{"a":`, ""}, // syntax: the decoder's
		{`[{"a":1,"a":2}]`, `[]: key "a" appears twice`},
	} {
		err := Check([]byte(c.in), fields, 32)
		if got := ""; err != nil {
			got = err.Error()
			if got != c.err {
				t.Errorf("%.60s: %q, want %q", c.in, got, c.err)
			}
		} else if c.err != "" {
			t.Errorf("%.60s: accepted, want %q", c.in, c.err)
		}
	}
}
