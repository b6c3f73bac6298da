package harness

import (
	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// JSON edits on compact documents: values read from replies are compacted
// before they enter an event (a stdio message is one line), and edits
// splice bytes rather than decode and re-encode what they do not touch.

// compact returns a compact copy of one JSON value.
func compact(raw []byte) (ahprt.Value, error) {
	var v ahprt.Value
	if err := v.UnmarshalJSON(raw); err != nil {
		return nil, err
	}
	return v, nil
}

// splice returns data with [start, end) replaced by repl, in a new slice.
func splice(data []byte, start, end int, repl []byte) []byte {
	out := make([]byte, 0, len(data)-(end-start)+len(repl))
	out = append(out, data[:start]...)
	out = append(out, repl...)
	return append(out, data[end:]...)
}

// find walks path (member names) from the root of d.
func find(d *ahpimpl.Doc, path []string) (ahpimpl.Node, bool) {
	n := d.Root()
	for _, name := range path {
		v, ok := d.Member(n, name)
		if !ok {
			return 0, false
		}
		n = v
	}
	return n, true
}

// without returns object doc without its top-level member name (doc
// itself when it has none).
func without(doc []byte, name string) []byte {
	c, err := ahpimpl.Begin(doc, nil)
	if err != nil {
		return doc
	}
	defer c.Release()
	d := c.Doc
	var prevEnd = -1 // end of the previous member's value
	for m := d.Members(d.Root()); m.Next(); {
		if m.Key() != name {
			_, prevEnd = d.Span(m.Value())
			continue
		}
		start, _ := d.Span(m.Name())
		_, end := d.Span(m.Value())
		if prevEnd >= 0 {
			start = prevEnd // drop the comma before it
		} else if next := skipSpace(doc, end); next < len(doc) && doc[next] == ',' {
			end = next + 1 // the first member: drop the comma after it
		}
		return splice(doc, start, end, nil)
	}
	return doc
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// mergeObjects is a shallow merge: prev's members in order, each replaced
// by value's member of the same name when it has one (null included: a
// null is a value, not a deletion), then value's other members in order.
// Both are compact JSON objects.
func mergeObjects(prev, value []byte) ([]byte, error) {
	pc, err := ahpimpl.Begin(prev, nil)
	if err != nil {
		return nil, err
	}
	defer pc.Release()
	vc, err := ahpimpl.Begin(value, nil)
	if err != nil {
		return nil, err
	}
	defer vc.Release()
	pd, vd := pc.Doc, vc.Doc
	out := make([]byte, 0, len(prev)+len(value))
	out = append(out, '{')
	first := true
	member := func(name, v []byte) {
		if !first {
			out = append(out, ',')
		}
		first = false
		out = append(out, name...)
		out = append(out, ':')
		out = append(out, v...)
	}
	for m := pd.Members(pd.Root()); m.Next(); {
		if v, ok := vd.Member(vd.Root(), m.Key()); ok {
			member(pd.Raw(m.Name()), vd.Raw(v))
			continue
		}
		member(pd.Raw(m.Name()), pd.Raw(m.Value()))
	}
	for m := vd.Members(vd.Root()); m.Next(); {
		if _, ok := pd.Member(pd.Root(), m.Key()); ok {
			continue
		}
		member(vd.Raw(m.Name()), vd.Raw(m.Value()))
	}
	return append(out, '}'), nil
}

// appendLists returns the items of prev then those of value, in order,
// duplicates kept. Both are compact JSON arrays.
func appendLists(prev, value []byte) []byte {
	switch {
	case string(prev) == "[]":
		return append([]byte(nil), value...)
	case string(value) == "[]":
		return append([]byte(nil), prev...)
	}
	out := make([]byte, 0, len(prev)+len(value))
	out = append(out, prev[:len(prev)-1]...)
	out = append(out, ',')
	return append(out, value[1:]...)
}
