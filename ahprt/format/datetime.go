package format

// d2 parses two ASCII digits at s[i:i+2]; the caller guarantees the length.
func d2(s string, i int) (int, bool) {
	a, b := s[i]-'0', s[i+1]-'0'
	if a > 9 || b > 9 {
		return 0, false
	}
	return int(a)*10 + int(b), true
}

// fullDate checks RFC 3339 full-date = date-fullyear "-" date-month "-"
// date-mday against the proleptic Gregorian calendar. len(s) must be 10.
func fullDate(s string) bool {
	if s[4] != '-' || s[7] != '-' {
		return false
	}
	hi, ok1 := d2(s, 0)
	lo, ok2 := d2(s, 2)
	month, ok3 := d2(s, 5)
	day, ok4 := d2(s, 8)
	if !(ok1 && ok2 && ok3 && ok4) || month < 1 || month > 12 || day < 1 {
		return false
	}
	return day <= daysIn(hi*100+lo, month)
}

func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// fullTime checks RFC 3339 full-time = partial-time time-offset, with
// time-second 60 only where the time is 23:59 in UTC once the offset is
// taken off.
func fullTime(s string) bool {
	// "hh:mm:ss" + at least one offset byte
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := d2(s, 0)
	m, ok2 := d2(s, 3)
	sec, ok3 := d2(s, 6)
	if !(ok1 && ok2 && ok3) || h > 23 || m > 59 || sec > 60 {
		return false
	}
	i := 8
	if s[i] == '.' {
		i++
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start || i == len(s) {
			return false
		}
	}
	off := 0
	switch s[i] {
	case 'Z', 'z':
		if i+1 != len(s) {
			return false
		}
	case '+', '-':
		if len(s)-i != 6 || s[i+3] != ':' {
			return false
		}
		oh, ok1 := d2(s, i+1)
		om, ok2 := d2(s, i+4)
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return false
		}
		off = oh*60 + om
		if s[i] == '-' {
			off = -off
		}
	default:
		return false
	}
	if sec == 60 {
		utc := ((h*60+m-off)%1440 + 1440) % 1440
		return utc == 23*60+59
	}
	return true
}

// DateTime reports whether s is an RFC 3339 §5.6 date-time:
// full-date ("T" / "t") full-time.
func DateTime(s string) bool {
	return len(s) >= 20 && (s[10] == 'T' || s[10] == 't') && fullDate(s[:10]) && fullTime(s[11:])
}

// Date reports whether s is an RFC 3339 §5.6 full-date.
func Date(s string) bool { return len(s) == 10 && fullDate(s) }

// Time reports whether s is an RFC 3339 §5.6 full-time (the offset is
// required).
func Time(s string) bool { return fullTime(s) }

// Duration reports whether s is an RFC 3339 Appendix A duration.
func Duration(s string) bool {
	if len(s) < 3 || (s[0] != 'P' && s[0] != 'p') {
		return false
	}
	i := 1
	// dur-week = 1*DIGIT "W", alone.
	// dur-date: a run of D, M D, Y M D, ... i.e. consecutive units from
	// "YMD"; dur-time after "T": consecutive units from "HMS".
	elems := 0
	if i, elems = durUnits(s, i, "YMD", true); i < 0 {
		return false
	}
	if elems == 0 && i < len(s) {
		// maybe a week
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j > i && j+1 == len(s) && (s[j] == 'W' || s[j] == 'w') {
			return true
		}
	}
	if i < len(s) {
		if s[i] != 'T' && s[i] != 't' {
			return false
		}
		n := 0
		if i, n = durUnits(s, i+1, "HMS", false); i < 0 || n == 0 {
			return false
		}
		elems += n
	}
	return i == len(s) && elems > 0
}

// durUnits reads consecutive "digits unit" elements whose units are a
// contiguous run of units (in order). It stops before anything else and
// returns the index there and the number of elements, or -1 on a
// malformed element. In the date part a digit run followed by 'W' or 'T'
// is left to the caller.
func durUnits(s string, i int, units string, date bool) (int, int) {
	next, n := 0, 0
	for i < len(s) {
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i {
			return i, n // not an element: 'T' or junk, for the caller
		}
		if j == len(s) {
			return -1, 0 // number without a unit
		}
		u := s[j] &^ 0x20 // upper-case
		k := 0
		for k < len(units) && units[k] != u {
			k++
		}
		if k == len(units) {
			if date && u == 'W' && n == 0 {
				return i, 0
			}
			return -1, 0
		}
		if n > 0 && k != next {
			return -1, 0
		}
		next = k + 1
		n++
		i = j + 1
	}
	return i, n
}
