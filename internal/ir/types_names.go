package ir

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ahpgen/ahpgen/internal/load/model"
)

// Which schemas get named types (document roots, $defs entries, stable
// names), the names they get, and the names of what the emitter declares
// for each type and for each list or map expression. naming.go has the
// rules that turn schema names into Go names.

// BuildTypes derives the Go types of a program.
//
// Named types (part of the package's API, with Decode and Check
// functions) are every document root, every $defs entry and every
// location Options.StableNames names. A stable name is the type's name,
// in Go's initialisms (exported): it is taken first in the package scope,
// and one that cannot be had (two locations asking for one name, or a
// name the package scope holds, such as another stable type's DecodeX)
// fails generation, naming the manifest entry. The other named types
// follow the rules below, treating stable names as taken.
func BuildTypes(p *Program) (*Types, error) {
	t := &Types{Named: map[string]*Type{}, prog: p, names: p.names, helpers: map[string]ExprFuncs{}, bySchema: map[*Schema]*Type{}, building: map[*Schema]bool{}, named: map[*Schema]string{}}
	stable, err := t.stableNames()
	if err != nil {
		return nil, err
	}
	// Names of named types first, so that inline types never take them.
	var entries []entry
	for _, doc := range p.set.Documents() {
		root := p.Roots[doc.Path]
		if root.IsTrue() {
			continue // a document of definitions only: no message type
		}
		entries = append(entries, entry{doc.Path + "#", rootTypeName(doc.Path), root})
	}
	var defs []entry
	for _, s := range p.Schemas {
		if _, ok := stable[s]; ok {
			continue
		}
		if file, def, ok := defName(s.Loc); ok {
			_ = file
			defs = append(defs, entry{s.Loc, exported(def), s})
		}
	}
	// A definition keeps its plain name when nothing else wants it, or
	// when it is the one real definition among aliases of it (a def that
	// is only a $ref). Otherwise it is prefixed with its document's name.
	rootNames := map[string]bool{}
	for _, e := range entries {
		if _, ok := stable[e.s]; !ok {
			rootNames[e.name] = true
		}
	}
	for _, name := range stable {
		rootNames[name] = true
	}
	wanted := map[string][]int{}
	for i, e := range defs {
		wanted[e.name] = append(wanted[e.name], i)
	}
	for name, idx := range wanted {
		keep := -1
		if !rootNames[name] {
			if len(idx) == 1 {
				keep = idx[0]
			} else {
				var real []int
				for _, i := range idx {
					if !defs[i].s.RefOnly() {
						real = append(real, i)
					}
				}
				switch len(real) {
				case 1:
					keep = real[0]
				default:
					// Several real definitions: the one that includes all
					// the others (a full event built from an overlay that is
					// also a definition) is the type users mean; failing
					// that, the only one that is a union's alternative (an
					// event, beside the capabilities of the same name).
					if keep = including(defs, real); keep < 0 {
						keep = onlyVariant(p, defs, real)
					}
				}
			}
		}
		for _, i := range idx {
			if i != keep {
				file, _, _ := defName(defs[i].loc)
				defs[i].name = exported(docStem(file)) + name
			}
		}
	}
	entries = append(entries, defs...)
	// Stable locations other than document roots (definitions, and
	// schemas inside others) are named types with their stable names.
	for s, name := range stable {
		if !strings.HasSuffix(s.Loc, "#") {
			entries = append(entries, entry{s.Loc, name, s})
		}
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].loc < entries[j].loc })
	for _, e := range entries {
		if name, ok := stable[e.s]; ok {
			t.named[e.s] = name // taken by stableNames
			continue
		}
		if _, dup := t.named[e.s]; dup {
			continue // a document root that is also reached as a def
		}
		t.named[e.s] = t.names.takeType(e.name)
	}
	for _, e := range entries {
		typ := t.namedType(e.s)
		if typ == nil {
			continue
		}
		if _, ok := t.Named[e.loc]; !ok {
			t.Named[e.loc] = typ
			t.Roots = append(t.Roots, typ)
		}
	}
	t.markUnions()
	t.markDefined()
	for _, ty := range t.All {
		for i, v := range ty.Values {
			ty.Values[i].Go = t.names.take(ty.Name + exported(v.Value))
		}
	}
	t.nameDecls()
	t.markAccessors()
	t.planEncoding()
	t.markEmbeds()
	return t, nil
}

