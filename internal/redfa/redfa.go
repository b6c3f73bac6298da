// Package redfa compiles a regular expression in RE2 syntax, at generation
// time, into an ahpimpl.DFA that answers what regexp's Match and MatchString
// answer, and writes that DFA as Go source.
//
// Generated validators only ask whether a string matches somewhere (JSON
// Schema patterns are unanchored searches), never where, so leftmost-first
// priorities and captures do not matter: the automaton follows every
// thread of the compiled program at once, as regexp's NFA does, and a set
// of program counters becomes one DFA state. Searching for a match that
// starts anywhere is the program (?s:.)*?(re): a fresh thread starts at
// every position. The input alphabet is cut into classes of runes that no
// instruction of the program tells apart, so the table has one column per
// class rather than per rune.
//
// Supported empty-width assertions are \A (begin of text, '^' without the
// m flag) and \z (end of text, '$' without m) wherever they appear. Line
// anchors under (?m) and word boundaries (\b, \B) look at the neighbouring
// runes and are refused, and so is a pattern whose automaton would exceed
// the limits below: the caller then keeps regexp.
package redfa

import (
	"encoding/binary"
	"errors"
	"fmt"
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// Limits past which Build refuses a pattern: they keep a generated table
// small (at most MaxCells transitions of two bytes, MaxRanges rune ranges)
// and the construction fast.
const (
	MaxStates  = 512
	MaxClasses = 64
	MaxCells   = 16384 // states × classes
	MaxRanges  = 1024  // non-ASCII rune ranges of the class table
	maxInst    = 4096  // compiled program size
)

// ErrUnsupported is wrapped by every error Build returns for a valid
// pattern it does not compile (regexp can still run it).
var ErrUnsupported = errors.New("not supported by the DFA compiler")

func unsupported(format string, args ...any) error {
	return fmt.Errorf("redfa: %s: %w", fmt.Sprintf(format, args...), ErrUnsupported)
}

// Build compiles re2 as regexp.Compile does (Perl flags, simplified) and
// returns its DFA, or an error when the pattern is invalid or needs what
// the DFA does not support (see the package comment).
func Build(re2 string) (*ahpimpl.DFA, error) {
	return build(re2, limits{MaxStates, MaxClasses, MaxCells, MaxRanges})
}

// limits are Build's, and larger in tests that check the construction
// on patterns Build refuses for size.
type limits struct{ states, classes, cells, ranges int }

func build(re2 string, lim limits) (*ahpimpl.DFA, error) {
	re, err := syntax.Parse(re2, syntax.Perl)
	if err != nil {
		return nil, err
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, err
	}
	if len(prog.Inst) > maxInst {
		return nil, unsupported("program of %d instructions (limit %d)", len(prog.Inst), maxInst)
	}
	b := &builder{prog: prog, lim: lim, seen: make([]uint32, len(prog.Inst))}
	if err := b.classes(); err != nil {
		return nil, err
	}
	if err := b.subsets(); err != nil {
		return nil, err
	}
	return b.minimize()
}

// builder holds one compilation.
type builder struct {
	prog *syntax.Prog
	lim  limits

	// setOf maps the pc of a rune instruction to the index of its rune set
	// (instructions with the same set share one); -1 for other
	// instructions.
	setOf []int
	// member[k][s] reports whether the runes of class k are in set s.
	member [][]bool
	// ascii and runes are the class tables of the result.
	ascii [128]uint8
	runes []ahpimpl.RuneClass

	// seen marks the pcs visited by the current closure (seen[pc] == stamp).
	seen  []uint32
	stamp uint32

	// states of the subset construction: sets[i] is the sorted pcs of
	// state i, next[i] its row, end[i] whether it accepts at the end.
	sets  [][]uint32
	next  [][]int
	end   []bool
	index map[string]int
	start int // the start state
}

// rng is an inclusive range of runes.
type rng struct{ lo, hi rune }

// runeSet is the set of runes a rune instruction accepts, as
// syntax.Inst.MatchRune decides: a single rune (with its simple case
// folding orbit when the instruction folds case) or a list of ranges.
func runeSet(in *syntax.Inst) []rng {
	switch in.Op {
	case syntax.InstRuneAny:
		return []rng{{0, unicode.MaxRune}}
	case syntax.InstRuneAnyNotNL:
		return []rng{{0, '\n' - 1}, {'\n' + 1, unicode.MaxRune}}
	case syntax.InstRune1:
		return []rng{{in.Rune[0], in.Rune[0]}}
	}
	if len(in.Rune) == 1 {
		r0 := in.Rune[0]
		set := []rng{{r0, r0}}
		if syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
			for r := unicode.SimpleFold(r0); r != r0; r = unicode.SimpleFold(r) {
				set = append(set, rng{r, r})
			}
		}
		return set
	}
	set := make([]rng, 0, len(in.Rune)/2)
	for i := 0; i+1 < len(in.Rune); i += 2 {
		set = append(set, rng{in.Rune[i], in.Rune[i+1]})
	}
	return set
}

