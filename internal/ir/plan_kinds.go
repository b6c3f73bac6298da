package ir

import (
	"slices"
	"strings"
)

// KindBlock is whether and how the check of a schema writes the keywords
// that apply to values of one kind (object, array, string, number).
type KindBlock uint8

const (
	// NoBlock: the schema has no such keywords, or its type rules the
	// kind out, so there is nothing to write.
	NoBlock KindBlock = iota
	// TestedBlock: the keywords are written under a test of the value's
	// kind, since the value may be of another kind.
	TestedBlock
	// UntestedBlock: the schema's type allows this kind alone, and its
	// type check has returned for any other by then: no test.
	UntestedBlock
)

// ItemWalk is how the check of a schema walks an array's items.
type ItemWalk struct {
	// Loop is set when the check walks the items: for prefixItems, an
	// items that checks something, or contains. Without a loop,
	// AllItems is set when items accepts every item: the check only
	// records that it evaluated them all.
	Loop, AllItems bool
	// Index is set when the loop body uses the item's index: for
	// prefixItems, for contains, or for an items some item may pass (its
	// index is recorded as evaluated). Not for items false alone, whose
	// check returns.
	Index bool
	// Records is set when the check records the items it evaluated (for
	// the unevaluatedItems of a schema applying it in place): unset where
	// no check ever passes it annotations (see planInPlace).
	Records bool
	// MinContains is how many items contains must match: minContains,
	// or 1 without it; 0 writes no test.
	MinContains int64
}

// planKinds decides, for every schema, which blocks of kind-specific
// keywords its check writes and whether each needs a kind test
// (Plan.Object, Array, String, Number), how it walks an array's items
// (Plan.Items), and whether its enum is a switch on strings
// (Plan.EnumStrings).
func planKinds(p *Program) {
	for _, s := range p.Schemas {
		s.Plan.Object = kindBlock(s, "object", s.Properties != nil || s.PatternProperties != nil ||
			s.AdditionalProperties != nil || s.PropertyNames != nil || s.Required != nil ||
			s.DependentRequired != nil || s.DependentSchemas != nil || s.MinProperties != nil || s.MaxProperties != nil)
		s.Plan.Array = kindBlock(s, "array", s.PrefixItems != nil || s.Items != nil || s.Contains != nil ||
			s.MinItems != nil || s.MaxItems != nil || s.UniqueItems)
		s.Plan.String = kindBlock(s, "string", s.MinLength != nil || s.MaxLength != nil || s.Pattern != nil || s.Format != "")
		s.Plan.Number = kindBlock(s, "number", s.Minimum != nil || s.Maximum != nil ||
			s.ExclusiveMinimum != nil || s.ExclusiveMaximum != nil || s.MultipleOf != nil)
		if s.Plan.Array != NoBlock {
			s.Plan.Items = itemWalk(s)
		}
		s.Plan.EnumStrings = enumStrings(s.Enum)
		if s.Plan.EnumStrings == nil && len(s.Enum) > enumChainMax {
			s.Plan.EnumList = enumList(s.Enum)
		}
	}
}

// kindBlock is how the keywords of s for kind are written, when s has
// some (keywords).
func kindBlock(s *Schema, kind string, keywords bool) KindBlock {
	switch {
	case !keywords || len(s.Types) > 0 && !allowsKind(s.Types, kind):
		return NoBlock
	case len(s.Types) == 1:
		return UntestedBlock
	}
	return TestedBlock
}

// allowsKind reports whether a value of kind may have one of types: a
// number may be an integer.
func allowsKind(types []string, kind string) bool {
	return slices.Contains(types, kind) || kind == "number" && slices.Contains(types, "integer")
}

func itemWalk(s *Schema) ItemWalk {
	items := checkOf(s.Items)
	w := ItemWalk{Loop: len(s.PrefixItems) > 0 || items != nil || s.Contains != nil, Records: true}
	if !w.Loop {
		w.AllItems = s.Items != nil
		return w
	}
	w.Index = s.Contains != nil || len(s.PrefixItems) > 0 || items == nil || !items.IsFalse()
	if s.Contains != nil {
		w.MinContains = 1
		if s.MinContains != nil {
			w.MinContains = *s.MinContains
		}
	}
	return w
}

// unrecorded is the item walk of s where no annotations are collected:
// it only checks the items (the index only for prefixItems' switch).
func unrecorded(s *Schema) ItemWalk {
	w := itemWalk(s)
	if !w.Loop {
		return ItemWalk{}
	}
	w.Records, w.Index = false, len(s.PrefixItems) > 0
	return w
}

// enumStrings returns the distinct values of enum, in order, when it
// lists only strings (at least one): the check is then one switch on the
// value, which may not repeat a case. Otherwise it is a chain of
// equality tests (nil).
// enumChainMax is the most values an enum not all strings is tested
// with one by one (Plan.EnumList beyond it): AHP's enums of numbers or
// objects, if any, are short, and a chain of a few tests is the faster.
const enumChainMax = 16

// enumList is an enum's values as one JSON array (Plan.EnumList).
func enumList(enum []Literal) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, l := range enum {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(l.JSON)
	}
	b.WriteByte(']')
	return b.String()
}

func enumStrings(enum []Literal) []string {
	var out []string
	seen := map[string]bool{} // not a search of out: an enum may list a million values
	for _, l := range enum {
		if l.Kind != "string" {
			return nil
		}
		if s := l.Str(); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
