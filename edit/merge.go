package edit

import "github.com/ahpgen/ahpgen/ahprt/ahpimpl"

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