// classes cuts the runes into classes: two runes share a class when every
// rune instruction accepts both or neither. Classes are numbered by their
// lowest rune, so the numbering depends only on the program.
func (b *builder) classes() error {
	b.setOf = make([]int, len(b.prog.Inst))
	var sets [][]rng
	byKey := map[string]int{}
	cuts := []rune{0, utf8.RuneSelf, unicode.MaxRune + 1}
	for pc := range b.prog.Inst {
		b.setOf[pc] = -1
		in := &b.prog.Inst[pc]
		switch in.Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
		default:
			continue
		}
		set := runeSet(in)
		key := fmt.Sprint(set)
		id, ok := byKey[key]
		if !ok {
			id = len(sets)
			byKey[key] = id
			sets = append(sets, set)
			for _, r := range set {
				cuts = append(cuts, r.lo, r.hi+1)
			}
		}
		b.setOf[pc] = id
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	// The elementary intervals [cuts[i], cuts[i+1]) lie wholly inside or
	// outside every set; in[i][s] says which.
	n := len(cuts) - 1
	in := make([][]bool, n)
	for i := range in {
		in[i] = make([]bool, len(sets))
	}
	for s, set := range sets {
		for _, r := range set {
			i, _ := slices.BinarySearch(cuts, r.lo)
			for ; i < n && cuts[i] <= r.hi; i++ {
				in[i][s] = true
			}
		}
	}
	classOf := map[string]int{}
	for i := 0; i < n; i++ {
		sig := fmt.Sprint(in[i])
		k, ok := classOf[sig]
		if !ok {
			k = len(b.member)
			if k == b.lim.classes {
				return unsupported("more than %d rune classes", b.lim.classes)
			}
			classOf[sig] = k
			b.member = append(b.member, in[i])
		}
		lo, hi := cuts[i], cuts[i+1]-1
		if lo < utf8.RuneSelf {
			for c := lo; c <= hi; c++ {
				b.ascii[c] = uint8(k)
			}
			continue
		}
		if last := len(b.runes) - 1; last >= 0 && int(b.runes[last].Class) == k {
			b.runes[last].Hi = hi
			continue
		}
		b.runes = append(b.runes, ahpimpl.RuneClass{Lo: lo, Hi: hi, Class: uint8(k)})
	}
	if len(b.runes) > b.lim.ranges {
		return unsupported("%d non-ASCII rune ranges (limit %d)", len(b.runes), b.lim.ranges)
	}
	return nil
}

// closure follows the empty moves from roots and returns the sorted pcs
// where the threads wait: rune instructions, and \z assertions when not
// at the end. begin and end say whether the position is the start or the
// end of the input; matched reports that a thread reached the match
// instruction.
func (b *builder) closure(roots []uint32, begin, end bool) (pcs []uint32, matched bool, err error) {
	b.stamp++
	stack := append([]uint32(nil), roots...)
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b.seen[pc] == b.stamp {
			continue
		}
		b.seen[pc] = b.stamp
		in := &b.prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, in.Arg, in.Out)
		case syntax.InstCapture, syntax.InstNop:
			stack = append(stack, in.Out)
		case syntax.InstMatch:
			matched = true
		case syntax.InstFail:
		case syntax.InstEmptyWidth:
			op := syntax.EmptyOp(in.Arg)
			if other := op &^ (syntax.EmptyBeginText | syntax.EmptyEndText); other != 0 {
				return nil, false, unsupported("empty-width assertion %s", emptyName(other))
			}
			switch {
			case op&syntax.EmptyBeginText != 0 && !begin:
				// Dead: \A holds only before the first rune.
			case op&syntax.EmptyEndText != 0 && !end:
				// Waits: \z may hold if the input ends here.
				pcs = append(pcs, pc)
			default:
				stack = append(stack, in.Out)
			}
		default: // rune instructions
			if !end {
				pcs = append(pcs, pc)
			}
		}
	}
	slices.Sort(pcs)
	return pcs, matched, nil
}

// emptyName names an empty-width assertion for an error message.
func emptyName(op syntax.EmptyOp) string {
	switch {
	case op&syntax.EmptyBeginLine != 0:
		return "^ (begin of line, (?m))"
	case op&syntax.EmptyEndLine != 0:
		return "$ (end of line, (?m))"
	case op&syntax.EmptyWordBoundary != 0:
		return `\b`
	case op&syntax.EmptyNoWordBoundary != 0:
		return `\B`
	}
	return fmt.Sprintf("%#x", uint8(op))
}

// The fixed states of the construction, numbered as the rows of
// ahpimpl.DFA. Dead is the empty set (reached only when every thread must
// start at \A); every set in which a thread matched is the one state
// Matched, since the answer is then known.
const (
	dead    = 0
	matched = 1
)

