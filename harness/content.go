package harness

import (
	"bytes"
	"maps"
	"sort"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/edit"
	"github.com/ahpgen/ahpgen/offer"
)

// Disposition is how much of a content part a subscription receives: its
// body, its metadata only, or a placeholder (content-upload.md).
type Disposition string

// The dispositions, from most to least disclosed.
const (
	ContentBody     Disposition = "body"
	ContentMetadata Disposition = "metadata"
	ContentOmit     Disposition = "omit"
)

// rank orders the dispositions by what they withhold.
func (d Disposition) rank() int {
	switch d {
	case ContentBody:
		return 0
	case ContentMetadata:
		return 1
	}
	return 2 // omit, and anything unknown: withhold the most
}

// ContentSelection is a subscription's content policy: by part category,
// the disposition of the parts it receives; Default for the categories
// it does not name (AHP-CONTENT-002).
type ContentSelection struct {
	Default    Disposition
	Categories map[string]Disposition
}

// For returns the disposition of category.
func (c *ContentSelection) For(category string) Disposition {
	if c == nil {
		return ContentBody // no selection: every part whole
	}
	if d, ok := c.Categories[category]; ok {
		return d
	}
	return c.Default
}

// bodyOnly reports whether c lets every part through whole.
func (c *ContentSelection) bodyOnly() bool {
	if c == nil {
		return true
	}
	if c.Default != ContentBody {
		return false
	}
	for _, d := range c.Categories {
		if d != ContentBody {
			return false
		}
	}
	return true
}

// PartCategory is the content category of a part: its category member
// when it has one (reasoning, say), else by kind and media type: "text"
// for text parts and text/* media, "images", "audio" and "video" by
// media type, and "files" for other attachments.
func PartCategory(category, kind, mediaType string) string {
	if category != "" {
		return category
	}
	mt := strings.ToLower(mediaType)
	switch {
	case kind == "text" || strings.HasPrefix(mt, "text/"):
		return "text"
	case strings.HasPrefix(mt, "image/"):
		return "images"
	case strings.HasPrefix(mt, "audio/"):
		return "audio"
	case strings.HasPrefix(mt, "video/"):
		return "video"
	}
	return "files"
}

// locPart is the schema of every content part, in snapshots that have
// them.
const locPart = "content-item.schema.json#"

