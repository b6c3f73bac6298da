package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The synthetic snapshots: a schema root per shape and size, each holding
// one snapshot (synthKey) of common.schema.json and a.schema.json. The
// shapes are the ones AHP schemas are made of, repeated: what grows is
// the count, so that a cost per def or per property that is not constant
// shows as a curve over the sizes.
const synthKey = "syn"

// synthCommon is the wire-version document every AHP snapshot has.
const synthCommon = `{"$defs":{"protocolVersion":{"const":"syn"}}}`

// defsSchema has n $defs, each an object of a few typed properties with
// a required list and a closed or open member set, cycling through five
// shapes: a plain record, a record with a discriminator (const) and an
// enum, a union (oneOf of a discriminated record and a plain one), a
// list of defs, and a record extending another (allOf). Every def refers
// to earlier ones (i/2, i/3), so the references form a tree with shared
// subtrees, as schemas' do, and the root lists them all.
func defsSchema(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	// The root refers to every tenth def, so that each is reachable
	// from a document's root as well as from the Registry.
	first := true
	for i := 0; i < n; i += 10 {
		if !first {
			b.WriteString(",")
		}
		first = false
		fmt.Fprintf(&b, `"p%d":{"$ref":"#/$defs/d%d"}`, i, i)
	}
	b.WriteString(`},"$defs":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"d%d":%s`, i, def(i))
	}
	b.WriteString("}}")
	return b.String()
}

// def is def i of defsSchema.
func def(i int) string {
	a, c := i/2, i/3
	switch {
	case i < 3 || i%5 == 0:
		return fmt.Sprintf(`{"description":"Record %d.","type":"object","properties":{`+
			`"id":{"type":"string","minLength":1,"maxLength":64},`+
			`"count":{"type":"integer","minimum":0},`+
			`"ratio":{"type":"number","exclusiveMaximum":1},`+
			`"flag":{"type":"boolean"},`+
			`"tags":{"type":"array","items":{"type":"string"},"uniqueItems":true},`+
			`"meta":{"type":"object","additionalProperties":{"type":"string"}}},`+
			`"required":["id","count"],"additionalProperties":false}`, i)
	case i%5 == 1:
		return fmt.Sprintf(`{"type":"object","properties":{`+
			`"type":{"const":"k%d"},`+
			`"level":{"enum":["low","mid","high"]},`+
			`"when":{"type":"string","format":"date-time"},`+
			`"parent":{"$ref":"#/$defs/d%d"},`+
			`"note":{"type":["string","null"]}},`+
			`"required":["type","level"]}`, i, a)
	case i%5 == 2:
		return fmt.Sprintf(`{"oneOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]}`, nearest(a, 1), nearest(c, 0))
	case i%5 == 3:
		return fmt.Sprintf(`{"type":"array","items":{"$ref":"#/$defs/d%d"},"minItems":1,"maxItems":100}`, a)
	default:
		return fmt.Sprintf(`{"allOf":[{"$ref":"#/$defs/d%d"}],"type":"object","properties":{`+
			`"extra":{"type":"string","pattern":"^[a-z]+$"},"size":{"type":"integer","maximum":%d}},"required":["extra"]}`,
			nearest(a, 0), 1000+i)
	}
}

// nearest is the largest def number ≤ i of shape r (i%5 == r), or r when
// there is none (d0 is a plain record, d1 a discriminated one).
func nearest(i, r int) int {
	for i >= 0 && i%5 != r {
		i--
	}
	if i < 0 {
		return r // d0 (a record) or d1 (a discriminated record)
	}
	return i
}

// propsSchema is one object of n properties, cycling through typed
// shapes, every third required.
func propsSchema(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	var req []string
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		var s string
		switch i % 6 {
		case 0:
			s = `{"type":"string","minLength":1}`
		case 1:
			s = `{"type":"integer","minimum":0,"maximum":1000}`
		case 2:
			s = `{"enum":["a","b","c"]}`
		case 3:
			s = `{"type":"array","items":{"type":"number"}}`
		case 4:
			s = `{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]}`
		default:
			s = `{"type":["boolean","null"]}`
		}
		fmt.Fprintf(&b, `"prop%d":%s`, i, s)
		if i%3 == 0 {
			req = append(req, fmt.Sprintf(`"prop%d"`, i))
		}
	}
	b.WriteString(`},"required":[` + strings.Join(req, ",") + `]}`)
	return b.String()
}

// writeSynth writes the schema roots defs-N and props-N below dir for
// every size and returns their folders.
func writeSynth(dir string, sizes []int) ([]string, error) {
	var roots []string
	for _, n := range sizes {
		for _, s := range []struct {
			shape  string
			schema func(int) string
		}{{"defs", defsSchema}, {"props", propsSchema}} {
			root := filepath.Join(dir, fmt.Sprintf("%s-%d", s.shape, n))
			snap := filepath.Join(root, synthKey)
			if err := os.MkdirAll(snap, 0o755); err != nil {
				return nil, err
			}
			for name, body := range map[string]string{"common.schema.json": synthCommon, "a.schema.json": s.schema(n)} {
				if err := os.WriteFile(filepath.Join(snap, name), []byte(body), 0o644); err != nil {
					return nil, err
				}
			}
			roots = append(roots, root)
		}
	}
	return roots, nil
}
