package ecmaregex

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// rng is an inclusive range of code points.
type rng struct{ lo, hi rune }

// runeSet is a set of code points: sorted, non-overlapping, non-adjacent
// ranges once normalized.
type runeSet []rng

const maxRune = unicode.MaxRune

// norm sorts and merges the ranges of s.
func (s runeSet) norm() runeSet {
	if len(s) == 0 {
		return nil
	}
	t := append(runeSet(nil), s...)
	sort.Slice(t, func(i, j int) bool { return t[i].lo < t[j].lo })
	out := t[:1]
	for _, r := range t[1:] {
		last := &out[len(out)-1]
		if r.lo <= last.hi+1 {
			if r.hi > last.hi {
				last.hi = r.hi
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

func union(sets ...runeSet) runeSet {
	var all runeSet
	for _, s := range sets {
		all = append(all, s...)
	}
	return all.norm()
}

// complement returns the code points of [0, U+10FFFF] that are not in s
// (s must be normalized).
func (s runeSet) complement() runeSet {
	var out runeSet
	next := rune(0)
	for _, r := range s {
		if r.lo > next {
			out = append(out, rng{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= maxRune {
		out = append(out, rng{next, maxRune})
	}
	return out
}

// minus returns a \ b for normalized sets.
func minus(a, b runeSet) runeSet {
	return union(a.complement(), b).complement()
}

func (s runeSet) contains(c rune) bool {
	i := sort.Search(len(s), func(i int) bool { return s[i].hi >= c })
	return i < len(s) && s[i].lo <= c
}

// fromTable converts a unicode.RangeTable to a runeSet.
func fromTable(t *unicode.RangeTable) runeSet {
	var out runeSet
	for _, r := range t.R16 {
		if r.Stride == 1 {
			out = append(out, rng{rune(r.Lo), rune(r.Hi)})
			continue
		}
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			out = append(out, rng{c, c})
		}
	}
	for _, r := range t.R32 {
		if r.Stride == 1 {
			out = append(out, rng{rune(r.Lo), rune(r.Hi)})
			continue
		}
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			out = append(out, rng{c, c})
		}
	}
	return out.norm()
}

func single(lo, hi rune) runeSet { return runeSet{{lo, hi}} }

// Sets used by the character class escapes.
var (
	digitSet = runeSet{{'0', '9'}}
	// wordSet is ECMA-262 WordCharacters without ignoreCase: [0-9A-Z_a-z].
	wordSet = runeSet{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
	// wordSetFold is WordCharacters with the u and i flags: the basic word
	// characters plus the two code points whose simple case folding is a
	// basic word character: U+017F LATIN SMALL LETTER LONG S (folds to s) and
	// U+212A KELVIN SIGN (folds to k).
	wordSetFold = union(wordSet, runeSet{{0x017F, 0x017F}, {0x212A, 0x212A}})
	// spaceSet is ECMA-262 WhiteSpace plus LineTerminator: TAB, LF, VT, FF,
	// CR, SPACE, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F,
	// U+205F, U+3000, U+FEFF (WhiteSpace is TAB VT FF ZWNBSP and every Zs code
	// point; LineTerminator is LF CR LS PS).
	spaceSet = runeSet{
		{'\t', '\r'}, {' ', ' '}, {0xA0, 0xA0}, {0x1680, 0x1680},
		{0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F},
		{0x3000, 0x3000}, {0xFEFF, 0xFEFF},
	}
	allSet = runeSet{{0, maxRune}}
)

// writeClassRune writes c so that it stands for itself inside an RE2
// bracket expression.
func writeClassRune(b *strings.Builder, c rune) {
	switch {
	case c == '\\' || c == ']' || c == '[' || c == '-' || c == '^':
		b.WriteByte('\\')
		b.WriteRune(c)
	case c > ' ' && c < 0x7F:
		b.WriteRune(c)
	case c == ' ':
		b.WriteByte(' ')
	default:
		writeHex(b, c)
	}
}

// writeLiteralRune writes c so that it stands for itself outside a bracket
// expression in RE2 syntax.
func writeLiteralRune(b *strings.Builder, c rune) {
	switch {
	case strings.ContainsRune(`\.+*?()|[]{}^$`, c):
		b.WriteByte('\\')
		b.WriteRune(c)
	case c >= ' ' && c < 0x7F:
		b.WriteRune(c)
	default:
		writeHex(b, c)
	}
}

func writeHex(b *strings.Builder, c rune) {
	b.WriteString(`\x{`)
	b.WriteString(strings.ToUpper(strconv.FormatInt(int64(c), 16)))
	b.WriteByte('}')
}

// writeRanges writes the ranges of s as RE2 bracket expression items.
func writeRanges(b *strings.Builder, s runeSet) {
	for _, r := range s {
		writeClassRune(b, r.lo)
		if r.hi == r.lo {
			continue
		}
		if r.hi > r.lo+1 {
			b.WriteByte('-')
		}
		writeClassRune(b, r.hi)
	}
}
