package gentest

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// TestTypedNilEffect: a (*draft.DenyEffect)(nil) among the effects is an
// error at its place in the document, as a nil Effect is, from MarshalJSON
// and Validate alike; it used to panic in DenyEffect.AppendJSON.
func TestTypedNilEffect(t *testing.T) {
	for _, c := range []struct {
		name   string
		effect draft.Effect
	}{{"nil", nil}, {"typed nil", (*draft.DenyEffect)(nil)}, {"typed nil of another variant", (*draft.ModifyEffect)(nil)}} {
		resp, err := draft.DecodeInterceptResponse([]byte(response))
		if err != nil {
			t.Fatal(err)
		}
		resp.Result.Effects[1] = c.effect
		out, err := callNoPanic(t, c.name+": MarshalJSON", func() ([]byte, error) { return resp.MarshalJSON() })
		wantErrAt(t, c.name+": MarshalJSON", out, err, "/result/effects/1")
		_, err = callNoPanic(t, c.name+": Validate", func() ([]byte, error) { return nil, resp.Validate() })
		wantErrAt(t, c.name+": Validate", nil, err, "/result/effects/1")
	}
}

// TestNilReceiver: Validate of a nil *T reports that null is not a T;
// AppendJSON writes null, and so does encoding/json (MarshalJSON has a
// value receiver, which encoding/json does not call through a nil
// pointer).
func TestNilReceiver(t *testing.T) {
	var resp *draft.InterceptResponse
	if out, err := callNoPanic(t, "json.Marshal", func() ([]byte, error) { return json.Marshal(resp) }); err != nil || string(out) != "null" {
		t.Errorf("json.Marshal of a nil *InterceptResponse: %q, %v; want null", out, err)
	}
	_, err := callNoPanic(t, "Validate", func() ([]byte, error) { return nil, resp.Validate() })
	wantErrAt(t, "Validate", nil, err, "")
	if got, _ := callNoPanic(t, "AppendJSON", func() ([]byte, error) { return resp.AppendJSON(nil), nil }); string(got) != "null" {
		t.Errorf("AppendJSON of a nil *InterceptResponse wrote %q, want null", got)
	}
}

// callNoPanic runs f, failing the test (not the binary) if it panics.
func callNoPanic(t *testing.T, what string, f func() ([]byte, error)) (out []byte, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s panicked: %v", what, r)
			out, err = nil, errors.New("panicked")
		}
	}()
	return f()
}

// wantErrAt: err is an *ahprt.Error of class ErrInvalid whose root is at
// pointer, and nothing was written.
func wantErrAt(t *testing.T, what string, out []byte, err error, pointer string) {
	t.Helper()
	var e *ahprt.Error
	switch {
	case err == nil:
		t.Errorf("%s: no error (wrote %s)", what, out)
	case err.Error() == "panicked":
	case !errors.As(err, &e):
		t.Errorf("%s: %v (%T) is not an *ahprt.Error", what, err, err)
	case !errors.Is(err, ahprt.ErrInvalid):
		t.Errorf("%s: %v is not ErrInvalid", what, err)
	case e.Root().Pointer != pointer:
		t.Errorf("%s: %v at %q, want %q", what, err, e.Root().Pointer, pointer)
	case out != nil:
		t.Errorf("%s: wrote %s beside the error", what, out)
	}
}

