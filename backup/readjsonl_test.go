package backup

import (
	"context"
	"strings"
	"testing"
)

func TestReadJSONL(t *testing.T) {
	in := `{"category":"notes","name":"a","content":"x","meta":{"tags":["t"]}}` + "\n" +
		`{"category":"notes","name":"b","content":"y","bogus":1}` + "\n" +
		`{"category":"notes","name":"c","content":"z"}` + "\n"
	entries, err := ReadJSONL(context.Background(), strings.NewReader(in), "b.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for e, err := range entries {
		if err != nil {
			got = append(got, "error "+err.Error())
			continue
		}
		got = append(got, e.Key().String()+" "+e.Content+" "+strings.Join(e.Meta.Tags, ","))
	}
	if len(got) != 3 || !strings.HasPrefix(got[0], "error b.jsonl:2") || got[1] != "notes:a x t" || got[2] != "notes:c z " {
		t.Fatalf("got %q; want line 2's error, then notes:a and notes:c", got)
	}
	// Stopping early is honoured.
	n := 0
	for range entries {
		n++
		break
	}
	if n != 1 {
		t.Fatalf("%d yields after break", n)
	}
}
