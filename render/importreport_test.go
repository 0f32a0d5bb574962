package render

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/service"
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
	WriteImportReport(&b, plan, rep, service.Duplicates{})
	want := "skipped " + plan.Skipped[0].String() + "\nskipped notes:b: too big\nimported 1, unchanged 2, skipped 2\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
	if !strings.HasPrefix(plan.Skipped[0].String(), "in.jsonl:2") {
		t.Errorf("skip %q does not name the line", plan.Skipped[0])
	}
}

func TestWriteImportDuplicates(t *testing.T) {
	plan := &importer.Plan{}
	var b bytes.Buffer
	d := service.Duplicates{Count: 4, First: [][2]string{{"notes:a", "notes:b"}, {"notes:c", "shop:c"}}}
	WriteImportReport(&b, plan, importer.Report{Added: 9}, d)
	d = service.Duplicates{Count: 9, First: [][2]string{{"a:1", "b:1"}, {"a:2", "b:2"}, {"a:3", "b:3"}, {"a:4", "b:4"}, {"a:5", "b:5"}}}
	WriteImportReport(&b, plan, importer.Report{Added: 9}, d)
	want := "imported 9, unchanged 0, skipped 0\nduplicates 4: notes:a = notes:b, notes:c = shop:c\n" +
		"imported 9, unchanged 0, skipped 0\nduplicates 9: a:1 = b:1, a:2 = b:2, a:3 = b:3, a:4 = b:4, a:5 = b:5, ...\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}

func TestWriteChange(t *testing.T) {
	var b bytes.Buffer
	WriteChange(&b, service.Change{Category: "notes", Name: "a", Status: "added"})
	WriteChange(&b, service.Change{Category: "notes", Name: "b", Status: "updated", Duplicates: []string{"notes:a", "shop:a"}})
	if want := "added notes:a\nupdated notes:b\nduplicates: notes:a, shop:a\n"; b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}
