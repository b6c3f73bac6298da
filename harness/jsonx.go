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

// without returns object doc without its top-level member name (doc
// itself when it has none).
func without(doc []byte, name string) []byte {
	c, err := ahpimpl.BeginHeld(doc)
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