// TestTypedNilsEverywhere puts a typed nil of every variant into every
// union slot (a field, a list item, a map value) of every struct of the
// committed snapshot packages, and of the structs and variants those hold
// (up to three levels down), and calls AppendJSON, MarshalJSON and
// Validate on the outer struct. None may panic; AppendJSON must write
// valid JSON (null for the typed nil); MarshalJSON and Validate must agree,
// and MarshalJSON must fail unless a nil interface in the same slot writes
// the same JSON (null, where the schema allows it). MarshalJSON is called
// through encoding/json, as programs call it. A nil *T of every struct and
// kind union must encode as null through AppendJSON and encoding/json, and
// Validate it without a panic. The type lists come from the packages' types.go, so the test
// follows the generator; it runs in a temp module built against this
// checkout, since a program cannot list a package's types by reflection.
func TestTypedNilsEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not building the driver")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	root := testenv.ModuleRoot()
	var lists strings.Builder
	var imports strings.Builder
	for _, pkg := range []string{"draft", "v0_1_0_draft_1"} {
		names := packageTypes(t, filepath.Join(root, "gen", pkg, "types.go"))
		if len(names) < 20 {
			t.Fatalf("%s: only %d types in types.go", pkg, len(names))
		}
		fmt.Fprintf(&imports, "\t%q\n", "github.com/ahpgen/ahpgen/gen/"+pkg)
		fmt.Fprintf(&lists, "\t{%q, []reflect.Type{\n", pkg)
		for _, n := range names {
			fmt.Fprintf(&lists, "\t\treflect.TypeFor[%s.%s](),\n", pkg, n)
		}
		lists.WriteString("\t}},\n")
	}
	src := strings.Replace(typedNilDriver, "\t// IMPORTS\n", imports.String(), 1)
	src = strings.Replace(src, "\t// PACKAGES\n", lists.String(), 1)
	dir := testenv.TempModule(t, "typednil", map[string][]byte{"main.go": []byte(src)})
	out, err := testenv.TryRun(dir, "go", "run", ".")
	if err != nil {
		t.Fatalf("typed nils: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// packageTypes lists the struct and interface types a generated types.go
// declares (not aliases, not enums): the structs, kind unions and unions.
func packageTypes(t *testing.T, file string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			ts := s.(*ast.TypeSpec)
			if ts.Assign.IsValid() {
				continue
			}
			switch ts.Type.(type) {
			case *ast.StructType, *ast.InterfaceType:
				out = append(out, ts.Name.Name)
			}
		}
	}
	return out
}

