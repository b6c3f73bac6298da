package ir

import "fmt"

// MemoMask is one value of Schema.Unrepeated, declared once as a
// constant of the generated package: what the decoders of the types
// checked from such roots pass to the runtime (ahpimpl.Ctx.Unrepeated)
// reads as a name with a comment rather than as a bare number.
type MemoMask struct {
	// Const is the constant's name; Mask its value.
	Const string
	Mask  uint64
	// Skipped and Kept list, in MemoID order, the memoized checks
	// numbered below 64 whose bits Mask sets (they never run twice on one
	// node of such a document: their lookups are skipped) and leaves
	// clear (they may: their lookups stay). Checks numbered 64 or above
	// always look up, whatever the mask.
	Skipped, Kept []*Schema
}

// nameMemoMasks gives every distinct Unrepeated value of the program a
// constant, in the order of p.Schemas (the first schema to carry a value
// names it), and points each schema carrying one at it
// (Schema.UnrepeatedMask). A mask that keeps no lookup is skipAllMemo;
// the others are numbered.
func nameMemoMasks(p *Program, maxID uint32) {
	byMask := map[uint64]*MemoMask{}
	numbered := 0
	byID := map[uint32]*Schema{}
	for _, s := range p.Schemas {
		if s.MemoID != 0 {
			byID[s.MemoID] = s
		}
	}
	for _, s := range p.Schemas {
		if s.Unrepeated == 0 {
			continue
		}
		m, ok := byMask[s.Unrepeated]
		if !ok {
			m = &MemoMask{Mask: s.Unrepeated}
			for id := uint32(1); id <= maxID && id < 64; id++ {
				switch c := byID[id]; {
				case c == nil:
				case s.Unrepeated&(1<<id) != 0:
					m.Skipped = append(m.Skipped, c)
				default:
					m.Kept = append(m.Kept, c)
				}
			}
			want := "skipAllMemo"
			if len(m.Kept) > 0 {
				numbered++
				want = fmt.Sprintf("skipMemo%d", numbered)
			}
			m.Const = p.names.take(want)
			byMask[s.Unrepeated] = m
			p.MemoMasks = append(p.MemoMasks, m)
		}
		s.UnrepeatedMask = m
	}
}
