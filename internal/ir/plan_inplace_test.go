package ir

import (
	"reflect"
	"testing"
)

// TestSubschemasCoversEveryKeyword: subschemas meets the schema in every
// field of Schema that holds one, so that a keyword added to the model
// cannot leave a schema it applies looking unused to planInPlace (which
// would then drop a function that keyword's check calls).
func TestSubschemasCoversEveryKeyword(t *testing.T) {
	// Fields that hold schemas but apply none: the plan and the memo
	// hints name schemas that keywords already apply.
	notKeywords := map[string]bool{"Plan": true, "RunsOnce": true, "MembersRunOnce": true, "UnrepeatedMask": true}
	schemaType := reflect.TypeOf((*Schema)(nil))
	var planted []*Schema
	plant := func() *Schema {
		x := &Schema{Loc: "planted"}
		planted = append(planted, x)
		return x
	}
	var s Schema
	v := reflect.ValueOf(&s).Elem()
	for i := 0; i < v.NumField(); i++ {
		f, ft := v.Field(i), v.Type().Field(i)
		switch {
		case notKeywords[ft.Name] || !holdsSchema(ft.Type, map[reflect.Type]bool{}):
		case ft.Type == schemaType:
			f.Set(reflect.ValueOf(plant()))
		case ft.Type == reflect.TypeOf([]*Schema(nil)):
			f.Set(reflect.ValueOf([]*Schema{plant(), plant()}))
		case ft.Type == reflect.TypeOf([]Prop(nil)):
			f.Set(reflect.ValueOf([]Prop{{Name: "a", Schema: plant()}}))
		case ft.Type == reflect.TypeOf([]PatternProp(nil)):
			f.Set(reflect.ValueOf([]PatternProp{{Schema: plant()}}))
		case ft.Type == reflect.TypeOf((*DynamicRef)(nil)):
			f.Set(reflect.ValueOf(&DynamicRef{Static: plant()}))
		case ft.Type == reflect.TypeOf([]Rule(nil)):
			f.Set(reflect.ValueOf([]Rule{{Sub: plant()}}))
		default:
			t.Errorf("Schema.%s (%s) holds schemas this test does not know how to plant: teach it and subschemas", ft.Name, ft.Type)
		}
	}
	met := map[*Schema]int{}
	subschemas(&s, func(x *Schema, _ applied) { met[x]++ })
	for _, x := range planted {
		if met[x] != 1 {
			t.Errorf("subschemas met a planted schema %d times, want once", met[x])
		}
	}
	if len(met) != len(planted) {
		t.Errorf("subschemas met %d schemas, %d planted", len(met), len(planted))
	}
}

// holdsSchema reports whether values of type t can hold a *Schema.
func holdsSchema(t reflect.Type, seen map[reflect.Type]bool) bool {
	if t == reflect.TypeOf((*Schema)(nil)) {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return holdsSchema(t.Elem(), seen)
	case reflect.Map:
		return holdsSchema(t.Key(), seen) || holdsSchema(t.Elem(), seen)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if holdsSchema(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}
