package ir

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ahpgen/ahpgen/internal/load/model"
)

// Every Go identifier the generator emits is chosen in this package, by
// the rules in this file. A generated package has one scope (names, on
// Program), which starts with what the emitter declares itself and the
// imports (packageDecls). Then, in this order, Build takes the check
// functions, pattern variables and dynamic-anchor lookups; BuildTypes the
// types with their API functions, the enum constants, each type's
// unexported functions and each list or map expression's helpers
// (nameDecls); MarkMemo the memo bodies; PlanDecls the variables and
// helpers the checks share (reasons, constants, presence helpers). A
// clash gets a numeric suffix, in that deterministic order. Each struct
// has a scope of its own for its fields, which starts with the methods
// and fields every struct has (structMembers). The emitter reads every
// name from the model.

// initialisms are written in capitals inside Go names (Go's own style).
var initialisms = map[string]string{
	"id": "ID", "ids": "IDs", "json": "JSON", "rpc": "RPC", "url": "URL", "uri": "URI",
	"http": "HTTP", "https": "HTTPS", "mcp": "MCP", "api": "API", "ip": "IP", "tls": "TLS",
	"mtls": "MTLS", "ms": "Ms", "sha256": "SHA256", "dns": "DNS", "jsonl": "JSONL",
	"utf8": "UTF8", "oauth": "OAuth", "cwd": "Cwd", "ui": "UI", "io": "IO",
	// The rest of Go's common initialisms (go/lint's list).
	"acl": "ACL", "ascii": "ASCII", "cpu": "CPU", "css": "CSS", "eof": "EOF", "guid": "GUID",
	"html": "HTML", "qps": "QPS", "ram": "RAM", "sla": "SLA", "smtp": "SMTP", "sql": "SQL",
	"ssh": "SSH", "tcp": "TCP", "ttl": "TTL", "udp": "UDP", "uid": "UID", "uuid": "UUID",
	"vm": "VM", "xml": "XML", "xmpp": "XMPP", "xsrf": "XSRF", "xss": "XSS",
	"sse": "SSE", // server-sent events, an MCP transport
}

// words splits a schema name ("config.change.before", "jsonRpcId",
// "tool-before.schema") into lower-case words.
func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r):
			// A capital starts a word, except inside a run of capitals
			// ("HTTPServer": HTTP, Server).
			if len(cur) > 0 && (!unicode.IsUpper(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
				flush()
			}
			cur = append(cur, r)
		case unicode.IsDigit(r):
			if len(cur) > 0 && !unicode.IsDigit(rs[i-1]) && !isSHA(cur) {
				flush()
			}
			cur = append(cur, r)
		default:
			if len(cur) > 0 && unicode.IsDigit(rs[i-1]) && !isSHA(cur) {
				flush()
			}
			cur = append(cur, r)
		}
	}
	flush()
	return out
}

func isSHA(cur []rune) bool { return strings.EqualFold(string(cur), "sha") }

// exported turns a schema name into an exported Go identifier.
func exported(s string) string {
	var b strings.Builder
	for _, w := range words(s) {
		if up, ok := initialisms[w]; ok {
			b.WriteString(up)
			continue
		}
		r, n := utf8.DecodeRuneInString(w)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(w[n:])
	}
	name := b.String()
	if name == "" {
		return "X"
	}
	// Only an upper-case first letter exports a Go name: a name starting
	// with a digit, or with a letter that has no upper case ("日本"),
	// would leave the field or type out of reach of the package's users.
	if r, _ := utf8.DecodeRuneInString(name); !unicode.IsUpper(r) {
		name = "X" + name
	}
	return name
}

// docStem is a document's name without folder and ".schema.json".
func docStem(file string) string {
	if i := strings.LastIndexByte(file, '/'); i >= 0 {
		file = file[i+1:]
	}
	file = strings.TrimSuffix(file, ".json")
	file = strings.TrimSuffix(file, ".schema")
	return file
}

