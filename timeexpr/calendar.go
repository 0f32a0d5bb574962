package timeexpr

import "time"

// Calendar arithmetic. Every boundary is built with time.Date in now's
// location, so a day is a calendar day (23 or 25 hours across a DST
// change), never 24 hours added to an instant.

func dayStart(now time.Time, offset int) time.Time {
	y, m, d := now.Date()
	return time.Date(y, m, d+offset, 0, 0, 0, 0, now.Location())
}

// dayOf is the calendar day now+offset days.
func dayOf(now time.Time, offset int) Range {
	return Range{dayStart(now, offset), dayStart(now, offset+1)}
}

// isoWeekday numbers Monday 0 … Sunday 6.
func isoWeekday(t time.Time) int { return (int(t.Weekday()) + 6) % 7 }

// weekOf is the ISO week (Monday to Sunday) offset weeks from now's.
func weekOf(now time.Time, offset int) Range {
	mon := -isoWeekday(now) + 7*offset
	return Range{dayStart(now, mon), dayStart(now, mon+7)}
}

func monthRange(y int, m time.Month, loc *time.Location) Range {
	return Range{time.Date(y, m, 1, 0, 0, 0, 0, loc), time.Date(y, m+1, 1, 0, 0, 0, 0, loc)}
}

// monthOf is the calendar month offset months from now's.
func monthOf(now time.Time, offset int) Range {
	y, m, _ := now.Date()
	return monthRange(y, m+time.Month(offset), now.Location())
}

func yearRange(y int, loc *time.Location) Range {
	return Range{time.Date(y, 1, 1, 0, 0, 0, 0, loc), time.Date(y+1, 1, 1, 0, 0, 0, 0, loc)}
}

func dateRange(y int, m time.Month, d int, loc *time.Location) Range {
	return Range{time.Date(y, m, d, 0, 0, 0, 0, loc), time.Date(y, m, d+1, 0, 0, 0, 0, loc)}
}

func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// recentMonth is the most recent month m that has begun by now: this
// year's when m is now's month or earlier, else last year's. With a
// non-zero after, it is instead the first month m beginning at or after
// after (the second end of "between March and May").
func recentMonth(now time.Time, m time.Month, after time.Time) Range {
	loc := now.Location()
	if !after.IsZero() {
		y := after.In(loc).Year()
		r := monthRange(y, m, loc)
		if r.From.Before(after) {
			r = monthRange(y+1, m, loc)
		}
		return r
	}
	y := now.Year()
	if m > now.Month() {
		y--
	}
	return monthRange(y, m, loc)
}

// recentDate is the most recent day m/d that is not after today (a 29
// February looks back to the last leap year); with a non-zero after, the
// first one at or after after. ok is false for a day no year has.
func recentDate(now time.Time, m time.Month, d int, after time.Time) (Range, bool) {
	if d < 1 || d > 31 || (m == time.February && d > 29) || d > daysIn(2000, m) {
		return Range{}, false
	}
	loc := now.Location()
	today := dayStart(now, 0)
	if !after.IsZero() {
		for y := after.In(loc).Year(); y < after.In(loc).Year()+9; y++ {
			if d <= daysIn(y, m) {
				if r := dateRange(y, m, d, loc); !r.From.Before(after) {
					return r, true
				}
			}
		}
		return Range{}, false
	}
	for y := now.Year(); y > now.Year()-9; y-- {
		if d <= daysIn(y, m) {
			if r := dateRange(y, m, d, loc); !r.From.After(today) {
				return r, true
			}
		}
	}
	return Range{}, false
}

// recentWeekday is the most recent day with weekday wd (ISO numbering) on
// or before today, or strictly before today when strict is set; with a
// non-zero after, the first one at or after after.
func recentWeekday(now time.Time, wd int, strict bool, after time.Time) Range {
	if !after.IsZero() {
		a := after.In(now.Location())
		diff := (wd - isoWeekday(a) + 7) % 7
		y, m, d := a.Date()
		loc := now.Location()
		return dateRange(y, m, d+diff, loc)
	}
	back := (isoWeekday(now) - wd + 7) % 7
	if back == 0 && strict {
		back = 7
	}
	return dayOf(now, -back)
}

// rolling is the n days, weeks, months or years that end with today:
// "the past 3 days" on a Wednesday is Monday to Wednesday; "the past
// month" on 31 March is 1 March to 31 March (the day after the same date a
// month back, clamped to that month's length).
func rolling(now time.Time, n int, unit byte) Range {
	loc := now.Location()
	y, m, d := now.Date()
	end := time.Date(y, m, d+1, 0, 0, 0, 0, loc)
	switch unit {
	case 'd':
		return Range{time.Date(y, m, d-n+1, 0, 0, 0, 0, loc), end}
	case 'w':
		return Range{time.Date(y, m, d-7*n+1, 0, 0, 0, 0, loc), end}
	case 'm':
		first := time.Date(y, m-time.Month(n), 1, 0, 0, 0, 0, loc)
		dd := min(d, daysIn(first.Year(), first.Month()))
		return Range{time.Date(first.Year(), first.Month(), dd+1, 0, 0, 0, 0, loc), end}
	}
	dd := min(d, daysIn(y-n, m))
	return Range{time.Date(y-n, m, dd+1, 0, 0, 0, 0, loc), end}
}

// weekend is the Saturday and Sunday of the ISO week offset weeks from
// now's.
func weekend(now time.Time, offset int) Range {
	w := weekOf(now, offset)
	return Range{time.Date(w.From.Year(), w.From.Month(), w.From.Day()+5, 0, 0, 0, 0, now.Location()), w.To}
}
