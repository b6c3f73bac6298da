package ir

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// The Go side of a snapshot. Types hold decoded values losslessly: every
// instance the schema accepts has exactly one Go value, and encoding it
// gives back an equal JSON value. Checks stay exact whatever the types:
// where a schema says more than a Go type can (an if/then on a member, a
// pattern), the type is the widest sound one and the check says the rest.

// TypeKind is how a Type is declared in Go.
type TypeKind int

const (
	// StructKind: an object with declared members.
	StructKind TypeKind = iota
	// UnionKind: an object that is one of several shapes; an interface
	// implemented by each variant's struct.
	UnionKind
	// EnumKind: a string from a fixed list; a string type with constants.
	EnumKind
	// AliasKind: a name for another Go type (a definition the schema
	// names, like a string with a pattern, or raw JSON).
	AliasKind
	// KindUnionKind: a value of one of several JSON kinds (string or
	// integer, say); a struct with one field per kind.
	KindUnionKind
)

// Type is a Go type the generator declares.
type Type struct {
	Name   string
	Kind   TypeKind
	Schema *Schema // the check that validates a value of this type
	Doc    string
	// Named is set for document roots and $defs entries (part of the
	// package's API); inline types are named after where they appear.
	Named bool

	// StructKind.
	Fields []*Field
	// Open structs keep members the schema does not declare.
	Open bool
	// Extra types the values of undeclared members when the schema
	// constrains them (additionalProperties or patternProperties with a
	// schema); such structs keep them in a map.
	Extra *Expr

	// UnionKind: the variants, in schema order (a variant may itself be a
	// union). Owner is the schema holding the anyOf/oneOf.
	Variants []*Variant
	Owner    *Schema
	// UnionKind: the methods of the interface that read a member every
	// leaf has (see accessors.go); StructKind: the methods implementing
	// them. fieldNames is a struct's scope of field and method names.
	Accessors  []*Accessor
	Getters    []*Getter
	fieldNames *names
	// Members lists the unions this type is a variant of (its marker
	// methods).
	Unions []*Type

	// EnumKind.
	Values []EnumValue

	// AliasKind.
	Target *Expr
	// Defined, for AliasKind, declares the type as a new type with
	// Target's underlying type rather than as an alias: Go allows no
	// alias that refers to itself (a list of itself, say), and a
	// defined type converts to and from its target implicitly.
	Defined bool

	// KindUnionKind: one alternative per JSON kind.
	Alts []*Alt

	// The Go names of the type's own declarations, from the package scope
	// (see naming.go). DecodeFunc, CheckFunc and NewFunc are reserved for
	// every type; the emitter declares the first two for document roots
	// and definitions (Types.Roots) and NewFunc for structs that carry
	// constants. DecodeDocFunc (Decode on a parsed document, for the
	// dispatcher) is set for roots; BuildFunc (a value from a validated
	// node) for structs, unions and kind unions; SizeHintVar (the
	// encoder's buffer size hint) for structs; MarkerMethod (the method
	// of the union's interface its variants implement) for unions.
	DecodeFunc, CheckFunc, NewFunc string
	DecodeDocFunc, BuildFunc       string
	SizeHintVar, MarkerMethod      string
}

// Field is a member of a struct.
type Field struct {
	JSON     string
	Go       string
	Type     *Expr
	Required bool
	// Const is set for a member fixed to one value: it is not stored
	// (required) or stored as a presence flag (optional), and encoders
	// write the constant.
	Const *Literal
	// Indirect holds a required member by pointer, as optional ones are:
	// its struct type contains the struct being declared (a definition
	// that requires a member of its own type), which Go allows only
	// through a pointer.
	Indirect bool
	Doc      string
}

// Variant is one alternative of a union.
type Variant struct {
	Type *Type
	// Schema is the branch whose check selects this variant.
	Schema *Schema
}

// EnumValue is one constant of an enum type.
type EnumValue struct {
	Go    string
	Value string
}

// Alt is one JSON kind of a KindUnion.
type Alt struct {
	Kind  string // null, boolean, string, integer, number, object, array
	Go    string // field name
	Type  *Expr
	Check *Schema // the schema selecting this alternative (object/array alternatives)
}

// Expr is a Go type expression for a field or element.
type Expr struct {
	// Builtin is one of: string, bool, int64, Number, Value, Null.
	Builtin string
	Named   *Type
	// Slice or Map of Elem.
	Slice, Map bool
	Elem       *Expr
}

