package render

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

func TestWriteLongAndItems(t *testing.T) {
	// Both print the UTC date, also of a time stored with an offset
	// (2026-03-02T08:30+08:00 is the 2nd in UTC, 23:30-05:00 the 3rd):
	// WriteItems printed the date as the metadata text had it.
	updated := time.Date(2026, 3, 2, 2, 30, 0, 0, time.UTC)
	entries := []store.Entry{
		{Category: "trips", Name: "sanya", Content: "beach", Meta: store.Meta{Updated: updated, Tags: []string{"travel", "sea\x07"}}},
		{Category: "notes", Name: "bare", Content: "x"},
		{Category: "notes", Name: "east", Content: "y", Meta: store.Meta{Updated: updated.In(time.FixedZone("", 8*3600))}},
		{Category: "notes", Name: "west", Content: "z", Meta: store.Meta{Updated: time.Date(2026, 3, 2, 23, 30, 0, 0, time.FixedZone("", -5*3600))}},
	}
	var long bytes.Buffer
	if err := WriteLong(&long, entries); err != nil {
		t.Fatal(err)
	}
	want := "trips:sanya\t" + strconv.Itoa(service.TokensEst(entries[0])) + " tokens\t2026-03-02\ttravel,sea\\x07\n" +
		"notes:bare\t" + strconv.Itoa(service.TokensEst(entries[1])) + " tokens\t-\t-\n" +
		"notes:east\t" + strconv.Itoa(service.TokensEst(entries[2])) + " tokens\t2026-03-02\t-\n" +
		"notes:west\t" + strconv.Itoa(service.TokensEst(entries[3])) + " tokens\t2026-03-03\t-\n"
	if long.String() != want {
		t.Errorf("WriteLong:\n%q\nwant\n%q", long.String(), want)
	}

	// A page of the listing reads the same columns from the metadata
	// object, so both paths of `recall ls --long` print alike.
	items := make([]service.ListItem, len(entries))
	for i, e := range entries {
		items[i] = service.ListItem{Category: e.Category, Name: e.Name, TokensEst: service.TokensEst(e), Meta: service.MetaObject(e.Meta)}
	}
	var page bytes.Buffer
	if err := WriteItems(&page, items, true); err != nil {
		t.Fatal(err)
	}
	if page.String() != want {
		t.Errorf("WriteItems long:\n%q\nwant\n%q", page.String(), want)
	}
	page.Reset()
	if err := WriteItems(&page, items, false); err != nil {
		t.Fatal(err)
	}
	if want := "trips:sanya\nnotes:bare\nnotes:east\nnotes:west\n"; page.String() != want {
		t.Errorf("WriteItems: %q, want %q", page.String(), want)
	}
}

// WriteList, WritePage and Skips write what `recall ls` prints.
func TestWriteListAndPage(t *testing.T) {
	entries := []store.Entry{{Category: "a", Name: "x", Content: "hello"}, {Category: "b", Name: "y"}}
	var b bytes.Buffer
	if err := WriteList(&b, entries, false, false); err != nil || b.String() != "a:x\nb:y\n" {
		t.Errorf("plain: %q, %v", b.String(), err)
	}
	b.Reset()
	if err := WriteList(&b, entries[:1], true, false); err != nil || !strings.HasPrefix(b.String(), "[\n  {\n    \"category\": \"a\",") {
		t.Errorf("json: %q, %v", b.String(), err)
	}
	b.Reset()
	if err := WriteList(&b, nil, true, false); err != nil || b.String() != "[]\n" {
		t.Errorf("json of nothing: %q, %v", b.String(), err)
	}
	b.Reset()
	if err := WriteList(&b, entries[:1], false, true); err != nil || !strings.HasPrefix(b.String(), "a:x\t") {
		t.Errorf("long: %q, %v", b.String(), err)
	}
	var out, diag bytes.Buffer
	p := service.ListPage{Entries: []service.ListItem{{Category: "a", Name: "x"}}, Total: 3, NextCursor: "Yw"}
	if err := WritePage(&out, &diag, p, false, false, nil, time.Time{}); err != nil || out.String() != "a:x\n" || diag.String() != "1 of 3 shown; next page: --cursor Yw\n" {
		t.Errorf("page: %q, %q, %v", out.String(), diag.String(), err)
	}
	diag.Reset()
	p.NextCursor = ""
	if err := WritePage(&out, &diag, p, true, false, nil, time.Time{}); err != nil || diag.Len() != 0 {
		t.Errorf("last page: %q, %v", diag.String(), err)
	}
	skips := &Skips{W: &diag}
	if skips.Err("ls") != nil {
		t.Error("an error without skips")
	}
	skips.Add(errors.New("c:x: bad\nfront matter"))
	skips.Add(errors.New("c:y: bad"))
	if got := diag.String(); got != "skipped c:x: bad front matter\nskipped c:y: bad\n" {
		t.Errorf("skips wrote %q", got)
	}
	if err := skips.Err("ls"); err == nil || err.Error() != "ls: 2 entries could not be read" {
		t.Errorf("Err = %v", err)
	}
}

func TestWriteCategoriesAndContent(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCategories(&b, []service.CategoryCount{{Category: "a", Count: 2}, {Category: "b/c", Count: 1}}); err != nil || b.String() != "a\t2\nb/c\t1\n" {
		t.Errorf("categories: %q, %v", b.String(), err)
	}
	for _, tt := range []struct {
		content  string
		terminal bool
		want     string
	}{
		{"no newline", false, "no newline"},
		{"no newline", true, "no newline\n"},
		{"one\n", true, "one\n"},
		{"", false, ""},
	} {
		b.Reset()
		if err := WriteContent(&b, tt.content, tt.terminal); err != nil || b.String() != tt.want {
			t.Errorf("WriteContent(%q, %v) = %q, %v", tt.content, tt.terminal, b.String(), err)
		}
	}
}

// TestWriteLongInlineTags: the tags column of `recall ls --long` lists the
// text's inline #tags after the metadata's, as a page of the listing
// (service.ListItemOf) does; code holds none. Before inline tags it
// printed "travel" alone.
func TestWriteLongInlineTags(t *testing.T) {
	e := store.Entry{Category: "trips", Name: "sanya", Content: "#beach week, #Travel too\n`#code`", Meta: store.Meta{Tags: []string{"travel"}}}
	var long, page bytes.Buffer
	if err := WriteLong(&long, []store.Entry{e}); err != nil {
		t.Fatal(err)
	}
	if err := WriteItems(&page, []service.ListItem{service.ListItemOf(e)}, true); err != nil {
		t.Fatal(err)
	}
	want := "trips:sanya\t" + strconv.Itoa(service.TokensEst(e)) + " tokens\t-\ttravel,beach\n"
	if long.String() != want || page.String() != want {
		t.Errorf("WriteLong %q, WriteItems %q, want %q", long.String(), page.String(), want)
	}
}
