package edit

import (
	"errors"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

var errNotObjects = errors.New("merge needs two objects")

// mergeObjects is a shallow merge: prev's members in order, each replaced
// by value's member of the same name when it has one (null included: a
// null is a value, not a deletion), then value's other members in order.
// Both are compact JSON objects. Names are looked up through a map, so a
// merge costs O(len(prev)+len(value)): Doc.Member scans an object's
// members, and a reply's merges of wide objects would cost the product.
func mergeObjects(prev, value []byte) ([]byte, error) {
	pc, err := ahpimpl.BeginHeld(prev)
	if err != nil {
		return nil, err
	}
	defer pc.Release()
	vc, err := ahpimpl.BeginHeld(value)
	if err != nil {
		return nil, err
	}
	defer vc.Release()
	pd, vd := pc.Doc, vc.Doc
	if pd.Kind(pd.Root()) != ahpimpl.KindObject || vd.Kind(vd.Root()) != ahpimpl.KindObject {
		return nil, errNotObjects
	}
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
	// The decoder refuses repeated names, so each name is one member.
	over := make(map[string]ahpimpl.Node, vd.Len(vd.Root()))
	for m := vd.Members(vd.Root()); m.Next(); {
		over[m.Key()] = m.Value()
	}
	had := make(map[string]bool, pd.Len(pd.Root()))
	for m := pd.Members(pd.Root()); m.Next(); {
		had[m.Key()] = true
		if v, ok := over[m.Key()]; ok {
			member(pd.Raw(m.Name()), vd.Raw(v))
			continue
		}
		member(pd.Raw(m.Name()), pd.Raw(m.Value()))
	}
	for m := vd.Members(vd.Root()); m.Next(); {
		if had[m.Key()] {
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
