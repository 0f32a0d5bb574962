package storetest

import (
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// testDate checks the event date: a date without a time of day reads back
// as one (store.IsDateOnly), a time keeps its instant (to the microsecond,
// PostgreSQL's precision), it is never stamped, Update keeps it when fn
// does, and a Put without it clears it.
func testDate(t *testing.T, s store.Store) {
	day := time.Date(2024, 5, 3, 0, 0, 0, 0, time.UTC)
	at := time.Date(2024, 5, 3, 14, 30, 15, 123456000, time.FixedZone("CST", 8*3600))
	mustPut(t, s, store.Entry{Category: "diary", Name: "day", Content: "beach", Meta: store.Meta{Date: day, Tags: []string{"trip"}}})
	mustPut(t, s, store.Entry{Category: "diary", Name: "at", Content: "lunch", Meta: store.Meta{Date: at}})
	mustPut(t, s, store.Entry{Category: "diary", Name: "none", Content: "undated"})

	get := func(name string) store.Entry {
		t.Helper()
		e, err := s.Get(ctx, "diary", name)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	if e := get("day"); !e.Meta.Date.Equal(day) || !store.IsDateOnly(e.Meta.Date) {
		t.Errorf("date-only date = %v (date only %v), want %v read back as a date", e.Meta.Date, store.IsDateOnly(e.Meta.Date), day)
	}
	if e := get("at"); !e.Meta.Date.Equal(at) || store.IsDateOnly(e.Meta.Date) {
		t.Errorf("date = %v, want the instant %v", e.Meta.Date, at)
	}
	if e := get("none"); !e.Meta.Date.IsZero() {
		t.Errorf("undated entry has date %v, want none (dates are never stamped)", e.Meta.Date)
	}
	all := collect(t, s)
	if e := all[store.Key{Category: "diary", Name: "day"}]; !e.Meta.Date.Equal(day) {
		t.Errorf("All yields date %v, want %v", e.Meta.Date, day)
	}
	err := s.Update(ctx, "diary", "day", func(old store.Entry, _ bool) (store.Entry, error) {
		old.Content += " again"
		return old, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if e := get("day"); !e.Meta.Date.Equal(day) || e.Content != "beach again" {
		t.Errorf("after Update: date %v content %q, want %v kept", e.Meta.Date, e.Content, day)
	}
	mustPut(t, s, store.Entry{Category: "diary", Name: "day", Content: "replaced"})
	if e := get("day"); !e.Meta.Date.IsZero() {
		t.Errorf("Put without a date kept %v, want it cleared (Put replaces)", e.Meta.Date)
	}
}