// state returns the state of a set of waiting pcs, adding it to the work
// list when new. initial marks the start state, which is kept apart from
// any later state with the same pcs: at the end of an empty input, \A
// still holds there.
func (b *builder) state(pcs []uint32, initial bool) (int, error) {
	if len(pcs) == 0 && !initial {
		return dead, nil
	}
	key := make([]byte, 1, 1+4*len(pcs))
	if initial {
		key[0] = 1
	}
	for _, pc := range pcs {
		key = binary.LittleEndian.AppendUint32(key, pc)
	}
	if s, ok := b.index[string(key)]; ok {
		return s, nil
	}
	if len(b.sets) == b.lim.states {
		return 0, unsupported("more than %d states", b.lim.states)
	}
	// Accepting at the end: let the waiting \z threads (and any other
	// empty moves) run with end of text true.
	_, acc, err := b.closure(pcs, initial, true)
	if err != nil {
		return 0, err
	}
	s := len(b.sets)
	b.index[string(key)] = s
	b.sets = append(b.sets, pcs)
	b.end = append(b.end, acc)
	b.next = append(b.next, nil)
	return s, nil
}

// subsets runs the subset construction from the start state, breadth
// first, classes in order: the state numbers depend only on the program.
func (b *builder) subsets() error {
	b.index = map[string]int{}
	nk := len(b.member)
	// Dead and Matched absorb every input.
	b.sets = [][]uint32{nil, nil}
	b.end = []bool{false, true}
	b.next = [][]int{make([]int, nk), make([]int, nk)}
	for k := range nk {
		b.next[dead][k] = dead
		b.next[matched][k] = matched
	}
	start := uint32(b.prog.Start)
	pcs, m, err := b.closure([]uint32{start}, true, false)
	if err != nil {
		return err
	}
	first := matched
	if !m {
		if first, err = b.state(pcs, true); err != nil {
			return err
		}
	}
	b.start = first
	for s := 2; s < len(b.sets); s++ {
		row := make([]int, nk)
		for k := range nk {
			// Threads that accept class k move on; a new thread starts at
			// every position (the search's (?s:.)*? prefix).
			roots := []uint32{start}
			for _, pc := range b.sets[s] {
				in := &b.prog.Inst[pc]
				if in.Op != syntax.InstEmptyWidth && b.member[k][b.setOf[pc]] {
					roots = append(roots, in.Out)
				}
			}
			pcs, m, err := b.closure(roots, false, false)
			if err != nil {
				return err
			}
			if m {
				row[k] = matched
				continue
			}
			if row[k], err = b.state(pcs, false); err != nil {
				return err
			}
		}
		b.next[s] = row
	}
	return nil
}

// minimize merges the states that no input tells apart (Moore's
// partition refinement) and lays out the rows as ahpimpl.DFA requires: Dead,
// Matched, the other accepting states, then the rest, each group in
// construction order.
func (b *builder) minimize() (*ahpimpl.DFA, error) {
	n, nk := len(b.sets), len(b.member)
	block := make([]int, n)
	for s := range n {
		if b.end[s] {
			block[s] = 1
		}
	}
	for blocks := 0; ; {
		sigs := map[string]int{}
		nb := make([]int, n)
		for s := range n {
			sig := make([]byte, 0, 4*(nk+1))
			sig = binary.LittleEndian.AppendUint32(sig, uint32(block[s]))
			for _, t := range b.next[s] {
				sig = binary.LittleEndian.AppendUint32(sig, uint32(block[t]))
			}
			id, ok := sigs[string(sig)]
			if !ok {
				id = len(sigs)
				sigs[string(sig)] = id
			}
			nb[s] = id
		}
		block = nb
		if len(sigs) == blocks {
			break
		}
		blocks = len(sigs)
	}
	// Number the blocks.
	num := map[int]int{block[dead]: dead, block[matched]: matched}
	order := []int{dead, matched} // a representative state per number
	for _, acc := range []bool{true, false} {
		for s := range n {
			if _, ok := num[block[s]]; !ok && b.end[s] == acc {
				num[block[s]] = len(order)
				order = append(order, s)
			}
		}
	}
	// States are row offsets in a uint16, Final included.
	if cells := len(order) * nk; cells > b.lim.cells || cells >= 1<<16 {
		return nil, unsupported("%d states × %d classes (limit %d cells)", len(order), nk, min(b.lim.cells, 1<<16-1))
	}
	final := 0
	for i, s := range order {
		if i == matched || b.end[s] {
			final = i + 1
		}
	}
	row := func(s int) uint16 { return uint16(num[block[s]] * nk) }
	d := &ahpimpl.DFA{
		ASCII:   b.ascii,
		Runes:   b.runes,
		Classes: nk,
		Next:    make([]uint16, 0, len(order)*nk),
		Start:   row(b.start),
		Final:   uint16(final * nk),
	}
	for _, s := range order {
		for _, t := range b.next[s] {
			d.Next = append(d.Next, row(t))
		}
	}
	return d, nil
}
