package ir

import "strconv"

// Short is a check written shorter than its keywords one by one: one
// runtime call, or one if statement, that tests all of them (planShort).
// Each is chosen only where the keywords, written one by one, would be
// exactly the shape the short form replaces; emit asserts that they are
// when it writes one (checks.assertShort), so a plan here that missed a
// keyword fails generation instead of dropping a test.
type Short uint8

const (
	// NoShort: the keywords are written one by one.
	NoShort Short = iota
	// ShortStrEnum: only an enum of strings (Plan.EnumStrings), one
	// ahpimpl.Ctx.StrEnum.
	ShortStrEnum
	// ShortMinRunes: only type string and minLength, one
	// ahpimpl.Ctx.MinRunes.
	ShortMinRunes
	// ShortFormat: only type string and an asserted format, one
	// ahpimpl.Ctx.StrFormat.
	ShortFormat
	// ShortStrEnumItems: only type array and items that is a
	// ShortStrEnum written in place, one ahpimpl.Ctx.StrEnumItems.
	ShortStrEnumItems
	// ShortChildItems: only type array and items checked by a function
	// of its own under ahpimpl.Ctx.Child, one ahpimpl.Ctx.ChildItems.
	ShortChildItems
	// ShortProperty: only one property, of an object, checked by a
	// function of its own under ahpimpl.Ctx.Child: one
	// ahpimpl.Ctx.Property, which walks the members for it.
	ShortProperty
	// ShortPropertyStr: only one property, of an object, that must be
	// a given string (a ShortConst written in place): one
	// ahpimpl.Ctx.PropertyStr.
	ShortPropertyStr
	// ShortConst: only a const, one if statement (written in place).
	ShortConst
	// ShortType: only a type of one kind, one if statement (written in
	// place).
	ShortType
)

var shortNames = [...]string{"NoShort", "ShortStrEnum", "ShortMinRunes", "ShortFormat", "ShortStrEnumItems",
	"ShortChildItems", "ShortProperty", "ShortPropertyStr", "ShortConst", "ShortType"}

func (k Short) String() string {
	if int(k) < len(shortNames) {
		return shortNames[k]
	}
	return "Short(" + strconv.Itoa(int(k)) + ")"
}

// Call reports whether the short form is one runtime call.
func (k Short) Call() bool { return k != NoShort && k != ShortConst && k != ShortType }

// planShort decides, for every schema, whether its check has a short
// form (Plan.Short). emit uses it where a check's keywords are written
// from their start: a function's body, or a member's or an item's value
// written in place; an allOf entry, then or else written in place on
// its parent's node is written keyword by keyword whatever its plan. It runs last: the shapes read the kind blocks, the
// item walks and member walks, how children are called and what is
// written in place. The shapes of items and properties read their
// child's, so the leaf shapes are decided first.
func planShort(p *Program) {
	for _, s := range p.Schemas {
		s.Plan.Short = leafShort(s)
	}
	for _, s := range p.Schemas {
		if s.Plan.Short == NoShort {
			s.Plan.Short = nestedShort(s)
		}
	}
}

// leafShort is the short form of s that reads no other schema's.
func leafShort(s *Schema) Short {
	if s.Bool != nil {
		return NoShort
	}
	oneType := func(t string) bool { return len(s.Types) == 1 && s.Types[0] == t }
	switch {
	case s.Plan.EnumStrings != nil && only(s, func(y *Schema) { y.Enum = nil }):
		return ShortStrEnum
	case oneType("string") && s.MinLength != nil && only(s, func(y *Schema) { y.Types, y.MinLength = nil, nil }):
		return ShortMinRunes
	case oneType("string") && s.Format != "" && only(s, func(y *Schema) { y.Types, y.Format = nil, "" }):
		return ShortFormat
	case s.Const != nil && only(s, func(y *Schema) { y.Const = nil }):
		return ShortConst
	case len(s.Types) == 1 && only(s, func(y *Schema) { y.Types = nil }):
		return ShortType
	}
	return NoShort
}

// nestedShort is the short form of s that reads its items' or its one
// property's.
func nestedShort(s *Schema) Short {
	if s.Bool != nil {
		return NoShort
	}
	if len(s.Types) == 1 && s.Types[0] == "array" && s.Plan.Array == UntestedBlock &&
		only(s, func(y *Schema) { y.Types, y.Items = nil, nil }) {
		w := s.Plan.Items
		t := checkOf(s.Items)
		if !w.Loop || w.Index || w.Records || t == nil || t.IsFalse() {
			return NoShort
		}
		switch {
		case t.Plan.InPlace && t.Plan.Short == ShortStrEnum:
			return ShortStrEnumItems
		case !t.Plan.InPlace && t.Plan.AsChild == ChildCollects:
			return ShortChildItems
		}
		return NoShort
	}
	if len(s.Properties) == 1 && only(s, func(y *Schema) { y.Properties = nil }) {
		return propertyShort(s)
	}
	return NoShort
}

// propertyShort is the short form of s, whose only keyword is one
// property: its member walk (a test of the kind, the record that the
// object's members were declared, one case, the others skipped before
// the record of the one evaluated) is what ahpimpl.Ctx.Property walks.
func propertyShort(s *Schema) Short {
	w := s.Plan.Walk
	if w == nil || len(w.Cases) != 1 || len(w.Cases[0].Checks) != 1 || !w.Cases[0].Own ||
		!w.Default || !w.Records || len(w.Delegates) > 0 ||
		s.Plan.Object != TestedBlock || !s.Plan.Declares || len(s.Plan.Merged) > 0 || s.Plan.NotInLoop {
		return NoShort
	}
	t := checkOf(w.Cases[0].Checks[0].Schema)
	switch {
	case t == nil || t.IsFalse():
		return NoShort
	case !t.Plan.InPlace && t.Plan.AsChild == ChildCollects:
		return ShortProperty
	case t.Plan.InPlace && t.Plan.Short == ShortConst && t.Const.Kind == "string":
		return ShortPropertyStr
	}
	return NoShort
}
