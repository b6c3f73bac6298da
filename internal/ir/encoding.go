package ir

// How a struct's encoder separates its members. A member after the first
// needs a comma before it; whether one was written before it is often
// known when the encoder is generated: nothing before the first field,
// certainly something after a field that is always written (a required
// one). Only where it is not known does the encoder test, at run time,
// whether its output grew since the opening brace.

// Sep is what an encoder knows, at one member, of the members before it.
type Sep int

const (
	// SepNone: nothing was written yet; no comma.
	SepNone Sep = iota
	// SepMaybe: only optional members came before; the encoder tests
	// (ahpimpl.AppendMember).
	SepMaybe
	// SepCertain: a required member came before; always a comma.
	SepCertain
)

// planEncoding sets, on every struct, each field's Sep and the state
// after the declared fields (Type.RestSep), where the undeclared members
// (Extra, Unknown) follow.
func (t *Types) planEncoding() {
	for _, ty := range t.All {
		if ty.Kind != StructKind {
			continue
		}
		state := SepNone
		for _, f := range ty.Fields {
			f.Sep = state
			switch {
			case f.Required:
				state = SepCertain
			case state == SepNone:
				state = SepMaybe
			}
		}
		ty.RestSep = state
	}
}

// EncodeStart reports whether a struct's encoder must remember where its
// members begin (the length of its output after the opening brace): to
// test for a comma where it cannot know (SepMaybe), and between the
// entries of an Extra map when no declared member is sure to precede
// them (the first entry needs none, the later ones one). The Unknown
// members need it only after SepMaybe: ahpimpl.AppendUnknown separates
// its own members.
func (ty *Type) EncodeStart() bool {
	if ty.Extra != nil && ty.RestSep != SepCertain || ty.Open && ty.RestSep == SepMaybe {
		return true
	}
	for _, f := range ty.Fields {
		if f.Sep == SepMaybe {
			return true
		}
	}
	return false
}
