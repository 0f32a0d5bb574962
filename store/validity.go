package store

import (
	"fmt"
	"strings"
	"time"
	"unicode"
)

// Metadata keys of validity (docs/validity.md). They live in Meta.Extra,
// which every backend keeps as it is: a folder store writes them as
// ordinary front matter keys, bolt and PostgreSQL in their extra
// metadata, JSONL in "meta".
const (
	// MetaSupersedes lists the entries an entry replaces, as wiki-links
	// ("[[places:Paris flat]]"); a superseded entry stays stored but is no
	// hit of a retrieve by default.
	MetaSupersedes = "supersedes"
	// MetaExpires is the moment from which an entry is no longer a hit of
	// a retrieve by default: a date ("2026-07-01", that day's midnight in
	// the reader's zone) or an RFC 3339 time.
	MetaExpires = "expires"
)

// Supersedes returns the links of m's supersedes key, each in the
// wiki-link form "[[target]]" (a label, a heading or a block after the
// target are kept as written): a list of strings or, as people write by
// hand, one string. A value without brackets ("places:Paris flat") is
// that target; a "![[...]]" embed is its link. None when the key is
// absent. The error is a *FieldError for field "supersedes".
func Supersedes(m Meta) ([]string, error) {
	v, ok := m.Extra[MetaSupersedes]
	if !ok || v == nil {
		return nil, nil
	}
	var raw []string
	switch v := v.(type) {
	case string:
		raw = []string{v}
	case []string:
		raw = v
	case []any:
		for _, x := range v {
			switch x := x.(type) {
			case string:
				raw = append(raw, x)
			case []any:
				// YAML reads an unquoted [[places:Paris flat]] as a list
				// holding a list of one string: that link.
				if len(x) == 1 {
					if s, ok := x[0].(string); ok {
						raw = append(raw, "[["+s+"]]")
						continue
					}
				}
				return nil, fieldError(MetaSupersedes, fmt.Sprint(x), "is a list; want a link such as \"[[places:Paris flat]]\" (quote it in YAML)")
			default:
				return nil, fieldError(MetaSupersedes, fmt.Sprint(x), fmt.Sprintf("is a %T, want a link such as \"[[places:Paris flat]]\"", x))
			}
		}
	default:
		return nil, fieldError(MetaSupersedes, fmt.Sprint(v), fmt.Sprintf("is a %T, want a list of links such as [\"[[places:Paris flat]]\"]", v))
	}
	links := make([]string, 0, len(raw))
	for _, s := range raw {
		l, err := SupersedesLink(s)
		if err != nil {
			return nil, err
		}
		links = append(links, l)
	}
	return links, nil
}

// SupersedesLink checks one value of the supersedes key and returns it as
// a wiki-link "[[...]]": "[[target]]", "[[target|label]]",
// "[[target#heading]]" as written, "![[target]]" without its '!', and a
// bare target ("places:Paris flat", "Paris flat", "places/Paris flat")
// in brackets. An empty target, a link into the entry itself
// ("[[#heading]]"), several links in one value and line breaks are
// refused with a *FieldError for field "supersedes".
func SupersedesLink(s string) (string, error) {
	v := strings.TrimSpace(s)
	v = strings.TrimPrefix(v, "!")
	inner, bracketed := strings.CutPrefix(v, "[[")
	if bracketed {
		var ok bool
		if inner, ok = strings.CutSuffix(inner, "]]"); !ok {
			return "", fieldError(MetaSupersedes, s, "opens [[ but does not end with ]]")
		}
	} else {
		inner = v
	}
	if strings.ContainsAny(inner, "[]") {
		return "", fieldError(MetaSupersedes, s, "must be one link such as \"[[places:Paris flat]]\"")
	}
	if strings.ContainsFunc(inner, unicode.IsControl) {
		return "", fieldError(MetaSupersedes, s, "contains a control character or a line break")
	}
	target := inner
	if i := strings.IndexAny(target, "|#"); i >= 0 {
		target = target[:i]
	}
	if strings.TrimSpace(target) == "" {
		if inner != "" && inner[0] == '#' {
			return "", fieldError(MetaSupersedes, s, "points into the entry itself; name the entry it replaces")
		}
		return "", fieldError(MetaSupersedes, s, "has an empty target; want a link such as \"[[places:Paris flat]]\"")
	}
	return "[[" + inner + "]]", nil
}

