// Package schemafuzz makes random JSON Schema 2020-12 documents and
// random instances for them, for differential fuzzing: each schema goes
// through the generator that ships (generate.Snapshot), and the generated
// check's verdict on each instance is compared with santhosh-tekuri/
// jsonschema's (see the test of this package, and internal/jsts, which
// compiles and runs them).
//
// Schemas draw keywords from every vocabulary ahpgen supports and favour
// their combinations: applicators beside additionalProperties and the
// unevaluated keywords, conditions, $ref and $dynamicRef, contains with
// bounds, numbers at the int64 and float edges, strings counted in code
// points, and member and definition names that are Go naming hazards.
// Instances are drawn from the same small pools of names and values, built
// by following the schema, and mutated from instances santhosh accepts,
// so that both verdicts occur often.
package schemafuzz

import (
	"encoding/json"
	"strconv"
	"strings"
)

// A value is a JSON value: nil (null), bool, Num, string, []any or Obj.

// Num is a JSON number in its exact spelling.
type Num string

// Obj is a JSON object; its members keep their order.
type Obj []Member

// Member is one member of an Obj.
type Member struct {
	Name  string
	Value any
}

// Get returns the value of member name.
func (o Obj) Get(name string) (any, bool) {
	for _, m := range o {
		if m.Name == name {
			return m.Value, true
		}
	}
	return nil, false
}

// has reports whether o has member name.
func (o Obj) has(name string) bool {
	_, ok := o.Get(name)
	return ok
}

// Encode writes v as compact JSON text.
func Encode(v any) []byte {
	var b strings.Builder
	encode(&b, v)
	return []byte(b.String())
}

func encode(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case Num:
		b.WriteString(string(v))
	case string:
		q, _ := json.Marshal(v) // a Go string always marshals
		b.Write(q)
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			encode(b, x)
		}
		b.WriteByte(']')
	case Obj:
		b.WriteByte('{')
		for i, m := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			encode(b, m.Name)
			b.WriteByte(':')
			encode(b, m.Value)
		}
		b.WriteByte('}')
	default:
		panic("schemafuzz: not a JSON value") // only this package builds values
	}
}

// clone copies v deeply, so that a mutation leaves the original alone.
func clone(v any) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = clone(x)
		}
		return out
	case Obj:
		out := make(Obj, len(v))
		for i, m := range v {
			out[i] = Member{m.Name, clone(m.Value)}
		}
		return out
	}
	return v
}
