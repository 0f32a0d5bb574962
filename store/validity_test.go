package store

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSupersedesLink(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"[[places:Paris flat]]", "[[places:Paris flat]]", ""},
		{"  places:Paris flat ", "[[places:Paris flat]]", ""},
		{"Paris flat", "[[Paris flat]]", ""},
		{"[[Paris flat|the old flat]]", "[[Paris flat|the old flat]]", ""},
		{"[[places/Paris flat#Rent]]", "[[places/Paris flat#Rent]]", ""},
		{"![[places:Paris flat]]", "[[places:Paris flat]]", ""},
		{"", "", "empty target"},
		{"[[]]", "", "empty target"},
		{"[[#heading]]", "", "points into the entry itself"},
		{"[[a]] and [[b]]", "", "one link"},
		{"[[a", "", "does not end with ]]"},
		{"a\nb", "", "line break"},
	} {
		got, err := SupersedesLink(c.in)
		if c.err != "" {
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != MetaSupersedes || !strings.Contains(err.Error(), c.err) || !errors.Is(err, ErrInvalid) {
				t.Errorf("SupersedesLink(%q) = %q, %v; want a supersedes error with %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("SupersedesLink(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestSupersedesForms(t *testing.T) {
	for _, c := range []struct {
		v    any
		want []string
		bad  bool
	}{
		{nil, nil, false},
		{"places:a", []string{"[[places:a]]"}, false},
		{[]any{"[[a]]", "b"}, []string{"[[a]]", "[[b]]"}, false},
		{[]string{"[[a]]"}, []string{"[[a]]"}, false},
		// YAML's reading of an unquoted [[places:a]].
		{[]any{[]any{"places:a"}}, []string{"[[places:a]]"}, false},
		{[]any{[]any{"a", "b"}}, nil, true},
		{[]any{3}, nil, true},
		{map[string]any{"a": 1}, nil, true},
	} {
		got, err := Supersedes(Meta{Extra: map[string]any{MetaSupersedes: c.v}})
		if (err != nil) != c.bad || strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("Supersedes(%#v) = %q, %v; want %q (error %v)", c.v, got, err, c.want, c.bad)
		}
	}
}

func TestExpires(t *testing.T) {
	day := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	at := time.Date(2026, 7, 1, 9, 30, 0, 0, time.FixedZone("", 2*3600))
	for _, c := range []struct {
		v    any
		want time.Time
		bad  bool
	}{
		{nil, time.Time{}, false},
		{"2026-07-01", day, false},
		{"2026-07-01T09:30:00+02:00", at, false},
		{"2026-07-01 09:30:00+02:00", at, false},
		{at, at, false},
		{"next week", time.Time{}, true},
		{"2026-13-01", time.Time{}, true},
		{"2026-07-01T09:30:00", time.Time{}, true}, // no zone
		{42, time.Time{}, true},
	} {
		got, err := Expires(Meta{Extra: map[string]any{MetaExpires: c.v}})
		if (err != nil) != c.bad || !got.Equal(c.want) {
			t.Errorf("Expires(%#v) = %v, %v; want %v (error %v)", c.v, got, err, c.want, c.bad)
		}
		if c.bad {
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != MetaExpires {
				t.Errorf("Expires(%#v): error %v does not name the field", c.v, err)
			}
		}
	}
	if d, _ := Expires(Meta{Extra: map[string]any{MetaExpires: "2026-07-01"}}); !IsDateOnly(d) {
		t.Errorf("a date's expiry %v is not a calendar day", d)
	}
}
