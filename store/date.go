package store

import "time"

// IsDateOnly reports whether t is a calendar date without a time of day,
// as Meta.Date holds one: midnight UTC, in the UTC location. (An RFC 3339
// time written as exactly midnight "Z" reads the same way.)
func IsDateOnly(t time.Time) bool {
	if t.IsZero() || t.Location() != time.UTC {
		return false
	}
	h, m, s := t.Clock()
	return h == 0 && m == 0 && s == 0 && t.Nanosecond() == 0
}

// EffectiveDate is the date an entry is placed at in time: Meta.Date when
// present, else Meta.Created (zero when it has neither). A date without a
// time of day (IsDateOnly) is that day's midnight in loc, so "on 3 May"
// finds an entry dated 2024-05-03 in any time zone; nil loc means
// time.Local.
func EffectiveDate(m Meta, loc *time.Location) time.Time {
	if m.Date.IsZero() {
		return m.Created
	}
	if IsDateOnly(m.Date) {
		if loc == nil {
			loc = time.Local
		}
		y, mo, d := m.Date.Date()
		return time.Date(y, mo, d, 0, 0, 0, 0, loc)
	}
	return m.Date
}

// FormatDate writes a Meta.Date the way users write one: "2024-05-03" for
// a date without a time of day, else RFC 3339 (nanoseconds when present).
func FormatDate(t time.Time) string {
	if IsDateOnly(t) {
		return t.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339Nano)
}

// InRange reports whether m's effective date, read in loc, lies in the
// half-open range [from, to); a zero from or to leaves that side open. An
// entry with neither a date nor a created time is only in an open range.
func InRange(m Meta, from, to time.Time, loc *time.Location) bool {
	if from.IsZero() && to.IsZero() {
		return true
	}
	t := EffectiveDate(m, loc)
	return !t.IsZero() && (from.IsZero() || !t.Before(from)) && (to.IsZero() || t.Before(to))
}