// stableNames resolves Options.StableNames to schemas and takes their
// names in the package scope, in the order of their locations.
func (t *Types) stableNames() (map[*Schema]string, error) {
	p := t.prog
	bySource := map[*Schema]StableName{}
	byName := map[string]StableName{}
	// byDecl: what each stable type declares (the type, its DecodeX and
	// NewX), to name the entry a later one clashes with.
	type taken struct {
		sn   StableName
		decl string
	}
	byDecl := map[string]taken{}
	out := map[*Schema]string{}
	list := append([]StableName(nil), p.opt.StableNames...)
	sort.SliceStable(list, func(i, j int) bool { return list[i].Location < list[j].Location })
	for _, sn := range list {
		var s *Schema
		for _, x := range p.Schemas {
			if _, rel, ok := strings.Cut(x.Loc, "/"); ok && rel == sn.Location {
				s = x
				break
			}
		}
		if s == nil {
			return nil, fmt.Errorf("%s: no schema at %s in this snapshot", sn.Source, sn.Location)
		}
		name := exported(sn.Name)
		if prev, ok := bySource[s]; ok {
			if out[s] != name {
				return nil, fmt.Errorf("%s: %s is named %s by %s already", sn.Source, sn.Location, exported(prev.Name), prev.Source)
			}
			continue
		}
		if prev, ok := byName[name]; ok {
			return nil, fmt.Errorf("%s: type name %s for %s is %s's, by %s", sn.Source, name, sn.Location, prev.Location, prev.Source)
		}
		if got := t.names.takeType(name); got != name {
			api := apiFuncs(name)
			// Name the entry that took the clashing name where one did
			// (its type, or its DecodeX or NewX), not just this one.
			for _, clash := range append([]string{name}, api[:]...) {
				if prev, ok := byDecl[clash]; ok {
					what := "is"
					if clash != name {
						what = "would declare " + clash + ", which is"
					}
					return nil, fmt.Errorf("%s: type name %s for %s %s declared already: %s, for %s (by %s)", sn.Source, name, sn.Location, what, prev.decl, prev.sn.Location, prev.sn.Source)
				}
			}
			return nil, fmt.Errorf("%s: type name %s for %s collides with a name the package declares (%s, or one of %s)", sn.Source, name, sn.Location, name, strings.Join(api[:], ", "))
		}
		bySource[s], byName[name], out[s] = sn, sn, name
		byDecl[name] = taken{sn, "type " + name}
		for _, f := range apiFuncs(name) {
			byDecl[f] = taken{sn, "type " + name + "'s " + f}
		}
	}
	return out, nil
}

// nameDecls names what the emitter declares for each type and for each
// list or map expression, after every type has its name: a helper never
// takes a type's name, and a type's name never depends on its helpers.
func (t *Types) nameDecls() {
	roots := map[*Type]bool{}
	for _, ty := range t.Roots {
		roots[ty] = true
	}
	for _, ty := range t.All {
		api := apiFuncs(ty.Name) // taken with the name (takeType)
		ty.DecodeFunc, ty.NewFunc = api[0], api[1]
		ty.CheckFunc = ty.Name // a method of Checker (CheckerType)
		if roots[ty] {
			ty.RootBuildFunc = t.names.take(rootBuildName(ty.Name))
		}
		switch ty.Kind {
		case StructKind, UnionKind, KindUnionKind:
			ty.BuildFunc = t.names.take(buildFuncName(ty.Name))
		}
		switch ty.Kind {
		case StructKind:
			ty.SizeHintVar = t.names.take(sizeHintName(ty.Name))
		case UnionKind:
			ty.MarkerMethod = t.names.take(markerMethodName(ty.Name))
		}
	}
	for _, ty := range t.All {
		for _, f := range ty.Fields {
			t.nameHelpers(f.Type)
		}
		t.nameHelpers(ty.Extra)
		for _, a := range ty.Alts {
			t.nameHelpers(a.Type)
		}
		t.nameHelpers(ty.Target)
	}
}

// nameHelpers names the helpers of x when it is a list or a map, and of
// the lists and maps inside it, outermost first.
func (t *Types) nameHelpers(x *Expr) {
	if x == nil || !x.Slice && !x.Map || x.StringList() {
		return
	}
	if _, ok := t.helpers[x.Key()]; !ok {
		stem := exprStem(x)
		t.helpers[x.Key()] = ExprFuncs{Build: t.names.take("build" + stem), Append: t.names.take("append" + stem)}
	}
	t.nameHelpers(x.Elem)
}

// entry is a named schema waiting for its type name.
type entry struct {
	loc, name string
	s         *Schema
}

// including returns the entry among idx whose schema's closure contains
// every other entry's schema, or -1.
func including(defs []entry, idx []int) int {
	for _, i := range idx {
		cl := map[*Schema]bool{}
		for _, c := range closure(defs[i].s) {
			cl[c] = true
		}
		all := true
		for _, j := range idx {
			if j != i && !cl[defs[j].s] {
				all = false
			}
		}
		if all {
			return i
		}
	}
	return -1
}

// onlyVariant returns the one entry among idx that some anyOf/oneOf
// names as a branch (through $refs), or -1.
func onlyVariant(p *Program, defs []entry, idx []int) int {
	branch := map[*Schema]bool{}
	for _, s := range p.Schemas {
		for _, list := range [][]*Schema{s.AnyOf, s.OneOf} {
			for _, b := range list {
				for x := b; x != nil; x = x.Ref {
					branch[x] = true
					if !x.RefOnly() {
						break
					}
				}
			}
		}
	}
	found := -1
	for _, i := range idx {
		if branch[defs[i].s] {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// rootTypeName names a document's root type after its file.
func rootTypeName(path string) string {
	stem := docStem(path)
	if stem == "schema" {
		return "WireMessage" // the aggregate: any message of the snapshot
	}
	return exported(stem)
}

// defName splits "dir/file.json#/$defs/name" (a direct definition).
func defName(loc string) (file, def string, ok bool) {
	file, ptr, found := strings.Cut(loc, "#")
	if !found || !strings.HasPrefix(ptr, "/$defs/") {
		return "", "", false
	}
	def = strings.TrimPrefix(ptr, "/$defs/")
	if strings.Contains(def, "/") {
		return "", "", false
	}
	return file, model.UnescapeToken(def), true
}