// typedNilDriver is the program TestTypedNilsEverywhere runs; it prints
// each failure and exits 1 if there is one.
const typedNilDriver = `package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"

	// IMPORTS
)

var packages = []struct {
	name  string
	types []reflect.Type
}{
	// PACKAGES
}

type encoder interface {
	AppendJSON(b []byte) []byte
	MarshalJSON() ([]byte, error)
	Validate() error
}

// step is one move from a value to a value it holds.
type step struct {
	field   int          // a struct's field, when kind is 'f'
	variant reflect.Type // the struct a union holds, when kind is 'v'
	kind    byte         // 'f' field, 'p' pointer, 's' list item, 'm' map value, 'v' union variant
}

// maxDepth bounds how many values down a path goes (fields, items,
// members, variants).
const maxDepth = 3

func main() {
	failures := 0
	fail := func(format string, args ...any) {
		failures++
		if failures <= 50 {
			fmt.Printf(format+"\n", args...)
		}
	}
	for _, p := range packages {
		var structs, unions []reflect.Type
		for _, t := range p.types {
			switch t.Kind() {
			case reflect.Struct:
				structs = append(structs, t)
			case reflect.Interface:
				unions = append(unions, t)
			}
		}
		variants := map[reflect.Type][]reflect.Type{}
		for _, u := range unions {
			for _, s := range structs {
				if reflect.PointerTo(s).Implements(u) {
					variants[u] = append(variants[u], s)
				}
			}
			if len(variants[u]) == 0 {
				fail("%s.%s: no variants", p.name, u.Name())
			}
		}
		receivers, slots, same := 0, 0, 0
		for _, s := range structs {
			receivers++
			nilReceiver(p.name, s, fail)
		}
		for _, s := range structs {
			for _, path := range paths(s, variants, nil, map[reflect.Type]bool{s: true}) {
				u := typeAt(s, path)
				for _, v := range variants[u] {
					slots++
					typed := run(s, path, reflect.Zero(reflect.PointerTo(v)))
					plain := run(s, path, reflect.Zero(u))
					where := p.name + "." + s.Name() + describe(s, path) + " = (*" + v.Name() + ")(nil)"
					switch {
					case typed.panic != "":
						fail("%s: %s", where, typed.panic)
					case plain.panic != "":
						fail("%s (a nil interface): %s", where, plain.panic)
					case !json.Valid([]byte(typed.appended)):
						fail("%s: AppendJSON wrote %q", where, typed.appended)
					case (typed.marshal == "") != (typed.validate == ""):
						fail("%s: MarshalJSON says %q, Validate %q", where, typed.marshal, typed.validate)
					case typed.marshal == "" && typed != plain:
						// Accepted: only where null is what a nil interface writes too.
						fail("%s: wrote %s, a nil interface %+v", where, typed.out, plain)
					case typed.marshal == "":
						same++
					}
				}
			}
		}
		fmt.Printf("%s: %d structs, %d unions, %d nil receivers, %d typed nils in union slots (%d accepted, as a nil interface is)\n",
			p.name, len(structs), len(unions), receivers, slots, same)
	}
	if failures > 0 {
		fmt.Printf("%d failures\n", failures)
		os.Exit(1)
	}
}

// nilReceiver: a nil *S writes null, and MarshalJSON and Validate agree
// on whether null is an S.
func nilReceiver(pkg string, s reflect.Type, fail func(string, ...any)) {
	enc, ok := reflect.Zero(reflect.PointerTo(s)).Interface().(encoder)
	if !ok {
		fail("%s.%s: *%s has no AppendJSON, MarshalJSON and Validate", pkg, s.Name(), s.Name())
		return
	}
	r := call(enc)
	switch {
	case r.panic != "":
		fail("%s: nil *%s: %s", pkg, s.Name(), r.panic)
	case string(r.appended) != "null":
		fail("%s: nil *%s: AppendJSON wrote %q", pkg, s.Name(), r.appended)
	case r.marshal != "" || string(r.out) != "null":
		fail("%s: nil *%s: json.Marshal wrote %q (%s)", pkg, s.Name(), r.out, r.marshal)
	}
}

// result is what the encoders did with one value.
type result struct {
	appended, out     string
	marshal, validate string // errors ("" for none)
	panic             string
}

func call(enc encoder) (r result) {
	defer func() {
		if p := recover(); p != nil {
			r.panic = fmt.Sprint("panic: ", p)
		}
	}()
	r.appended = string(enc.AppendJSON(nil))
	// Through encoding/json, which calls MarshalJSON (a value method)
	// for a pointer that is not nil, and writes null for one that is.
	out, err := json.Marshal(enc)
	r.out = string(out)
	if err != nil {
		r.marshal = err.Error()
	}
	if err := enc.Validate(); err != nil {
		r.validate = err.Error()
	}
	return r
}

// run builds an S with x at the end of path, the rest zero, and calls its encoders.
func run(s reflect.Type, path []step, x reflect.Value) result {
	v := reflect.New(s)
	v.Elem().Set(build(s, path, x))
	return call(v.Interface().(encoder))
}

func build(t reflect.Type, path []step, x reflect.Value) reflect.Value {
	if len(path) == 0 {
		v := reflect.New(t).Elem()
		v.Set(x)
		return v
	}
	st, rest := path[0], path[1:]
	switch st.kind {
	case 'f':
		v := reflect.New(t).Elem()
		v.Field(st.field).Set(build(t.Field(st.field).Type, rest, x))
		return v
	case 'p':
		v := reflect.New(t.Elem())
		v.Elem().Set(build(t.Elem(), rest, x))
		return v
	case 's':
		v := reflect.MakeSlice(t, 1, 1)
		v.Index(0).Set(build(t.Elem(), rest, x))
		return v
	case 'm':
		v := reflect.MakeMap(t)
		v.SetMapIndex(reflect.ValueOf("k").Convert(t.Key()), build(t.Elem(), rest, x))
		return v
	}
	v := reflect.New(st.variant) // 'v': a union holding a variant
	v.Elem().Set(build(st.variant, rest, x))
	u := reflect.New(t).Elem()
	u.Set(v)
	return u
}

// paths lists the ways from a value of type t to a union it holds.
func paths(t reflect.Type, variants map[reflect.Type][]reflect.Type, prefix []step, seen map[reflect.Type]bool) [][]step {
	var out [][]step
	depth := 0
	for _, st := range prefix {
		if st.kind != 'p' {
			depth++
		}
	}
	if depth > maxDepth {
		return nil
	}
	next := func(st step, to reflect.Type) {
		p := append(append([]step(nil), prefix...), st)
		if to.Kind() == reflect.Interface {
			if _, ok := variants[to]; ok {
				out = append(out, p)
			}
		}
		if seen[to] {
			return
		}
		seen[to] = true
		out = append(out, paths(to, variants, p, seen)...)
		delete(seen, to)
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if f := t.Field(i); f.IsExported() && generated(f.Type) {
				next(step{kind: 'f', field: i}, f.Type)
			}
		}
	case reflect.Pointer:
		next(step{kind: 'p'}, t.Elem())
	case reflect.Slice:
		next(step{kind: 's'}, t.Elem())
	case reflect.Map:
		next(step{kind: 'm'}, t.Elem())
	case reflect.Interface:
		for _, v := range variants[t] {
			next(step{kind: 'v', variant: v}, v)
		}
	}
	return out
}

// generated reports whether t holds values of the generated package's own
// types (not the runtime's ahprt.Unknown, Value or Number).
func generated(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	return !strings.HasSuffix(t.PkgPath(), "/ahprt") && t.PkgPath() != ""
}

func typeAt(t reflect.Type, path []step) reflect.Type {
	for _, st := range path {
		switch st.kind {
		case 'f':
			t = t.Field(st.field).Type
		case 'v':
			t = st.variant
		default:
			t = t.Elem()
		}
	}
	return t
}

func describe(t reflect.Type, path []step) string {
	var b strings.Builder
	for _, st := range path {
		switch st.kind {
		case 'f':
			b.WriteString("." + t.Field(st.field).Name)
			t = t.Field(st.field).Type
		case 'v':
			b.WriteString(".(*" + st.variant.Name() + ")")
			t = st.variant
		case 's':
			b.WriteString("[0]")
			t = t.Elem()
		case 'm':
			b.WriteString("[\"k\"]")
			t = t.Elem()
		default:
			t = t.Elem()
		}
	}
	return b.String()
}
`