// Builtin type names.
const (
	BString = "string"
	BBool   = "bool"
	BInt64  = "int64"
	BNumber = "Number"
	BValue  = "Value"
	BNull   = "Null"
)

// Key spells x as the Go type it is, with the runtime's types qualified
// ("[]map[string]ahprt.Value"): equal keys are the same Go type, and no
// two different types share one, since type names are unique exported
// identifiers. Helpers of list and map expressions are looked up by it.
func (e *Expr) Key() string {
	switch {
	case e.Named != nil:
		return e.Named.Name
	case e.Slice:
		return "[]" + e.Elem.Key()
	case e.Map:
		return "map[string]" + e.Elem.Key()
	}
	switch e.Builtin {
	case BString, BBool, BInt64:
		return e.Builtin
	}
	return "ahprt." + e.Builtin
}

func (e *Expr) String() string {
	switch {
	case e.Named != nil:
		return e.Named.Name
	case e.Slice:
		return "[]" + e.Elem.String()
	case e.Map:
		return "map[string]" + e.Elem.String()
	}
	return e.Builtin
}

// Types is the Go API of a program.
type Types struct {
	// All lists every declared type in a deterministic order.
	All []*Type
	// Named maps document roots and $defs entries (by location) to types.
	Named map[string]*Type
	// Roots lists named types in location order (the package's entry points).
	Roots []*Type

	prog     *Program
	names    *names // the package scope (Program.names)
	helpers  map[string]ExprFuncs
	bySchema map[*Schema]*Type
	building map[*Schema]bool
	named    map[*Schema]string // schema → name it must get
}

// ExprFuncs names the helpers of one list or map expression ([]T,
// map[string]T): Build makes the Go value from a validated node, Append
// encodes it. Every field, element or alternative of that Go type shares
// them.
type ExprFuncs struct{ Build, Append string }

// Funcs returns the helpers of list or map expression x. Every such
// expression a type of the package holds has them (BuildTypes names
// them all); asking for another is a generator bug.
func (t *Types) Funcs(x *Expr) ExprFuncs {
	f, ok := t.helpers[x.Key()]
	if !ok {
		panic("ir: no helpers named for " + x.Key())
	}
	return f
}

// BuildTypes derives the Go types of a program.
//
// Named types (part of the package's API, with Decode and Check
// functions) are every document root, every $defs entry and every
// location Options.StableNames names. A stable name is the type's name,
// in Go's initialisms (exported): it is taken first in the package scope,
// and one that cannot be had (two locations asking for one name, or a
// name the package scope holds, such as another stable type's CheckX)
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
	for _, doc := range p.set.Docs {
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
	return t, nil
}