// contentView returns event as a subscription with selection sel sees its
// content parts: each part of a category sel does not give whole becomes
// its metadata or omitted form (no text, body or gap; an omitted part
// also without size and sha256), keeping its id, kind, media type,
// category and synthesized marker. A part the host already withholds
// more stays as it is. The parts are found where the snapshot says
// events hold them (Snapshot.Parts) and confirmed by its part check.
// withheld reports whether it replaced any (restore finds which, by
// position, in the targets a reply changes).
func (h *Harness) contentView(sel *ContentSelection, upload bool, typ string, event ahprt.Value) (view ahprt.Value, withheld bool) {
	paths := h.snap.Parts(typ)
	if sel.bodyOnly() && !upload || len(paths) == 0 || h.checks.part == nil {
		return event, false
	}
	d, err := ahpimpl.Reparse(event)
	if err != nil {
		return event, false // the event was checked: unreachable
	}
	type edit struct {
		start, end int
		repl       []byte
	}
	var edits []edit
	seen := map[ahpimpl.Node]bool{}
	visit := func(n ahpimpl.Node) {
		if seen[n] || d.Kind(n) != ahpimpl.KindObject {
			return
		}
		seen[n] = true
		raw := d.RawValue(n)
		if h.checks.part(raw) != nil {
			return
		}
		repl := partView(d, n, sel, upload)
		if repl == nil {
			return
		}
		start, end := d.Span(n)
		edits = append(edits, edit{start, end, repl})
	}
	for _, p := range paths {
		walkPath(d, d.Root(), p, visit)
	}
	if len(edits) == 0 {
		return event, false
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	out := make([]byte, 0, len(event))
	at := 0
	for _, e := range edits {
		if e.start < at {
			// Inside a part already replaced: parts hold no parts, so
			// only a Deep path's over-reach could get here, and the
			// outer view stands.
			continue
		}
		out = append(out, event[at:e.start]...)
		out = append(out, e.repl...)
		at = e.end
	}
	return append(out, event[at:]...), true
}

// walkPath calls visit with each node of d that path p reaches from n.
func walkPath(d *ahpimpl.Doc, n ahpimpl.Node, p ahpimpl.PartPath, visit func(ahpimpl.Node)) {
	if len(p) == 0 {
		visit(n)
		return
	}
	st := p[0]
	switch {
	case st.Deep:
		var all func(x ahpimpl.Node)
		all = func(x ahpimpl.Node) {
			visit(x)
			switch d.Kind(x) {
			case ahpimpl.KindObject:
				for m := d.Members(x); m.Next(); {
					all(m.Value())
				}
			case ahpimpl.KindArray:
				for it := d.Items(x); it.Next(); {
					all(it.Item())
				}
			}
		}
		all(n)
	case st.Each:
		switch d.Kind(n) {
		case ahpimpl.KindObject:
			for m := d.Members(n); m.Next(); {
				walkPath(d, m.Value(), p[1:], visit)
			}
		case ahpimpl.KindArray:
			for it := d.Items(n); it.Next(); {
				walkPath(d, it.Item(), p[1:], visit)
			}
		}
	default:
		if d.Kind(n) != ahpimpl.KindObject {
			return
		}
		if v, ok := d.Member(n, st.Member); ok {
			walkPath(d, v, p[1:], visit)
		}
	}
}

// partView is part n (a valid content part) as selection sel gives it,
// nil when sel gives it as it is.
func partView(d *ahpimpl.Doc, n ahpimpl.Node, sel *ContentSelection, upload bool) []byte {
	text := func(name string) string { return memberText(d, n, name) }
	have := Disposition(text("selection"))
	want := sel.For(PartCategory(text("category"), text("kind"), text("mediaType")))
	if _, body := d.Member(n, "body"); upload && body && want == ContentBody {
		return uploadGap(d, n)
	}
	if want.rank() <= have.rank() {
		return nil // the host withholds as much already, or more
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for m := d.Members(n); m.Next(); {
		switch m.Key() {
		case "text", "body", "gap":
			continue
		case "size", "sha256":
			if want == ContentOmit {
				continue
			}
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.Write(ahpimpl.AppendString(nil, m.Key()))
		b.WriteByte(':')
		if m.Key() == "selection" {
			b.Write(ahpimpl.AppendString(nil, string(want)))
		} else {
			b.Write(d.RawValue(m.Value()))
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

// uploadGap is attachment part n, selected as body for a receiver that
// takes attachments by upload, as a gap: this harness does not upload,
// and may not hand the receiver a reference it did not allocate
// (content-upload.md), so the body is missing, and says why.
func uploadGap(d *ahpimpl.Doc, n ahpimpl.Node) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for m := d.Members(n); m.Next(); {
		if m.Key() == "body" || m.Key() == "gap" {
			continue
		}
		b.Write(ahpimpl.AppendString(nil, m.Key()))
		b.WriteByte(':')
		b.Write(d.RawValue(m.Value()))
		b.WriteByte(',')
	}
	b.WriteString(`"gap":{"reason":"the harness does not upload attachments: no reference this receiver allocated"}}`)
	return b.Bytes()
}

// viewState is the chain's state with the targets the event holds read
// from view, the event as one backend received it.
func viewState(st *chain, view ahprt.Value) *State {
	s := st.state
	s.Targets = maps.Clone(st.state.Targets)
	d, err := ahpimpl.Reparse(view)
	if err != nil {
		return &st.state
	}
	for t, sl := range edit.Slots(s.Event) {
		if n, ok := edit.Find(d, d.Root(), sl.Path); ok {
			s.Targets[t] = d.RawValue(n)
		}
	}
	if st.answer {
		// The answer as the backend saw it: none when its selection
		// withheld the result's text, so that it cannot edit an answer
		// it never read.
		delete(s.Targets, offer.TargetContent)
		if v, _, ok := edit.Answer(d, d.Root()); ok {
			s.Targets[offer.TargetContent] = v
		}
	}
	return &s
}

// restore maps targets staged against a backend's view back onto the
// event: a target it left as it saw it is the event's own, and so is one
// whose view withheld nothing (an opaque input, an answer) as it is staged;
// in a list target it changed, each part the view of that target withheld
// that the backend kept as it saw it (the same id, equal JSON), in a
// message with the id and role of the one that held it, is the event's
// part again, at most once per part held. Parts are matched by position in
// the target's view, never by id alone: a withheld part's content is put
// back only where the list holds parts (never inside another member, and
// never in another target), and two parts that share an id and a view
// (the host's ids need not be unique; an omitted part has no size or hash)
// each get their own content back. The editor made sure the backend kept
// them so or left them out. A target the view did not hold (an answer
// whose text it withheld) the backend could not modify: it stays the
// event's own, for the backends after it.
func restore(staged, seen, own map[offer.Target]ahprt.Value) map[offer.Target]ahprt.Value {
	out := make(map[offer.Target]ahprt.Value, len(own))
	for t, v := range own {
		if _, ok := staged[t]; !ok {
			out[t] = v
		}
	}
	for t, v := range staged {
		switch {
		case string(v) == string(seen[t]):
			out[t] = own[t]
		case string(seen[t]) == string(own[t]):
			out[t] = v // nothing withheld in this target
		default:
			out[t] = restoreParts(v, withheldIn(seen[t], own[t]))
		}
	}
	return out
}

// slot is a part a target's view withheld: where it was (its id, and
// the id and role of the message that held it, "" in a text part list),
// the part as the view holds it (node view of vd) and as the event does.
type slot struct {
	at   place
	vd   *ahpimpl.Doc
	view ahpimpl.Node
	orig ahprt.Value
}

// place is a part's id and the message that holds it.
type place struct{ id, msgID, role string }

// placeOf is the place of part p, held by message msg when inMessage.
func placeOf(d *ahpimpl.Doc, msg ahpimpl.Node, inMessage bool, p ahpimpl.Node) place {
	at := place{id: memberText(d, p, "id")}
	if inMessage {
		at.msgID, at.role = memberText(d, msg, "id"), memberText(d, msg, "role")
	}
	return at
}

// listParts calls f with each content part of list (a message list or a
// text part list, the root of d) and, in a message list, the message that
// holds it. An item with a parts member is a message.
func listParts(d *ahpimpl.Doc, f func(msg ahpimpl.Node, inMessage bool, p ahpimpl.Node)) {
	if d.Kind(d.Root()) != ahpimpl.KindArray {
		return
	}
	for it := d.Items(d.Root()); it.Next(); {
		x := it.Item()
		if ps, ok := d.Member(x, "parts"); ok && d.Kind(ps) == ahpimpl.KindArray {
			for p := d.Items(ps); p.Next(); {
				f(x, true, p.Item())
			}
			continue
		}
		f(0, false, x)
	}
}

// withheldIn pairs, by position, the parts of a target as a view holds it
// (seen) with the event's own (own): the parts that differ are the ones
// the view withheld. The view replaced parts only, so both lists have the
// same messages and parts in the same order.
func withheldIn(seen, own ahprt.Value) []slot {
	sd, err := ahpimpl.Reparse(seen)
	if err != nil {
		return nil
	}
	od, err := ahpimpl.Reparse(own)
	if err != nil {
		return nil
	}
	type at struct {
		msg       ahpimpl.Node
		inMessage bool
		p         ahpimpl.Node
	}
	var vs, os []at
	listParts(sd, func(m ahpimpl.Node, in bool, p ahpimpl.Node) { vs = append(vs, at{m, in, p}) })
	listParts(od, func(m ahpimpl.Node, in bool, p ahpimpl.Node) { os = append(os, at{m, in, p}) })
	if len(vs) != len(os) {
		return nil // unreachable: a view replaces parts only
	}
	var out []slot
	for i, v := range vs {
		if ahpimpl.EqualNodes(sd, v.p, od, os[i].p) {
			continue
		}
		out = append(out, slot{at: placeOf(sd, v.msg, v.inMessage, v.p), vd: sd, view: v.p, orig: od.RawValue(os[i].p)})
	}
	return out
}

// memberText is member name of object n when it is a string, else "".
func memberText(d *ahpimpl.Doc, n ahpimpl.Node, name string) string {
	v, ok := d.Member(n, name)
	if !ok || d.Kind(v) != ahpimpl.KindString {
		return ""
	}
	return d.Text(v)
}

// restoreParts replaces, in value (a message list or a text part list),
// each part equal to a withheld part's view, in a message with the id and
// role of the one that held it, by the part itself, each withheld part
// once, in order. Slots are grouped by place and view (a hash, then one
// comparison), each group used in order, so that a list of many parts
// that share a place costs no more than one pass.
func restoreParts(value ahprt.Value, withheld []slot) ahprt.Value {
	if len(withheld) == 0 {
		return value
	}
	d, err := ahpimpl.Reparse(value)
	if err != nil {
		return value
	}
	type key struct {
		at   place
		hash uint64
	}
	groups := map[key][]*group{}
	for i := range withheld {
		w := &withheld[i]
		k := key{w.at, w.vd.Hash(w.view)}
		g := groupOf(groups[k], w.vd, w.view)
		if g == nil {
			g = &group{}
			groups[k] = append(groups[k], g)
		}
		g.slots = append(g.slots, w)
	}
	var out []byte
	from := 0
	listParts(d, func(m ahpimpl.Node, inMessage bool, p ahpimpl.Node) {
		g := groupOf(groups[key{placeOf(d, m, inMessage, p), d.Hash(p)}], d, p)
		if g == nil || g.next == len(g.slots) {
			return
		}
		w := g.slots[g.next]
		g.next++
		start, end := d.Span(p)
		out = append(out, value[from:start]...)
		out = append(out, w.orig...)
		from = end
	})
	if out == nil {
		return value
	}
	return append(out, value[from:]...)
}

// group is the withheld parts of one place whose views are equal, in list
// order, and the first a staged value has not used yet.
type group struct {
	slots []*slot
	next  int
}

// groupOf is the group among gs whose view equals node n of d, or nil.
func groupOf(gs []*group, d *ahpimpl.Doc, n ahpimpl.Node) *group {
	for _, g := range gs {
		if w := g.slots[0]; ahpimpl.EqualNodes(d, n, w.vd, w.view) {
			return g
		}
	}
	return nil
}
