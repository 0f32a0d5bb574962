package render

import (
	"bytes"
	"strconv"
	"testing"
	"time"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

func TestWriteLongAndItems(t *testing.T) {
	// In UTC: WriteLong prints the UTC date, WriteItems the date as the
	// metadata text has it (the two differ for a time stored with an offset).
	updated := time.Date(2026, 3, 2, 2, 30, 0, 0, time.UTC)
	entries := []store.Entry{
		{Category: "trips", Name: "sanya", Content: "beach", Meta: store.Meta{Updated: updated, Tags: []string{"travel", "sea\x07"}}},
		{Category: "notes", Name: "bare", Content: "x"},
	}
	var long bytes.Buffer
	if err := WriteLong(&long, entries); err != nil {
		t.Fatal(err)
	}
	want := "trips:sanya\t" + strconv.Itoa(service.TokensEst(entries[0])) + " tokens\t2026-03-02\ttravel,sea\\x07\n" +
		"notes:bare\t" + strconv.Itoa(service.TokensEst(entries[1])) + " tokens\t-\t-\n"
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
	if want := "trips:sanya\nnotes:bare\n"; page.String() != want {
		t.Errorf("WriteItems: %q, want %q", page.String(), want)
	}
}