// Expires returns the moment of m's expires key: a time.Time as it is, or
// a string read as a date "2026-07-01" (midnight UTC, a calendar day:
// IsDateOnly, which each reader places in its own zone) or an RFC 3339
// time. Zero when the key is absent. The error is a *FieldError for field
// "expires".
func Expires(m Meta) (time.Time, error) {
	v, ok := m.Extra[MetaExpires]
	if !ok || v == nil {
		return time.Time{}, nil
	}
	switch v := v.(type) {
	case time.Time:
		if v.IsZero() {
			return time.Time{}, fieldError(MetaExpires, "0001-01-01", "is the zero time")
		}
		return v, nil
	case string:
		t, err := ParseExpires(v)
		if err != nil {
			return time.Time{}, err
		}
		return t, nil
	}
	return time.Time{}, fieldError(MetaExpires, fmt.Sprint(v), fmt.Sprintf("is a %T, want a date such as 2026-07-01 or an RFC 3339 time such as 2026-07-01T09:00:00+02:00", v))
}

// ParseExpires reads a value of the expires key: "2026-07-01" (a calendar
// day, kept as midnight UTC: IsDateOnly) or an RFC 3339 time (a space
// instead of the 'T' allowed). The error is a *FieldError for field
// "expires".
func ParseExpires(s string) (time.Time, error) {
	v := strings.TrimSpace(s)
	if len(v) == len(time.DateOnly) {
		if t, err := time.ParseInLocation(time.DateOnly, v, time.UTC); err == nil {
			return t, nil
		}
	} else if len(v) > 10 && (v[10] == ' ' || v[10] == 't') {
		v = v[:10] + "T" + v[11:]
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	return time.Time{}, fieldError(MetaExpires, s, "is not a date such as 2026-07-01 or an RFC 3339 time such as 2026-07-01T09:00:00+02:00")
}

// CheckValidity checks the validity keys of m (MetaSupersedes,
// MetaExpires) as a write must find them; the error is a *FieldError
// naming the key. Recall's write paths (add, the HTTP and MCP add, import)
// call it; a file edited by hand with a bad value is not refused by the
// store, and the index leaves the bad key out (see docs/validity.md).
func CheckValidity(m Meta) error {
	if _, err := Supersedes(m); err != nil {
		return err
	}
	_, err := Expires(m)
	return err
}

// ExpiryIn is the instant an expiry means when read in loc (nil:
// time.Local): a calendar day (IsDateOnly) is its midnight in loc, any
// other time is itself. The one rule of when an entry expires.
func ExpiryIn(t time.Time, loc *time.Location) time.Time {
	if !IsDateOnly(t) {
		return t
	}
	if loc == nil {
		loc = time.Local
	}
	y, mo, d := t.Date()
	return time.Date(y, mo, d, 0, 0, 0, 0, loc)
}

// IsExpired reports whether an entry with meta m has expired at now: it
// carries a readable expiry and now is at or after it (ExpiredAt). An
// entry is valid in [created, expires).
func IsExpired(m Meta, now time.Time) bool {
	t, err := Expires(m)
	return err == nil && !t.IsZero() && ExpiredAt(t, now)
}

// ExpiredAt reports whether the expiry t (as Expires or ParseExpires
// return it) has come at now: now is at or after it, a calendar day read
// in now's zone (ExpiryIn). The one rule of "expired at now", for the
// listing and for retrieve alike.
func ExpiredAt(t, now time.Time) bool { return !now.Before(ExpiryIn(t, now.Location())) }
