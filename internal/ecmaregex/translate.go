package ecmaregex

import (
	"regexp"
	"strconv"
	"strings"
)

// neverMatch is an RE2 atom that matches no input: the empty character
// class (Go strings hold no surrogate code points, and invalid UTF-8 decodes
// to U+FFFD, which the negated class excludes too).
const neverMatch = `[^\x{0}-\x{10FFFF}]`

// repeatLimit is RE2's maximum repeat count in {n,m}.
const repeatLimit = 1000

type translator struct {
	src   string
	b     strings.Builder
	names map[string]bool
}

func (t *translator) refuse(pos int, msg string) *Error {
	return &Error{Pattern: t.src, Offset: pos, Msg: msg, Unsupported: true}
}

func (t *translator) emit(n *node, f flagSet) *Error {
	b := &t.b
	switch n.kind {
	case nAlt:
		for i, s := range n.subs {
			if i > 0 {
				b.WriteByte('|')
			}
			if err := t.emit(s, f); err != nil {
				return err
			}
		}
	case nSeq:
		for _, s := range n.subs {
			if err := t.emit(s, f); err != nil {
				return err
			}
		}
	case nChar:
		if 0xD800 <= n.r && n.r <= 0xDFFF {
			// A lone surrogate only matches a lone surrogate, which a Go
			// string cannot hold.
			b.WriteString(neverMatch)
		} else {
			writeLiteralRune(b, n.r)
		}
	case nDot:
		if f&flagS != 0 {
			b.WriteString(`(?s:.)`)
		} else {
			b.WriteString(`[^\n\r\x{2028}\x{2029}]`)
		}
	case nBegin, nEnd:
		if f&flagM != 0 {
			return t.refuse(n.pos, "'^' and '$' under the m modifier match at \\r, U+2028 and U+2029 too; RE2's (?m) only knows \\n")
		}
		if n.kind == nBegin {
			b.WriteByte('^')
		} else {
			b.WriteByte('$')
		}
	case nWordB, nNotWordB:
		if f&flagI != 0 {
			return t.refuse(n.pos, "\\b and \\B under the i modifier count U+017F and U+212A as word characters; RE2's \\b does not")
		}
		if n.kind == nWordB {
			b.WriteString(`\b`)
		} else {
			b.WriteString(`\B`)
		}
	case nLook:
		what := "lookahead"
		if n.behind {
			what = "lookbehind"
		}
		return t.refuse(n.pos, what+" assertions are not supported by RE2")
	case nBackref:
		return t.refuse(n.pos, "backreferences are not supported by RE2")
	case nGroup:
		if n.name != "" && isRE2Name(n.name) && !t.names[n.name] {
			t.names[n.name] = true
			b.WriteString("(?P<" + n.name + ">")
		} else {
			// Names only matter for submatch extraction; an unnamed group
			// matches the same strings.
			b.WriteByte('(')
		}
		if err := t.emit(n.subs[0], f); err != nil {
			return err
		}
		b.WriteByte(')')
	case nNonCap:
		b.WriteString("(?:")
		if err := t.emit(n.subs[0], f); err != nil {
			return err
		}
		b.WriteByte(')')
	case nModGroup:
		nf := (f | n.add) &^ n.remove
		switch {
		case nf&flagI != 0 && f&flagI == 0:
			b.WriteString("(?i:")
		case nf&flagI == 0 && f&flagI != 0:
			b.WriteString("(?-i:")
		default:
			b.WriteString("(?:")
		}
		if err := t.emit(n.subs[0], nf); err != nil {
			return err
		}
		b.WriteByte(')')
	case nRepeat:
		if n.min > repeatLimit || n.max > repeatLimit {
			big := n.min
			if n.max > big {
				big = n.max
			}
			s := strconv.Itoa(big)
			if big >= maxCount {
				s = "above " + strconv.Itoa(maxCount)
			}
			return t.refuse(n.pos, "repeat count "+s+" exceeds RE2's limit of "+strconv.Itoa(repeatLimit))
		}
		if err := t.emit(n.subs[0], f); err != nil {
			return err
		}
		switch {
		case n.min == 0 && n.max == -1:
			b.WriteByte('*')
		case n.min == 1 && n.max == -1:
			b.WriteByte('+')
		case n.min == 0 && n.max == 1:
			b.WriteByte('?')
		case n.max == -1:
			b.WriteString("{" + strconv.Itoa(n.min) + ",}")
		case n.min == n.max:
			b.WriteString("{" + strconv.Itoa(n.min) + "}")
		default:
			b.WriteString("{" + strconv.Itoa(n.min) + "," + strconv.Itoa(n.max) + "}")
		}
		if n.lazy {
			b.WriteByte('?')
		}
	case nClass:
		return t.emitClass(n, f)
	}
	return nil
}