// TestEncodingJSONValues: encoding/json writes a generated value as its
// AppendJSON does, and validates it as MarshalJSON does, wherever the
// value is: behind a pointer, passed by value (not addressable), in a
// map, a field of a struct passed by value. With MarshalJSON on the
// pointer only, the last three came out as Go structs (the Go field
// names, no type, jsonrpc or protocolVersion) without an error.
func TestEncodingJSONValues(t *testing.T) {
	deny := *draft.NewDenyEffect("no")
	want := string(deny.AppendJSON(nil))
	session := draft.Session{ID: "s1"}
	for name, v := range map[string]any{
		"pointer":        &deny,
		"value":          deny,
		"map value":      map[string]draft.DenyEffect{"d": deny},
		"field by value": struct{ D draft.DenyEffect }{deny},
		"slice":          []draft.DenyEffect{deny},
	} {
		out, err := json.Marshal(v)
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("%s: %s, %v; want it to hold %s", name, out, err, want)
		}
	}
	if out, err := json.Marshal(struct{ S draft.Session }{session}); err != nil || string(out) != `{"S":`+string(session.AppendJSON(nil))+`}` {
		t.Errorf("a session in a struct by value: %s, %v", out, err)
	}
	// A value the schema rejects fails by value as by pointer.
	if _, err := json.Marshal(draft.DenyEffect{}); err == nil {
		t.Error("json.Marshal wrote a deny without its reason")
	}
}

// TestUnmarshalNull: encoding/json hands null to the UnmarshalJSON of a
// field that is no pointer; by its convention that is a no-op where the
// type has no null (the value stays as it was), while a type whose
// schema accepts null decodes it. Anything else the schema rejects is
// still an error.
func TestUnmarshalNull(t *testing.T) {
	var v struct {
		S  draft.Session
		ID draft.JSONRPCResponseID
	}
	v.S.ID = "kept"
	if err := json.Unmarshal([]byte(`{"S": null, "ID": null}`), &v); err != nil {
		t.Fatalf("null fields: %v", err)
	}
	if v.S.ID != "kept" || !v.ID.Null {
		t.Errorf("after null: session %+v, id %+v; want the session kept and the id null", v.S, v.ID)
	}
	if err := json.Unmarshal([]byte(`{"S": {"id": ""}}`), &v); err == nil {
		t.Error("a session with an empty id was accepted")
	}
	var s draft.Session
	if err := s.UnmarshalJSON([]byte(" null\n")); err != nil {
		t.Errorf("UnmarshalJSON(null): %v", err)
	}
	if err := s.UnmarshalJSON([]byte("nul")); err == nil {
		t.Error("UnmarshalJSON of malformed JSON succeeded")
	}
}