// stableNames resolves Options.StableNames to schemas and takes their
// names in the package scope, in the order of their locations.
func (t *Types) stableNames() (map[*Schema]string, error) {
	p := t.prog
	bySource := map[*Schema]StableName{}
	byName := map[string]StableName{}
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
			return nil, fmt.Errorf("%s: type name %s for %s collides with a name the package declares (%s, or one of %s)", sn.Source, name, sn.Location, name, strings.Join(api[:], ", "))
		}
		bySource[s], byName[name], out[s] = sn, sn, name
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
		ty.DecodeFunc, ty.CheckFunc, ty.NewFunc = api[0], api[1], api[2]
		if roots[ty] {
			ty.DecodeDocFunc = t.names.take(decodeDocName(ty.Name))
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
	if x == nil || !x.Slice && !x.Map {
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
	return file, strings.NewReplacer("~1", "/", "~0", "~").Replace(def), true
}

// namedType returns the declared type of a named schema.
func (t *Types) namedType(s *Schema) *Type {
	if typ, ok := t.bySchema[s]; ok {
		return typ
	}
	name := t.named[s]
	return t.declare(s, name, true)
}

// declare builds the type of schema s under name.
func (t *Types) declare(s *Schema, name string, named bool) *Type {
	typ := &Type{Name: name, Schema: s, Named: named, Doc: docOf(s)}
	t.bySchema[s] = typ
	t.All = append(t.All, typ)
	e := t.shapeOf(s, name, typ)
	if e.Named != nil && e.Named == typ {
		return typ // shapeOf filled typ itself (struct, union, enum, kind union)
	}
	typ.Kind = AliasKind
	typ.Target = e
	return typ
}

func docOf(s *Schema) string {
	d := strings.TrimSpace(s.Description)
	if d == "" {
		d = strings.TrimSpace(s.Title)
	}
	return d
}

// closure lists the schemas that apply unconditionally to the same
// instance as s: s, its $ref chain and allOf members, recursively.
func closure(s *Schema) []*Schema {
	var out []*Schema
	seen := map[*Schema]bool{}
	var walk func(*Schema)
	walk = func(x *Schema) {
		if x == nil || seen[x] {
			return
		}
		seen[x] = true
		out = append(out, x)
		walk(x.Ref)
		for _, a := range x.AllOf {
			walk(a)
		}
	}
	walk(s)
	return out
}

// conditional lists the schemas that may apply to the same instance as s
// depending on the value: if/then/else, dependentSchemas, and the
// branches of anyOf/oneOf (with what applies unconditionally to them).
func conditional(cl []*Schema) []*Schema {
	var out []*Schema
	seen := map[*Schema]bool{}
	for _, c := range cl {
		seen[c] = true
	}
	var add func(*Schema)
	add = func(x *Schema) {
		if x == nil {
			return
		}
		for _, y := range closure(x) {
			if !seen[y] {
				seen[y] = true
				out = append(out, y)
				add2(y, add)
			}
		}
	}
	for _, c := range cl {
		add2(c, add)
	}
	return out
}

func add2(c *Schema, add func(*Schema)) {
	// An `if` is a test, not a constraint: its members are not the
	// instance's unless a then or else says so.
	add(c.Then)
	add(c.Else)
	for _, d := range c.DependentSchemas {
		add(d.Schema)
	}
	for _, b := range c.AnyOf {
		add(b)
	}
	for _, b := range c.OneOf {
		add(b)
	}
}

// kinds is the set of JSON kinds a schema's instances can have.
type kinds uint8

const (
	kNull kinds = 1 << iota
	kBool
	kInteger // integral numbers
	kFraction
	kString
	kObject
	kArray
	kAll    = kNull | kBool | kInteger | kFraction | kString | kObject | kArray
	kNumber = kInteger | kFraction
)

func kindsOfType(name string) kinds {
	switch name {
	case "null":
		return kNull
	case "boolean":
		return kBool
	case "integer":
		return kInteger
	case "number":
		return kNumber
	case "string":
		return kString
	case "object":
		return kObject
	case "array":
		return kArray
	}
	return 0
}

func kindsOfLiteral(l Literal) kinds {
	switch l.Kind {
	case "number":
		if strings.ContainsAny(l.JSON, ".eE") {
			return kNumber // may still be integral: stay wide
		}
		return kInteger
	}
	return kindsOfType(l.Kind)
}

// possible computes the kinds s accepts (an over-approximation: exact for
// type, const, enum and unions of those).
func possible(s *Schema, seen map[*Schema]bool) kinds {
	if s == nil {
		return kAll
	}
	if s.Bool != nil {
		if *s.Bool {
			return kAll
		}
		return 0
	}
	if seen[s] {
		return kAll
	}
	seen[s] = true
	defer delete(seen, s)
	k := kAll
	if len(s.Types) > 0 {
		var t kinds
		for _, n := range s.Types {
			t |= kindsOfType(n)
		}
		k &= t
	}
	if s.Const != nil {
		k &= kindsOfLiteral(*s.Const)
	}
	if s.Enum != nil {
		var t kinds
		for _, l := range s.Enum {
			t |= kindsOfLiteral(l)
		}
		k &= t
	}
	if s.Ref != nil {
		k &= possible(s.Ref, seen)
	}
	for _, a := range s.AllOf {
		k &= possible(a, seen)
	}
	for _, list := range [][]*Schema{s.AnyOf, s.OneOf} {
		if len(list) == 0 {
			continue
		}
		var u kinds
		for _, b := range list {
			u |= possible(b, seen)
		}
		k &= u
	}
	return k
}

// shapeOf decides the Go type of instances of s. name is the name an
// inline type would get; typ, when not nil, is the declared type to fill
// (a named schema or an inline one declared by the caller).
func (t *Types) shapeOf(s *Schema, name string, typ *Type) *Expr {
	if s.Guard != 0 {
		// On an in-place cycle (see markCycles): raw JSON holds whatever
		// its check accepts, and no type refers back to itself in place.
		return &Expr{Builtin: BValue}
	}
	// A schema whose struct is being filled right now (a member's schema
	// that applies, with keywords of its own, the definition holding the
	// member) is that struct: its type refers to itself.
	if typ == nil && t.building[s] {
		if ty, ok := t.bySchema[s]; ok {
			return &Expr{Named: ty}
		}
	}
	// A named schema is its type, also where it appears inline (a stable
	// name for a location inside another schema); a schema that is only a
	// reference to a named schema is that type.
	if typ == nil {
		if _, ok := t.named[s]; ok {
			return &Expr{Named: t.namedType(s)}
		}
		if r := refTarget(s); r != nil {
			if _, ok := t.named[r]; ok {
				return &Expr{Named: t.namedType(r)}
			}
		}
	}
	cl := closure(s)
	k := possible(s, map[*Schema]bool{})
	// Reuse: a named type among the closure that holds every instance s
	// accepts, when the rest of s only adds constraints.
	if r := t.reusable(s, cl, typ); r != nil {
		return &Expr{Named: r}
	}
	self := func(kind TypeKind) *Type {
		if typ == nil {
			typ = &Type{Name: t.names.takeType(name), Schema: s, Doc: docOf(s)}
			t.bySchema[s] = typ
			t.All = append(t.All, typ)
		}
		typ.Kind = kind
		return typ
	}
	switch {
	case k == 0:
		return &Expr{Builtin: BValue} // accepts nothing; the check says so
	case k == kObject:
		if u, owner := t.unionOf(s, cl, name); u != nil {
			ty := self(UnionKind)
			ty.Variants, ty.Owner = u, owner
			return &Expr{Named: ty}
		}
		if !declaresMembers(cl) && !declaresMembers(conditional(cl)) {
			if x := t.extraOf(cl, name); x != nil {
				return &Expr{Map: true, Elem: x}
			}
			return &Expr{Builtin: BValue} // a free-form object
		}
		ty := self(StructKind)
		t.fillStruct(ty, s, cl)
		return &Expr{Named: ty}
	case k == kArray:
		return &Expr{Slice: true, Elem: t.itemsOf(cl, name)}
	case k == kString:
		if vals, ok := stringEnum(cl); ok {
			ty := self(EnumKind)
			for _, v := range vals {
				ty.Values = append(ty.Values, EnumValue{Value: v})
			}
			return &Expr{Named: ty}
		}
		return &Expr{Builtin: BString}
	case k == kBool:
		return &Expr{Builtin: BBool}
	case k == kNull:
		return &Expr{Builtin: BNull}
	case k == kInteger:
		if fitsInt64(cl) {
			return &Expr{Builtin: BInt64}
		}
		return &Expr{Builtin: BNumber}
	case k&^kNumber == 0:
		return &Expr{Builtin: BNumber}
	case k == kAll:
		return &Expr{Builtin: BValue}
	}
	// Several kinds: one alternative per kind.
	ty := self(KindUnionKind)
	t.fillKindUnion(ty, s, cl, k, name)
	return &Expr{Named: ty}
}

// refTarget follows a schema that is only a $ref (any depth).
func refTarget(s *Schema) *Schema {
	if s == nil || !s.RefOnly() {
		return nil
	}
	return s.Resolve()
}

// Resolve follows s through schemas that are only a $ref to the schema
// that says something. A chain of $refs that comes back to itself ends
// at a guarded schema (see markCycles), which is never RefOnly.
func (s *Schema) Resolve() *Schema {
	for s != nil && s.RefOnly() {
		s = s.Ref
	}
	return s
}

// RefOnly reports whether s is nothing but a $ref (annotations aside):
// checking s is checking its target. A schema that enters the dynamic
// scope, or guards a cycle, is more than its $ref: its check pushes the
// scope, or the guard.
func (s *Schema) RefOnly() bool {
	if s.Ref == nil || s.Scope != nil || s.Guard != 0 {
		return false
	}
	r := s.Ref
	s.Ref = nil
	empty := s.IsTrue()
	s.Ref = r
	return empty
}

func declaresMembers(cl []*Schema) bool {
	for _, c := range cl {
		if len(c.Properties) > 0 || len(c.Required) > 0 {
			return true
		}
	}
	return false
}

// reusable finds a named schema in s's closure whose Go type can hold all
// of s: s adds checks but no members that type lacks.
func (t *Types) reusable(s *Schema, cl []*Schema, typ *Type) *Type {
	for _, c := range cl {
		if c == s {
			continue
		}
		if _, ok := t.named[c]; !ok {
			continue
		}
		if t.building[c] {
			continue
		}
		r := t.namedType(c)
		inner := map[*Schema]bool{}
		for _, x := range closure(c) {
			inner[x] = true
		}
		fits := true
		var rest []*Schema
		for _, x := range cl {
			if !inner[x] {
				rest = append(rest, x)
			}
		}
		for _, x := range rest {
			if !t.onlyNarrows(x, r) {
				fits = false
			}
		}
		if fits && (r.Kind == StructKind || r.Kind == UnionKind || r.Kind == AliasKind || r.Kind == EnumKind || r.Kind == KindUnionKind) {
			if typ != nil && r == typ {
				continue
			}
			return r
		}
	}
	return nil
}

// onlyNarrows reports whether schema x, applied beside named type r, only
// adds checks: its members are r's members without new shapes, and its
// unions choose among r's own variants.
func (t *Types) onlyNarrows(x *Schema, r *Type) bool {
	for _, p := range x.Properties {
		f := r.field(p.Name)
		if f == nil || upgrades(f, p.Schema) {
			return false
		}
	}
	if x.AdditionalProperties != nil && !x.AdditionalProperties.IsFalse() && r.Extra == nil {
		return false
	}
	if x.Const != nil || x.Enum != nil || x.Items != nil || len(x.PrefixItems) > 0 {
		return false
	}
	if len(x.Types) > 0 && !(len(x.Types) == 1 && x.Types[0] == "object" && (r.Kind == StructKind || r.Kind == UnionKind)) {
		return false
	}
	leaves := map[*Type]bool{r: true}
	if r.Kind == UnionKind {
		for _, l := range r.Leaves() {
			leaves[l] = true
		}
	}
	for _, list := range [][]*Schema{x.AnyOf, x.OneOf} {
		for _, b := range list {
			bt := refTarget(b)
			if bt == nil {
				return false
			}
			if _, ok := t.named[bt]; !ok {
				return false
			}
			if t.building[bt] || !leaves[t.namedType(bt)] {
				return false
			}
		}
	}
	for _, c := range []*Schema{x.If, x.Then, x.Else} {
		if c != nil && !t.onlyNarrows(c, r) {
			return false
		}
	}
	for _, d := range x.DependentSchemas {
		if !t.onlyNarrows(d.Schema, r) {
			return false
		}
	}
	return true
}

// upgrades reports whether member schema s, applied on top of field f of
// a named type, would give the member a more useful Go type than f has:
// raw JSON becoming typed, or a scalar becoming a constant. Narrowing an
// already typed member (an enum subset, tighter bounds, a required member
// inside an object) does not: those stay checks on the named type.
func upgrades(f *Field, s *Schema) bool {
	if f.Const != nil {
		return false
	}
	var e *Expr = f.Type
	for i := 0; e != nil && i < 100; i++ {
		r := e
		for r.Named != nil && r.Named.Kind == AliasKind {
			r = r.Named.Target
		}
		if r.Slice || r.Map {
			// Look at what the schema says about the elements.
			var next *Schema
			for _, c := range closure(s) {
				if r.Slice && c.Items != nil {
					next = c.Items
				}
				if r.Map && c.AdditionalProperties != nil {
					next = c.AdditionalProperties
				}
			}
			if next == nil {
				return false
			}
			e, s = r.Elem, next
			continue
		}
		if r.Named != nil {
			return false // already a struct, union, enum or kind union
		}
		for _, c := range closure(s) {
			if c.Const != nil || len(c.Enum) == 1 {
				return true
			}
			if r.Builtin == BValue && (len(c.Types) > 0 || len(c.Properties) > 0 || c.Items != nil ||
				len(c.AnyOf) > 0 || len(c.OneOf) > 0 || c.Enum != nil) {
				return true
			}
		}
		return false
	}
	return false
}

// field returns the field for a member name, looking through aliases;
// for a union, a field every variant has.
func (ty *Type) field(json string) *Field {
	if ty.Kind == AliasKind && ty.Target != nil && ty.Target.Named != nil {
		return ty.Target.Named.field(json)
	}
	if ty.Kind == UnionKind {
		var first *Field
		for _, v := range ty.Variants {
			f := v.Type.field(json)
			if f == nil {
				return nil
			}
			if first == nil {
				first = f
			}
		}
		return first
	}
	for _, f := range ty.Fields {
		if f.JSON == json {
			return f
		}
	}
	return nil
}

// unionOf finds the object union s amounts to: the anyOf/oneOf in its
// closure whose every branch is itself an object type (a struct, or a
// union whose variants are). Nil when s is not a union.
func (t *Types) unionOf(s *Schema, cl []*Schema, name string) ([]*Variant, *Schema) {
	var list []*Schema
	var owner *Schema
	for _, c := range cl {
		switch {
		case len(c.OneOf) > 0:
			list, owner = c.OneOf, c
		case len(c.AnyOf) > 0:
			list, owner = c.AnyOf, c
		default:
			continue
		}
		break
	}
	if list == nil {
		return nil, nil
	}
	// Members declared beside the union would belong to every variant;
	// such schemas become one struct instead.
	for _, c := range cl {
		if len(c.Properties) > 0 {
			return nil, nil
		}
	}
	t.building[s] = true
	defer delete(t.building, s)
	var out []*Variant
	for i, b := range list {
		e := t.shapeOf(b, variantName(name, owner, i, b), nil)
		if e.Named == nil {
			return nil, nil
		}
		switch e.Named.Kind {
		case StructKind:
			out = append(out, &Variant{Type: e.Named, Schema: b})
		case UnionKind:
			out = append(out, &Variant{Type: e.Named, Schema: b})
		default:
			return nil, nil
		}
	}
	return out, owner
}

// variantName names an inline union branch: the union's name and the
// branch's discriminator values, or its title, or its position.
func variantName(union string, owner *Schema, i int, b *Schema) string {
	if owner.Dispatch != nil {
		var parts []string
		var walk func(d *Dispatch)
		walk = func(d *Dispatch) {
			for _, c := range d.Cases {
				for _, x := range c.Branches {
					if x == i {
						parts = append(parts, exported(c.Value.Str()))
						if c.Sub != nil {
							walk(c.Sub)
						}
					}
				}
			}
		}
		walk(owner.Dispatch)
		if len(parts) > 0 {
			return union + strings.Join(parts, "")
		}
	}
	if b.Title != "" {
		return union + exported(b.Title)
	}
	return fmt.Sprintf("%sVariant%d", union, i+1)
}

// fillStruct declares the fields of an object type: every member any
// applicable schema declares, typed by the schemas that always apply to it.
func (t *Types) fillStruct(ty *Type, s *Schema, cl []*Schema) {
	t.building[s] = true
	defer delete(t.building, s)
	cond := conditional(cl)
	required := map[string]bool{}
	for _, c := range cl {
		for _, r := range c.Required {
			required[r] = true
		}
	}
	type member struct {
		always, sometimes []*Schema
	}
	members := map[string]*member{}
	var order []string
	add := func(list []*Schema, always bool) {
		for _, c := range list {
			for _, p := range c.Properties {
				m, ok := members[p.Name]
				if !ok {
					m = &member{}
					members[p.Name] = m
					order = append(order, p.Name)
				}
				if always {
					m.always = append(m.always, p.Schema)
				} else {
					m.sometimes = append(m.sometimes, p.Schema)
				}
			}
		}
	}
	add(cl, true)
	add(cond, false)
	ty.Open = true
	for _, c := range cl {
		if c.AdditionalProperties != nil && c.AdditionalProperties.IsFalse() {
			ty.Open = false
		}
	}
	ty.Extra = t.extraOf(cl, ty.Name)
	if ty.Extra != nil {
		ty.Open = false
	}
	fields := newNames(structMembers...)
	ty.fieldNames = fields
	for _, name := range order {
		m := members[name]
		f := &Field{JSON: name, Required: required[name]}
		f.Go = fields.take(exported(name))
		var parts []*Schema
		if len(m.always) > 0 {
			parts = m.always
		} else {
			// A member only some alternatives declare holds any value when
			// another alternative applies: it is typed only where every
			// alternative of one anyOf/oneOf (or then and else together)
			// declares it, since one of them always applies.
			parts = alwaysOneOf(cl, name)
		}
		for _, p := range parts {
			if d := docOf(p); d != "" && f.Doc == "" {
				f.Doc = d
			}
		}
		if len(m.always) > 0 {
			if l, ok := fixedConst(m.always); ok {
				f.Const = &l
				ty.Fields = append(ty.Fields, f)
				continue
			}
		}
		var fs *Schema
		if len(parts) == 0 {
			f.Type = &Expr{Builtin: BValue}
			ty.Fields = append(ty.Fields, f)
			continue
		}
		if len(parts) == 1 {
			fs = parts[0]
		} else if len(m.always) > 0 {
			fs = t.prog.synthetic(&Schema{AllOf: parts, Loc: parts[0].Loc})
		} else {
			fs = t.prog.synthetic(&Schema{AnyOf: parts, Loc: parts[0].Loc})
		}
		f.Type = t.shapeOf(fs, ty.Name+exported(name), nil)
		if r := resolveType(f.Type); f.Required && r != nil && (r.Kind == StructKind || r.Kind == KindUnionKind) && t.building[r.Schema] {
			f.Indirect = true
		}
		ty.Fields = append(ty.Fields, f)
	}
}

// resolveType is the named type x holds through aliases, or nil.
func resolveType(x *Expr) *Type {
	for i := 0; x != nil && x.Named != nil && i < 100; i++ {
		if x.Named.Kind != AliasKind {
			return x.Named
		}
		x = x.Named.Target
	}
	return nil
}

// alwaysOneOf finds, in the closure, a set of alternatives of which one
// always applies (the branches of an anyOf or oneOf, or a then and an
// else) that all declare member name, and returns their schemas for it.
func alwaysOneOf(cl []*Schema, name string) []*Schema {
	declared := func(alt *Schema) *Schema {
		for _, c := range closure(alt) {
			for _, p := range c.Properties {
				if p.Name == name {
					return p.Schema
				}
			}
		}
		return nil
	}
	for _, c := range cl {
		lists := [][]*Schema{c.AnyOf, c.OneOf}
		if c.If != nil && c.Then != nil && c.Else != nil {
			lists = append(lists, []*Schema{c.Then, c.Else})
		}
		for _, list := range lists {
			var parts []*Schema
			for _, alt := range list {
				p := declared(alt)
				if p == nil {
					parts = nil
					break
				}
				parts = append(parts, p)
			}
			if len(parts) > 0 {
				return parts
			}
		}
	}
	return nil
}

// fixedConst reports the constant a member always equals.
func fixedConst(always []*Schema) (Literal, bool) {
	for _, a := range always {
		for _, c := range closure(a) {
			if c.Const != nil {
				return *c.Const, true
			}
			if len(c.Enum) == 1 {
				return c.Enum[0], true
			}
		}
	}
	return Literal{}, false
}

// extraOf types the undeclared members of an object whose schema
// constrains them (additionalProperties or patternProperties schemas).
func (t *Types) extraOf(cl []*Schema, name string) *Expr {
	// Each schema of the closure that has additionalProperties constrains
	// every member no properties declare: by the patternProperties the
	// member's name matches, else by additionalProperties. One without
	// it leaves the members its patterns do not match free, so it says
	// nothing that holds for all of them.
	var every []*Schema
	for _, c := range cl {
		ap := c.AdditionalProperties
		if ap == nil || ap.IsTrue() {
			continue
		}
		var any []*Schema
		for _, pp := range c.PatternProperties {
			any = append(any, pp.Schema)
		}
		if !ap.IsFalse() {
			any = append(any, ap)
		}
		switch len(any) {
		case 0:
			// No undeclared member at all: the struct is closed.
		case 1:
			every = append(every, any[0])
		default:
			every = append(every, t.prog.synthetic(&Schema{AnyOf: any, Loc: any[0].Loc}))
		}
	}
	if len(every) == 0 {
		return nil
	}
	s := every[0]
	if len(every) > 1 {
		s = t.prog.synthetic(&Schema{AllOf: every, Loc: every[0].Loc})
	}
	return t.shapeOf(s, name+"Value", nil)
}

func (t *Types) itemsOf(cl []*Schema, name string) *Expr {
	var parts []*Schema
	for _, c := range cl {
		if len(c.PrefixItems) > 0 {
			return &Expr{Builtin: BValue}
		}
		if c.Items != nil {
			parts = append(parts, c.Items)
		}
	}
	if len(parts) == 0 {
		return &Expr{Builtin: BValue}
	}
	var s *Schema
	if len(parts) == 1 {
		s = parts[0]
	} else {
		s = t.prog.synthetic(&Schema{AllOf: parts, Loc: parts[0].Loc})
	}
	return t.shapeOf(s, singular(name), nil)
}

// singular names an array's item type after the array.
func singular(name string) string {
	switch {
	case strings.HasSuffix(name, "ies"):
		return strings.TrimSuffix(name, "ies") + "y"
	case strings.HasSuffix(name, "ss"):
		return name + "Item"
	case strings.HasSuffix(name, "s"):
		return strings.TrimSuffix(name, "s")
	}
	return name + "Item"
}

// stringEnum finds the values of a string enum in the closure.
func stringEnum(cl []*Schema) ([]string, bool) {
	for _, c := range cl {
		if len(c.Enum) > 1 {
			var out []string
			for _, l := range c.Enum {
				if l.Kind != "string" {
					return nil, false
				}
				if !slices.Contains(out, l.Str()) { // one constant per value
					out = append(out, l.Str())
				}
			}
			return out, true
		}
	}
	return nil, false
}

// fitsInt64: both bounds present and within int64.
func fitsInt64(cl []*Schema) bool {
	var lo, hi bool
	for _, c := range cl {
		for _, b := range []*string{c.Minimum, c.ExclusiveMinimum} {
			if b != nil && inInt64(*b) {
				lo = true
			}
		}
		for _, b := range []*string{c.Maximum, c.ExclusiveMaximum} {
			if b != nil && inInt64(*b) {
				hi = true
			}
		}
	}
	return lo && hi
}

func inInt64(num string) bool {
	if strings.ContainsAny(num, ".eE") {
		return false
	}
	neg := strings.HasPrefix(num, "-")
	d := strings.TrimPrefix(num, "-")
	if len(d) < 19 {
		return true
	}
	if len(d) > 19 {
		return false
	}
	if neg {
		return d <= "9223372036854775808"
	}
	return d <= "9223372036854775807"
}

// fillKindUnion declares one alternative per JSON kind s accepts.
func (t *Types) fillKindUnion(ty *Type, s *Schema, cl []*Schema, k kinds, name string) {
	add := func(kind, goName string, e *Expr, check *Schema) {
		ty.Alts = append(ty.Alts, &Alt{Kind: kind, Go: goName, Type: e, Check: check})
	}
	if k&kNull != 0 {
		add("null", "Null", &Expr{Builtin: BBool}, nil)
	}
	if k&kBool != 0 {
		add("boolean", "Bool", &Expr{Builtin: BBool}, nil)
	}
	switch {
	case k&kNumber == kInteger:
		add("integer", "Int", &Expr{Builtin: BNumber}, nil)
	case k&kNumber != 0:
		add("number", "Number", &Expr{Builtin: BNumber}, nil)
	}
	if k&kString != 0 {
		add("string", "String", &Expr{Builtin: BString}, nil)
	}
	// Object and array alternatives: the branches of s's union that accept
	// that kind, typed by their own shape.
	for _, kind := range []struct {
		k    kinds
		name string
		gon  string
	}{{kObject, "object", "Object"}, {kArray, "array", "Array"}} {
		if k&kind.k == 0 {
			continue
		}
		var parts []*Schema
		for _, c := range cl {
			for _, list := range [][]*Schema{c.AnyOf, c.OneOf} {
				for _, b := range list {
					if possible(b, map[*Schema]bool{})&^kind.k == 0 {
						parts = append(parts, b)
					}
				}
			}
		}
		var e *Expr
		var check *Schema
		switch len(parts) {
		case 0:
			e = &Expr{Builtin: BValue}
		case 1:
			check = parts[0]
			e = t.shapeOf(parts[0], name+kind.gon, nil)
		default:
			check = t.prog.synthetic(&Schema{AnyOf: parts, Loc: parts[0].Loc})
			e = &Expr{Builtin: BValue}
		}
		add(kind.name, kind.gon, e, check)
	}
}

// markUnions records, on every struct, the unions it is a variant of
// (directly or through nested unions).
func (t *Types) markUnions() {
	for _, u := range t.All {
		if u.Kind != UnionKind {
			continue
		}
		for _, leaf := range u.Leaves() {
			if !containsType(leaf.Unions, u) {
				leaf.Unions = append(leaf.Unions, u)
			}
		}
	}
}

// markDefined sets Defined on every alias whose target refers back to
// it, through lists, maps and other aliases.
func (t *Types) markDefined() {
	for _, ty := range t.All {
		if ty.Kind == AliasKind && refersTo(ty.Target, ty, map[*Type]bool{}) {
			ty.Defined = true
		}
	}
}

func refersTo(x *Expr, t *Type, seen map[*Type]bool) bool {
	for x != nil {
		if x.Named != nil {
			if x.Named == t {
				return true
			}
			if x.Named.Kind != AliasKind || seen[x.Named] {
				return false
			}
			seen[x.Named] = true
			x = x.Named.Target
			continue
		}
		x = x.Elem
	}
	return false
}

// Leaves are the concrete struct variants of a union, nested unions
// flattened, in order, without repeats.
func (u *Type) Leaves() []*Type {
	var out []*Type
	seen := map[*Type]bool{}
	var walk func(*Type)
	walk = func(x *Type) {
		for _, v := range x.Variants {
			if v.Type.Kind == UnionKind {
				if !seen[v.Type] {
					seen[v.Type] = true
					walk(v.Type)
				}
				continue
			}
			if !seen[v.Type] {
				seen[v.Type] = true
				out = append(out, v.Type)
			}
		}
	}
	walk(u)
	return out
}

func containsType(list []*Type, t *Type) bool {
	for _, x := range list {
		if x == t {
			return true
		}
	}
	return false
}