// checkFuncName names the check function of a schema location: "v", the
// document, then the pointer's tokens (keywords shortened), so names stay
// stable when unrelated parts of a snapshot change.
func checkFuncName(file, ptr string) string {
	var b strings.Builder
	b.WriteString("v")
	b.WriteString(exported(docStem(file)))
	if ptr == "" {
		return b.String()
	}
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i := 0; i < len(toks); i++ {
		t := model.UnescapeToken(toks[i])
		switch t {
		case "properties", "$defs", "patternProperties", "dependentSchemas":
			if i+1 < len(toks) {
				i++
				b.WriteString("_")
				b.WriteString(identPart(model.UnescapeToken(toks[i])))
				continue
			}
		}
		b.WriteString("_")
		b.WriteString(identPart(strings.TrimPrefix(t, "$")))
	}
	return b.String()
}

// identPart keeps letters and digits of s, joining words in camel case.
func identPart(s string) string {
	ws := words(s)
	if len(ws) == 0 {
		return "x"
	}
	var b strings.Builder
	for i, w := range ws {
		if i == 0 {
			b.WriteString(w)
			continue
		}
		r, n := utf8.DecodeRuneInString(w)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(w[n:])
	}
	return b.String()
}

// goKeywords cannot be identifiers.
var goKeywords = map[string]bool{
	"break": true, "case": true, "chan": true, "const": true, "continue": true, "default": true,
	"defer": true, "else": true, "fallthrough": true, "for": true, "func": true, "go": true,
	"goto": true, "if": true, "import": true, "interface": true, "map": true, "package": true,
	"range": true, "return": true, "select": true, "struct": true, "switch": true, "type": true, "var": true,
}

// names hands out unique identifiers within one scope (a package, or one
// struct's fields and methods): a clash gets a numeric suffix, in the
// deterministic order names are requested.
type names struct{ used map[string]bool }

func newNames(reserved ...string) *names {
	n := &names{used: map[string]bool{}}
	for _, r := range reserved {
		n.used[r] = true
	}
	return n
}

func (n *names) take(want string) string {
	if goKeywords[want] {
		want += "_"
	}
	name := want
	for i := 2; n.used[name]; i++ {
		name = want + itoa(i)
	}
	n.used[name] = true
	return name
}

// apiFuncs names the exported functions the emitter may declare for a
// type T: DecodeT and NewT. (T's validator is the method Checker.T: its
// name lives in Checker's scope, where type names are already unique.)
func apiFuncs(name string) [2]string {
	return [2]string{"Decode" + name, "New" + name}
}

// takeType names a type: the name and its API functions (apiFuncs) must
// all be free, so a schema name like "checkUser" cannot collide with the
// function CheckUser of type User. All are taken for every type, whether
// or not the emitter declares them, so that a type's API names do not
// depend on which other types happen to have constructors.
func (n *names) takeType(want string) string {
	if goKeywords[want] {
		want += "_"
	}
	free := func(name string) bool {
		if n.used[name] {
			return false
		}
		for _, f := range apiFuncs(name) {
			if n.used[f] {
				return false
			}
		}
		return true
	}
	name := want
	for i := 2; !free(name); i++ {
		name = want + itoa(i)
	}
	n.used[name] = true
	for _, f := range apiFuncs(name) {
		n.used[f] = true
	}
	return name
}

// The package-level names the emitter declares beside the model's: the
// doc template's constants (SnapshotKey, WireVersion), the entry-point
// table and the dispatcher's description of the package.
const (
	SnapshotKeyConst = "SnapshotKey"
	WireVersionConst = "WireVersion"
	RegistryVar      = "Registry"
	SnapshotVar      = "Snapshot"
	// RegistryType hands the Snapshot the Registry through a method (see
	// ahpimpl.Snapshot.Registry).
	RegistryType = "registry"
	// CheckerType has one method per type, named like the type, that
	// validates without building a value; CheckerVar is its one value.
	// As methods they sit under one type in the package's index instead
	// of burying the types under a function each.
	CheckerType = "Checker"
	CheckerVar  = "Check"
)

