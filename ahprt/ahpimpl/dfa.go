package ahpimpl

import (
	"unicode/utf8"
	"unsafe"
)

// DFA is a regular expression compiled at generation time (by
// internal/redfa) into a deterministic automaton over rune classes. It
// answers exactly what regexp.MustCompile(re).Match and MatchString answer:
// whether some substring of the input matches, '^' and '$' being the start
// and end of the input. Generated code writes it as a composite literal,
// so it costs nothing to set up, and a match is one pass over the input
// (two table loads per ASCII byte: its class, then the next state) with no
// allocation, which stops as soon as the answer cannot change.
//
// Input is read as regexp reads it: UTF-8, each byte of an invalid
// sequence being one U+FFFD.
//
// The builder lays out the states so that the run needs no per-state
// flags: a state is named by the index in Next of its row's first entry
// (the i-th row is state i*Classes). The first row is the dead state
// (DFADead): no match can follow. The second (state Classes) has seen a
// match, whatever follows. Both absorb every input, and the states from
// Classes up to Final (exclusive) accept when the input ends there.
type DFA struct {
	// ASCII is the class of each ASCII byte.
	ASCII [128]uint8
	// Runes is the class of every non-ASCII rune: sorted, disjoint ranges
	// covering U+0080 to U+10FFFF.
	Runes []RuneClass
	// Classes is the number of classes: the length of a row of Next.
	Classes int
	// Next is the transition table, a row of Classes entries per state:
	// state s reading a rune of class k goes to state Next[s+k]. (Naming
	// states by row saves a multiplication per rune.)
	Next []uint16
	// Start is the state before the first rune.
	Start uint16
	// Final bounds the states that accept at the end of the input: the
	// states s with Classes <= s < Final.
	Final uint16
}

// RuneClass gives the runes Lo to Hi (inclusive) a DFA class.
type RuneClass struct {
	Lo, Hi rune
	Class  uint8
}

// DFADead is the state of every DFA from which no match is possible.
const DFADead = 0

// Match reports whether b contains a match, as regexp's Match does.
func (d *DFA) Match(b []byte) bool {
	// Locals: the compiler does not hoist loads through d out of the loop.
	ascii, next, matched := &d.ASCII, d.Next, d.Classes
	st := d.Start
	// The run stops early in the dead and matched states, 0 and Classes.
	for i := 0; int(st) > matched && i < len(b); {
		var k uint8
		if c := b[i]; c < utf8.RuneSelf {
			k = ascii[c]
			i++
		} else {
			r, w := utf8.DecodeRune(b[i:])
			k = d.class(r)
			i += w
		}
		st = next[int(st)+int(k)]
	}
	return st != DFADead && st < d.Final
}

// MatchString reports whether s contains a match, as regexp's MatchString
// does. It runs Match on s's bytes in place (Match only reads them).
func (d *DFA) MatchString(s string) bool {
	return d.Match(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// class finds the class of a non-ASCII rune (utf8.RuneError for an
// invalid byte, as regexp sees it) by binary search of Runes.
func (d *DFA) class(r rune) uint8 {
	rs := d.Runes
	lo, hi := 0, len(rs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if rs[m].Hi < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(rs) && rs[lo].Lo <= r {
		return rs[lo].Class
	}
	// Unreachable for a DFA the builder made (Runes covers every rune);
	// class 0 keeps a hand-written one memory-safe.
	return 0
}
