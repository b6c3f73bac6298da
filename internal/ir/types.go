package ir

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
	// RestSep is what the encoder knows, after the declared fields, of
	// the members before the undeclared ones (see encoding.go).
	RestSep Sep

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

	// StructKind: Embeds lists, in field order, the structs this one
	// embeds (see embed.go); Embedded is set on a struct embedded in
	// another, which MemberFunc (one member into the struct) and
	// AppendMembersFunc (its members, each after a comma) serve.
	Embeds                        []*Type
	Embedded                      bool
	MemberFunc, AppendMembersFunc string

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
	// (see naming.go). DecodeFunc and NewFunc are reserved for every type,
	// CheckFunc is the type's method of Checker (its name); the emitter
	// declares DecodeFunc and CheckFunc for document roots
	// and definitions (Types.Roots) and NewFunc for structs that carry
	// constants. BuildFunc (a value from a validated node) is set for
	// structs, unions and kind unions; SizeHintVar (the
	// encoder's buffer size hint) for structs; MarkerMethod (the method
	// of the union's interface its variants implement) for unions.
	DecodeFunc, CheckFunc, NewFunc, BuildFunc string
	// RootBuildFunc, for roots, builds the value from a valid document's
	// root and returns it as any: the Registry's Entry.Build, a message's
	// Decoder.Build in the Snapshot, and the builder a struct's DecodeFunc
	// passes to the runtime. A named
	// function rather than a function literal, so that each entry of the
	// Registry is one line.
	RootBuildFunc             string
	SizeHintVar, MarkerMethod string
}

// HasMethods reports whether the package gives t Validate, MarshalJSON
// and UnmarshalJSON, which call the check of t.Schema: structs and kind
// unions, the types with AppendJSON.
func (t *Type) HasMethods() bool { return t.Kind == StructKind || t.Kind == KindUnionKind }

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
	// Sep is what the encoder knows, at this field, of the members
	// written before it (see encoding.go).
	Sep Sep
	// Via is the embedded struct that holds the field (see embed.go):
	// the struct declares Via in its place, and Via's functions build and
	// encode the field. Nil for the struct's own fields.
	Via *Type
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
	Kind string // null, boolean, string, integer, number, object, array
	Go   string // field name
	Type *Expr
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

// Resolved follows aliases (Go aliases: the same type) to what x is.
func (x *Expr) Resolved() *Expr {
	for i := 0; x.Named != nil && x.Named.Kind == AliasKind && i < 100; i++ {
		x = x.Named.Target
	}
	return x
}

// StringLike reports whether values of x are Go strings underneath: a
// string, an enum, or an alias of either.
func (x *Expr) StringLike() bool {
	x = x.Resolved()
	return x.Named == nil && x.Builtin == BString || x.Named != nil && x.Named.Kind == EnumKind
}

// StringList reports whether x is a list of values StringLike: the
// runtime's generic ahpimpl.Strings and AppendStrings build and encode
// every such list, so the package declares no helper for it.
func (x *Expr) StringList() bool { return x.Slice && x.Elem.StringLike() }

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
	// Builders is the layout of the builders' and encoders' code, set by
	// PlanBuilders.
	Builders *Builders
	// Messages are the dispatcher's tables, set by PlanMessages.
	Messages *Messages

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