// packageDecls starts every package scope: the emitter's own
// declarations, and the names of the packages generated files import
// (a declaration named like one would hide it). "Null" stays reserved
// so that no type reads like the runtime's ahprt.Null.
var packageDecls = append([]string{
	SnapshotKeyConst, WireVersionConst, RegistryVar, RegistryType, SnapshotVar, CheckerType, CheckerVar, "Null",
	"ahprt", "ahpimpl", "format", "rules", "regexp", "reflect",
}, vetMethods...)

// vetMethods are the method names go vet's stdmethods check holds to a
// standard signature (json.Marshaler's, io.ByteReader's, …) on any
// receiver, and would report on a Checker method, which every type has
// under its own name with the signature (data []byte, opts
// ...ahprt.Option) error. No type takes one, so the package stays vet
// clean. (Format, Scan, Seek, ReadFrom and WriteTo are checked only with
// their first parameter's standard type, and Is, As and Unwrap only on
// an error type: a Checker method never is one of those.)
var vetMethods = []string{
	"GobDecode", "GobEncode", "MarshalJSON", "MarshalXML", "ReadByte", "ReadRune",
	"UnmarshalJSON", "UnmarshalXML", "UnreadByte", "UnreadRune", "WriteByte",
}

// The methods of every generated struct and kind union, and the fields
// the generator adds to structs: the emitter declares them under these
// names, and a member's field never takes one (structMembers starts each
// struct's field scope).
const (
	MethodAppendJSON    = "AppendJSON"
	MethodValidate      = "Validate"
	MethodMarshalJSON   = "MarshalJSON"
	MethodUnmarshalJSON = "UnmarshalJSON"
	FieldUnknown        = "Unknown"
	FieldExtra          = "Extra"
)

var structMembers = []string{
	FieldUnknown, FieldExtra, MethodValidate, MethodMarshalJSON, MethodUnmarshalJSON, MethodAppendJSON,
}

// The unexported declarations of a type T: its builder, its builder from
// a document's root, its encoder's size hint and, for a union, the marker
// method its variants implement. Each prefix followed by an exported name
// is a spelling no other rule makes, and the package scope settles the
// rest.
func buildFuncName(name string) string    { return "b" + name }
func rootBuildName(name string) string    { return "root" + name }
func sizeHintName(name string) string     { return "size" + name }
func markerMethodName(name string) string { return "is" + name }

// exprStem spells a list or map expression in its helpers' names
// ("build" or "append" and the stem): "List" or "Map" per level, then the
// element type's name, or a builtin as "_name", so that []Value (a schema
// type called Value) and []ahprt.Value get different stems. Two
// expressions can still share a stem ([]ListFoo and [][]Foo are both
// "ListListFoo"); the package scope then suffixes the later one.
func exprStem(x *Expr) string {
	switch {
	case x.Named != nil:
		return x.Named.Name
	case x.Slice:
		return "List" + exprStem(x.Elem)
	case x.Map:
		return "Map" + exprStem(x.Elem)
	}
	return "_" + strings.ToLower(x.Builtin)
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// PackageName is the Go package (and folder) name of a snapshot key: the
// key itself when it is already a lower-case Go identifier ("draft");
// otherwise "v" followed by the key with dashes dropped between digits
// and every other character that cannot appear in an identifier turned
// into "_": "2026-12-15" → "v20261215", "0.1.0-draft.1" → "v0_1_0_draft_1".
func PackageName(key string) string {
	plain := key != "" && !goKeywords[key]
	for i, r := range key {
		if !(r >= 'a' && r <= 'z' || i > 0 && (r >= '0' && r <= '9' || r == '_')) {
			plain = false
		}
	}
	if plain {
		return key
	}
	var b strings.Builder
	b.WriteString("v")
	rs := []rune(key)
	for i, r := range rs {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			b.WriteRune(unicode.ToLower(r))
		case r == '-' && i > 0 && i+1 < len(rs) && unicode.IsDigit(rs[i-1]) && unicode.IsDigit(rs[i+1]):
			// a date's dashes carry nothing
		default:
			b.WriteRune('_')
		}
	}
	return b.String()
}
