package setup_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/recallhq/recall/setup"
)

func TestAddRequest(t *testing.T) {
	a := setup.Add{Category: "notes", Name: "trip", Tags: []string{"sea", "beach", "sea"}, TagsGiven: true,
		Date: "2024-05-03", Supersedes: []string{"places:Paris flat"}, Expires: "2026-07-01"}
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
	req, err := a.Request("to the sea")
	if err != nil {
		t.Fatal(err)
	}
	if req.Category != "notes" || req.Name != "trip" || req.Content != "to the sea" || !req.Date.Equal(time.Date(2024, 5, 3, 0, 0, 0, 0, time.UTC)) ||
		!slices.Equal(req.Supersedes, []string{"places:Paris flat"}) || req.Expires.IsZero() {
		t.Errorf("request %+v", req)
	}
	if want := []string{"sea", "beach"}; !slices.Equal(req.Tags, want) {
		t.Errorf("tags %q, want %q (store.CleanTags: repeats dropped)", req.Tags, want)
	}
	// No --tag keeps the entry's tags (nil); --tag with none clears them.
	if req, _ := (setup.Add{Category: "a", Name: "b"}).Request("x"); req.Tags != nil || req.Supersedes != nil || !req.Date.IsZero() {
		t.Errorf("nothing given: %+v", req)
	}
	if req, _ := (setup.Add{Category: "a", Name: "b", TagsGiven: true}).Request("x"); req.Tags == nil || len(req.Tags) != 0 {
		t.Errorf("--tag with none: %#v, want an empty list", req.Tags)
	}
}

func TestAddErrors(t *testing.T) {
	if err := (setup.Add{Category: "", Name: "b"}).Check(); err == nil {
		t.Error("empty category accepted")
	}
	if err := (setup.Add{Category: "a", Name: "b", Tags: []string{"a\nb"}}).Check(); err == nil {
		t.Error("a tag with a newline accepted")
	}
	for _, c := range []struct {
		a       setup.Add
		setting string
	}{
		{setup.Add{Category: "a", Name: "b", Date: "May 3rd"}, "--date"},
		{setup.Add{Category: "a", Name: "b", Expires: "soon"}, "--expires"},
	} {
		_, err := c.a.Request("x")
		var se *setup.Error
		if !errors.As(err, &se) || se.Setting != c.setting {
			t.Errorf("%+v: %v, want an error naming %s", c.a, err, c.setting)
		}
	}
	var se *setup.Error
	if _, err := (setup.Add{Category: "a", Name: "b"}).Request("bad \xff content"); err == nil || errors.As(err, &se) {
		t.Errorf("invalid UTF-8 in content: %v, want the store's own error", err)
	}
}
