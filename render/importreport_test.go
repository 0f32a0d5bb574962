package render

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/recallhq/recall/importer"
)

func TestWriteImportReport(t *testing.T) {
	in := `{"category":"notes","name":"a","content":"x"}` + "\n" + `{"category":"notes"}` + "\n"
	plan, err := importer.ReadJSONL(context.Background(), strings.NewReader(in), "in.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Skipped) != 1 {
		t.Fatalf("plan skipped %v, want the second line", plan.Skipped)
	}
	rep := importer.Report{Added: 1, Unchanged: 2, Rejected: []importer.Skip{{Where: "notes:b", Reason: "too big"}}}
	var b bytes.Buffer
	WriteImportReport(&b, plan, rep)
	want := "skipped " + plan.Skipped[0].String() + "\nskipped notes:b: too big\nimported 1, unchanged 2, skipped 2\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
	if !strings.HasPrefix(plan.Skipped[0].String(), "in.jsonl:2") {
		t.Errorf("skip %q does not name the line", plan.Skipped[0])
	}
}