func isRE2Name(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return s != ""
}

// emitClass writes a character class, or a class escape used outside a
// class, as one RE2 atom.
//
// With the i modifier ECMA-262 tests whether some member of the class has
// the same simple case folding as the input character, and a negated class
// [^…] inverts that test. RE2 under (?i) closes a bracket expression under
// case folding and then applies its ^, which is the same thing, but it also
// folds \P{…} and other complemented items before complementing them, which
// is not. So under i every complemented item is written out as explicit
// ranges (computed from Go's unicode tables), unless its set is closed
// under case folding (\D, \S, \W) and it stands alone.
func (t *translator) emitClass(n *node, f flagSet) *Error {
	fold := f&flagI != 0
	var pieces []piece
	closed := true // every piece's set is closed under case folding
	for _, it := range n.items {
		switch it.kind {
		case itemRange:
			pieces = append(pieces, piece{set: single(it.lo, it.hi)})
			closed = false
		case itemEsc:
			var s runeSet
			switch it.esc | 0x20 {
			case 'd':
				s = digitSet
			case 'w':
				s = wordSet
				if fold {
					s = wordSetFold
				}
			case 's':
				s = spaceSet
			}
			pieces = append(pieces, piece{set: s, neg: it.esc < 'a'})
		case itemProp:
			pc, msg := propPiece(it.prop)
			if msg != "" {
				return t.refuse(it.pos, msg)
			}
			pieces = append(pieces, pc)
			closed = false
		}
	}
	b := &t.b
	// A lone complemented item outside a class: [^…].
	if len(pieces) == 1 && pieces[0].neg && !n.neg && (!fold || closed) {
		pc := pieces[0]
		if len(pc.names) == 1 && len(pc.set) == 0 {
			b.WriteString(`\P{` + pc.names[0] + `}`)
			return nil
		}
		b.WriteString("[^")
		for _, name := range pc.names {
			b.WriteString(`\p{` + name + `}`)
		}
		writeRanges(b, pc.set.norm())
		b.WriteByte(']')
		return nil
	}
	var pos, negNames []string
	var set runeSet
	for _, pc := range pieces {
		switch {
		case !pc.neg:
			pos = append(pos, pc.names...)
			set = append(set, pc.set...)
		case !fold && len(pc.names) == 1 && len(pc.set) == 0:
			negNames = append(negNames, pc.names[0])
		default:
			set = append(set, pc.base().complement()...)
		}
	}
	set = set.norm()
	if len(pos)+len(negNames) == 0 && len(set) == 0 {
		if n.neg {
			b.WriteString(`(?s:.)`)
		} else {
			b.WriteString(neverMatch)
		}
		return nil
	}
	if !n.neg && len(set) == 0 && len(pos)+len(negNames) == 1 {
		if len(pos) == 1 {
			b.WriteString(`\p{` + pos[0] + `}`)
		} else {
			b.WriteString(`\P{` + negNames[0] + `}`)
		}
		return nil
	}
	if !n.neg && len(pos)+len(negNames) == 0 && len(set) == 1 && set[0].lo == set[0].hi && !(0xD800 <= set[0].lo && set[0].lo <= 0xDFFF) {
		writeLiteralRune(b, set[0].lo)
		return nil
	}
	b.WriteByte('[')
	if n.neg {
		b.WriteByte('^')
	}
	for _, name := range pos {
		b.WriteString(`\p{` + name + `}`)
	}
	for _, name := range negNames {
		b.WriteString(`\P{` + name + `}`)
	}
	writeRanges(b, set)
	b.WriteByte(']')
	return nil
}

// translate parses pattern and writes its RE2 equivalent.
func translate(pattern string) (string, *Error) {
	n, err := parse(pattern)
	if err != nil {
		return "", err
	}
	t := &translator{src: pattern, names: map[string]bool{}}
	if err := t.emit(n, 0); err != nil {
		return "", err
	}
	out := t.b.String()
	if _, cerr := regexp.Compile(out); cerr != nil {
		return "", &Error{Pattern: pattern, Offset: 0, Unsupported: true,
			Msg: "RE2 cannot compile the translation (" + cerr.Error() + ")"}
	}
	return out, nil
}
