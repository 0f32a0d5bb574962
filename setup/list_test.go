package setup_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/setup"
)

func TestListListing(t *testing.T) {
	l, err := setup.List{Category: "Cafe\u0301", Long: true, Time: setup.Time{After: "2024-05-01", TZ: "UTC"}}.Listing()
	if err != nil {
		t.Fatal(err)
	}
	if l.Category != "Café" || !l.Read || l.Zone == nil || l.Range.From.IsZero() || !l.Range.To.IsZero() || l.Expired {
		t.Errorf("listing %+v", l)
	}
	if l, _ := (setup.List{}).Listing(); l.Read || l.Category != "" {
		t.Errorf("names only: %+v", l)
	}
	page := setup.List{Limit: service.DefaultListLimit, LimitGiven: true}
	if _, err := page.Listing(); err != nil || !page.Paged() || (setup.List{}).Paged() {
		t.Errorf("a page: %v", err)
	}

	for _, c := range []struct {
		l         setup.List
		flag, msg string // flag "" means not a setting's error
	}{
		{setup.List{Category: "a/../b"}, "", "category"},
		{setup.List{Time: setup.Time{After: "May"}}, "--after", "--after:"},
		{setup.List{Time: setup.Time{Before: "2024-05-01"}, Cursor: "x"}, "--after", "--after and --before do not combine with --limit or --cursor"},
		{setup.List{Expired: true, LimitGiven: true, Limit: 5}, "--expired", "--expired does not combine with --limit or --cursor"},
		{setup.List{Time: setup.Time{After: "2024-05-02", Before: "2024-05-01"}}, "--before", "--before (2024-05-01) must be later than --after (2024-05-02)"},
		{setup.List{LimitGiven: true, Limit: 0}, "--limit", "--limit must be between 1 and 10000, got 0"},
		{setup.List{Cursor: "x", Limit: service.MaxListLimit + 1}, "--limit", "--limit must be between 1"},
	} {
		_, err := c.l.Listing()
		var se *setup.Error
		switch {
		case err == nil:
			t.Errorf("%+v: no error", c.l)
		case !strings.Contains(err.Error(), c.msg):
			t.Errorf("%+v: %v, want %q", c.l, err, c.msg)
		case errors.As(err, &se) != (c.flag != "") || (se != nil && se.Setting != c.flag):
			t.Errorf("%+v: %#v, want flag %q", c.l, err, c.flag)
		}
	}
}
