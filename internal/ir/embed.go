package ir

import "sort"

// Embedding. Most event types apply the event core (id, source, time,
// session and five more members) through allOf, and each struct used to
// repeat its nine fields, their builder cases, their encoder and nine
// getters. A struct whose schema always applies the schema of another
// named struct, and that holds every field of it alike and in a row,
// embeds that struct instead: Go promotes its fields, so v.ID reads and
// writes as before, and the getters the union interfaces need are
// declared once, on the embedded struct, and promoted too. The embedded
// struct's member function builds those members and its members encoder
// writes them, for every struct that embeds it.
//
// What the user sees change: a composite literal names the embedded
// struct (ToolAfterEvent{EventCore: EventCore{ID: ...}}), as with any Go
// embedding, and a promoted getter called on a nil pointer to the outer
// struct panics, as any promoted method does (the struct's own getters
// still read a nil receiver as absent).

// markEmbeds decides every struct's embeddings (Field.Via, Type.Embeds,
// Type.Embedded), names the functions of the embedded structs, and moves
// the getters of promoted fields onto the struct that declares them. It
// runs after planEncoding: whether an outer struct can write an embedded
// run in place depends on the separator before it (EncodeCommas).
func (t *Types) markEmbeds() {
	for _, ty := range t.All {
		if ty.Kind != StructKind {
			continue
		}
		var cands []*Type
		for _, c := range closure(ty.Schema)[1:] {
			e := t.bySchema[c]
			// A strictly smaller field list keeps embedding acyclic.
			if e != nil && e != ty && e.Named && e.Kind == StructKind && e.Extra == nil && len(e.Fields) >= 2 && len(e.Fields) < len(ty.Fields) {
				cands = append(cands, e)
			}
		}
		// The widest first: an envelope that embeds the core covers it.
		sort.SliceStable(cands, func(i, j int) bool { return len(cands[i].Fields) > len(cands[j].Fields) })
		for _, e := range cands {
			i := ty.runOf(e)
			if i < 0 || !ty.nameFree(e.Name) {
				continue // not held alike, or a field or method has the name
			}
			ty.fieldNames.used[e.Name] = true
			for _, f := range ty.Fields[i : i+len(e.Fields)] {
				f.Via = e
			}
			e.Embedded = true
		}
		for i, f := range ty.Fields {
			if ty.FirstOfRun(i) {
				ty.Embeds = append(ty.Embeds, f.Via)
			}
		}
	}
	for _, ty := range t.All {
		if ty.Embedded {
			ty.MemberFunc = t.names.take(buildFuncName(ty.Name) + "Member")
			ty.AppendMembersFunc = t.names.take("append" + ty.Name + "Members")
		}
		if len(ty.Embeds) > 0 {
			t.promoteGetters(ty)
		}
	}
}

// runOf is the index of the first of e's fields among ty's, when ty holds
// all of them alike, in e's order and in a row, none embedded yet; or -1.
func (ty *Type) runOf(e *Type) int {
	start := -1
	for i, f := range ty.Fields {
		if f.JSON == e.Fields[0].JSON {
			start = i
		}
	}
	if start < 0 || start+len(e.Fields) > len(ty.Fields) {
		return -1
	}
	for j, ef := range e.Fields {
		if f := ty.Fields[start+j]; f.Via != nil || !f.alike(ef) {
			return -1
		}
	}
	return start
}

// alike reports whether f and g are held, built and encoded the same way.
func (f *Field) alike(g *Field) bool {
	if f.JSON != g.JSON || f.Go != g.Go || f.Required != g.Required || f.Indirect != g.Indirect {
		return false
	}
	if (f.Const == nil) != (g.Const == nil) || f.Const != nil && f.Const.JSON != g.Const.JSON {
		return false
	}
	if (f.Type == nil) != (g.Type == nil) {
		return false
	}
	return f.Type == nil || f.Type.Key() == g.Type.Key()
}

// EncodeCommas reports whether a struct's encoder writes a comma before
// every member and then turns the first into the opening brace: an
// embedded struct's members encoder cannot know what its caller wrote
// before them, and an outer struct whose embedded run may come first (no
// member is sure to precede it) cannot tell the run whether it does.
func (ty *Type) EncodeCommas() bool {
	if ty.Embedded {
		return true
	}
	for i, f := range ty.Fields {
		if ty.FirstOfRun(i) && f.Sep != SepCertain {
			return true
		}
	}
	return false
}

// FirstOfRun reports whether field i of struct ty starts the run of an
// embedded struct: where the struct declares it, builds it and writes it.
func (ty *Type) FirstOfRun(i int) bool {
	f := ty.Fields[i]
	return f.Via != nil && (i == 0 || ty.Fields[i-1].Via != f.Via)
}

// promoteGetters moves ty's getters of embedded fields to the struct that
// declares the field, from where Go promotes them, unless that struct
// already has a different method of the name (then ty keeps its own,
// which the promoted one cannot shadow).
func (t *Types) promoteGetters(ty *Type) {
	kept := ty.Getters[:0]
	for _, g := range ty.Getters {
		f := ty.field(g.JSON)
		if g.Tag || f == nil || f.Via == nil {
			kept = append(kept, g)
			continue
		}
		owner := f.Via
		for of := owner.field(g.JSON); of != nil && of.Via != nil; of = owner.field(g.JSON) {
			owner = of.Via
		}
		if have := owner.getter(g.Method); have != nil {
			if !have.same(g.Accessor) {
				kept = append(kept, g)
			}
			continue
		}
		if !owner.nameFree(g.Method) {
			kept = append(kept, g)
			continue
		}
		owner.fieldNames.take(g.Method)
		owner.Getters = append(owner.Getters, &Getter{Accessor: g.Accessor, Field: owner.field(g.JSON)})
	}
	ty.Getters = kept
}
