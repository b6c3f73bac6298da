// Package edit holds AHP's contextual rules for modify and return
// effects: whether an effect fits the event it answers, as the event holds
// it now (AHP-EDIT-001). The event has the target, its capability bounds
// allow the operation, values have the target's shape (a canonical message
// list, text parts, an MCP ElicitResult's content), and a list keeps what
// the backend could not see or may not change. It also says where events
// hold their modify targets (Slots). The harness kit judges every reply
// with it before applying anything; the backend kit checks its replies
// with it before sending them.
package edit

import (
	"maps"
	"strconv"
	"sync"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/quote"
	"github.com/ahpgen/ahpgen/offer"
)

// State is what modify effects edit in one event, as the host holds it:
// the current value of each modify target the event has, and for an
// elicitation the mode and action the user's answer came with. The
// contextual checks judge a reply's effects against it before anything is
// applied.
type State struct {
	// Event is the event type ("tool.after").
	Event string
	// Targets are the current values (compact JSON) of the targets the
	// event has: a modify of any other target is refused.
	Targets map[offer.Target]ahprt.Value
	// Mode and Action are an elicitation's mode ("form", "url") and the
	// user's action ("accept", "decline", "cancel").
	Mode, Action string
	// Attachments are the attachment descriptors (content parts with a
	// body) the host authorized for this event: a modify may carry only
	// these, unchanged. Without them a modified message list carries no
	// attachment body.
	Attachments []ahprt.Value
}

// EditError is an effect that does not fit the event's current state.
type EditError struct {
	// Pointer is the offending member's JSON Pointer, from the effects
	// list ("/0/value") or, in a reply, from the reply.
	Pointer string
	Reason  string
}

func (e *EditError) Error() string { return "edit: " + e.Pointer + ": " + e.Reason }

// The targets whose values are canonical message lists, and those that
// are text part lists (execution-payloads.md, content-upload.md).
func messageTarget(t offer.Target) bool {
	switch t {
	case offer.TargetPrompt, offer.TargetRequest, offer.TargetResponse, offer.TargetContent, offer.TargetOutput:
		return true
	}
	return false
}

func textTarget(t offer.Target) bool {
	return t == offer.TargetInstructions || t == offer.TargetSummary
}

// targetName is t for an error: a target AHP defines as it is, any other
// (which the peer wrote, and which may break a line or be long) quoted.
func targetName(t offer.Target) string {
	if messageTarget(t) || textTarget(t) || t == offer.TargetInput || t == offer.TargetWorkspace {
		return string(t)
	}
	return quote.Peer(string(t))
}

// Schema locations the contextual checks use, in every snapshot that has
// modify effects.
const (
	locMessages     = "content-item.schema.json#/$defs/messages"
	locTextParts    = "content-item.schema.json#/$defs/textParts"
	locElicitResult = "mcp-elicitation.schema.json#/$defs/ElicitResult"
)

// Bounds is the schema location of an event type's capability bounds,
// less the type: Bounds + "tool.before" in a snapshot's Entries.
const Bounds = "capabilities.schema.json#/$defs/"

// Stage applies the modify effects of effects (a JSON list of effects, as
// a reply's result.effects) to a copy of s.Targets, in order, all or
// nothing, and returns the result; s is never changed. Other effect types
// are left to the caller. Each modify is checked against the state it
// meets, with the snapshot's schemas (snap is a generated package's
// Snapshot; only its Entries are read):
//
//   - the event has the target, and the event's capability bounds allow
//     modifying it by that operation (capabilities.schema.json#/$defs/<event>);
//   - at user.elicitation.result, content is the answer of an accepted
//     form: the mode is form, the action accept, and the current value and
//     the new one are MCP ElicitResult content objects;
//   - otherwise prompt, request, response, content and output are
//     canonical message lists, instructions and summary text part lists,
//     input and workspace objects, now and after the edit;
//   - a list keeps what the backend could not see or may not change: a
//     part that reuses the id of an attachment or hidden part equals one
//     of them (unless it is text the backend may edit, under an id that
//     also names such text: ids need not be unique); a part the backend
//     got without its content (no text or body, or a gap) stays in a
//     message with the id and role of one that held an equal part, no
//     more often than such messages held it (a merge never carries one),
//     and a replacement keeps every hidden text part so; an attachment
//     body is one of s.Attachments, unchanged;
//   - the values the modify effects meet add up to at most 16 times the
//     size of the effects list and s.Targets (plus 1 MiB): each effect
//     re-reads the value it meets, so a reply of thousands of small
//     merges of one target would cost the square of its size;
//   - replace takes the value; merge overwrites an object's top-level
//     members (nested values are replaced whole and null is a value) or
//     appends to a list in order, duplicates kept; merge of other shapes is
//     refused.
//
// The error is an *EditError (its Pointer from the list), or the parse
// error of effects.
func Stage(snap *ahpimpl.Snapshot, s State, effects []byte) (map[offer.Target]ahprt.Value, error) {
	d, err := ahpimpl.Reparse(effects)
	if err != nil {
		return nil, err
	}
	staged, e := New(snap).Modify(&s, d, d.Root(), "")
	if e != nil {
		return nil, e
	}
	return maps.Clone(staged), nil // never s.Targets itself
}

// Editor holds a snapshot's checks the contextual rules use; one serves
// any number of goroutines.
type Editor struct {
	messages, textParts, elicitation func([]byte, ...ahprt.Option) error
	// boundsOf is the check of an event type's capability bounds; nil
	// when the Editor judges no bounds (ForReplies).
	boundsOf func(event string) (func([]byte, ...ahprt.Option) error, bool)
	bound    sync.Map // bounds' verdicts, by event, target and operation
	// SkipAbsent passes a modify of a target the State lacks, unjudged,
	// instead of refusing it: for a backend, which sees only the targets
	// the event holds as it received it, while its harness judges others
	// (the workspace, which its host supplies; an answer the backend's
	// content selection withheld).
	SkipAbsent bool
}

// New returns the Editor of a generated package's Snapshot, which judges
// values with the snapshot's EditChecks (where it has none, as a Snapshot
// built by hand, its Registry's entries) and capability bounds with its
// Registry.
func New(snap *ahpimpl.Snapshot) *Editor {
	e := fromChecks(snap)
	entry := func(loc string) func([]byte, ...ahprt.Option) error {
		if en, ok := snap.Entry(loc); ok {
			return en.Check
		}
		return nil
	}
	if e.messages == nil {
		e.messages = entry(locMessages)
	}
	if e.textParts == nil {
		e.textParts = entry(locTextParts)
	}
	if e.elicitation == nil {
		e.elicitation = entry(locElicitResult)
	}
	e.boundsOf = func(event string) (func([]byte, ...ahprt.Option) error, bool) {
		en, ok := snap.Entry(Bounds + event)
		return en.Check, ok
	}
	return e
}

// ForReplies returns the Editor a backend judges its own replies with:
// values by the snapshot's EditChecks alone, so that the program links no
// decoder it does not call (a call of Snapshot.Entry would link them all),
// the capability bounds left to the offer, which the request's own check
// bounded, and SkipAbsent set. It is nil when the snapshot's EditChecks
// are empty (a snapshot without those schemas, as 0.1.0-draft.1): there
// is nothing to judge values with.
func ForReplies(snap *ahpimpl.Snapshot) *Editor {
	if c := snap.EditChecks; c.Messages == nil && c.TextParts == nil && c.ElicitResult == nil {
		return nil
	}
	e := fromChecks(snap)
	e.SkipAbsent = true
	return e
}

// fromChecks is an Editor with the value checks of snap.EditChecks.
func fromChecks(snap *ahpimpl.Snapshot) *Editor {
	e := &Editor{}
	check := func(c ahpimpl.CheckFunc) func([]byte, ...ahprt.Option) error {
		if c == nil {
			return nil
		}
		return func(data []byte, opts ...ahprt.Option) error { return ahpimpl.Check(data, opts, 0, c) }
	}
	e.messages, e.textParts, e.elicitation = check(snap.EditChecks.Messages), check(snap.EditChecks.TextParts), check(snap.EditChecks.ElicitResult)
	return e
}

// valid runs a check the snapshot may lack: without it, nothing passes.
func valid(check func([]byte, ...ahprt.Option) error, data []byte) bool {
	return check != nil && check(data) == nil
}

// lacks says why a value could not be judged when the snapshot has no
// schema at loc (a snapshot of the kit's own that renamed or dropped
// it): otherwise a refusal would blame the value.
func lacks(check func([]byte, ...ahprt.Option) error, loc string) string {
	if check != nil {
		return ""
	}
	return "this snapshot has no schema at " + loc + ", which the kit judges the value by"
}

// Modify is Stage on the effects list at node list of d; at is the list's
// JSON Pointer, the start of the errors' Pointers. It returns s.Targets
// itself when the list has no modify.
func (e *Editor) Modify(s *State, d *ahpimpl.Doc, list ahpimpl.Node, at string) (map[offer.Target]ahprt.Value, *EditError) {
	var staged map[offer.Target]ahprt.Value
	// Each modify re-reads the value it meets (checks it, indexes its
	// parts, copies it to merge), so many small merges of one target
	// would cost the square of the reply's size: the values re-read are
	// bounded by a multiple of what the reply and the targets hold.
	work, budget := 0, 0
	for it := d.Items(list); it.Next(); {
		x := it.Item()
		tn, _ := d.Member(x, "type")
		if !d.StrEq(tn, "modify") {
			continue
		}
		if staged == nil {
			staged = make(map[offer.Target]ahprt.Value, len(s.Targets))
			budget = rereads*len(d.Raw(list)) + minWork
			for k, v := range s.Targets {
				staged[k] = v
				budget += rereads * len(v)
			}
		}
		here := at + "/" + strconv.Itoa(it.Index())
		fail := func(member, why string) *EditError { return &EditError{Pointer: here + member, Reason: why} }
		tg, _ := d.Member(x, "target")
		op, _ := d.Member(x, "operation")
		vn, ok := d.Member(x, "value")
		if d.Kind(tg) != ahpimpl.KindString || d.Kind(op) != ahpimpl.KindString || !ok {
			return nil, fail("", "not a modify effect (target, operation, value)")
		}
		t, merge := offer.Target(d.Text(tg)), d.StrEq(op, string(offer.Merge))
		if !merge && !d.StrEq(op, string(offer.Replace)) {
			return nil, fail("/operation", "unknown operation "+quote.Peer(d.Text(op)))
		}
		cur, ok := staged[t]
		switch {
		case !ok && e.SkipAbsent:
			continue
		case !ok:
			return nil, fail("/target", "the "+s.Event+" event has no "+targetName(t)+" to modify")
		}
		if why := e.bounds(s.Event, t, merge); why != "" {
			return nil, fail("/target", why)
		}
		if work += len(cur); work > budget {
			return nil, fail("", "the modify effects re-read the values they edit more than "+strconv.Itoa(rereads)+" times the size of the reply and the targets: send one modify per target")
		}
		val := d.RawValue(vn)
		next, why, member := e.apply(s, t, merge, cur, val)
		if why != "" {
			return nil, fail(member, why)
		}
		staged[t] = next
	}
	if staged == nil {
		return s.Targets, nil
	}
	return staged, nil
}

// rereads and minWork bound what a reply's modify effects re-read: the
// sum of the values they meet is at most rereads times the size of the
// effects list and the targets, plus minWork. A reply of up to rereads
// modify effects always fits.
const (
	rereads = 16
	minWork = 1 << 20
)

// bounds checks that the event's capability bounds let a modify of t by
// that operation be offered at all ("" when they do, or when the snapshot
// has no bounds for the event).
func (e *Editor) bounds(event string, t offer.Target, merge bool) string {
	if event == "" {
		return ""
	}
	key := event + "\x00" + string(t) + "\x00" + strconv.FormatBool(merge)
	if why, ok := e.bound.Load(key); ok {
		return why.(string)
	}
	why := e.checkBounds(event, t, merge)
	e.bound.Store(key, why)
	return why
}

func (e *Editor) checkBounds(event string, t offer.Target, merge bool) string {
	if e.boundsOf == nil {
		return ""
	}
	check, ok := e.boundsOf(event)
	if !ok {
		return ""
	}
	b := []byte(`{"effects":["modify"],"modify":{`)
	b = ahpimpl.AppendString(b, string(t))
	b = append(b, `:{"replace":`...)
	b = ahpimpl.AppendBool(b, !merge)
	b = append(b, `,"merge":`...)
	b = ahpimpl.AppendBool(b, merge)
	b = append(b, "}}}"...)
	if check(b) != nil {
		return "modify " + string(t) + " is not possible at " + event
	}
	return ""
}

// apply checks one modify against the current value and returns the new
// one, or why not (and the member to blame).
func (e *Editor) apply(s *State, t offer.Target, merge bool, cur, val ahprt.Value) (next ahprt.Value, why, member string) {
	answer := s.Event == "user.elicitation.result" && t == offer.TargetContent
	lists := false
	switch {
	case answer:
		if why := lacks(e.elicitation, locElicitResult); why != "" {
			return nil, why, "/value"
		}
		if s.Mode != "form" || s.Action != "accept" {
			return nil, "content can be modified only in the answer of an accepted form (mode " + strconv.Quote(s.Mode) + ", action " + strconv.Quote(s.Action) + ")", "/target"
		}
		if !e.answer(cur) {
			return nil, "the current content is not an elicitation answer object", "/target"
		}
		if !e.answer(val) {
			return nil, "not an elicitation answer: an object of strings, numbers, booleans and lists of strings", "/value"
		}
	case messageTarget(t):
		if why := lacks(e.messages, locMessages); why != "" {
			return nil, why, "/value"
		}
		if !valid(e.messages, val) {
			return nil, "not a canonical message list", "/value"
		}
		if !valid(e.messages, cur) {
			return nil, "the current " + string(t) + " is not a canonical message list", "/target"
		}
		lists = true
	case textTarget(t):
		if why := lacks(e.textParts, locTextParts); why != "" {
			return nil, why, "/value"
		}
		if !valid(e.textParts, val) {
			return nil, "not a text part list", "/value"
		}
		if !valid(e.textParts, cur) {
			return nil, "the current " + string(t) + " is not a text part list", "/target"
		}
		lists = true
	default: // input, workspace
		if len(cur) == 0 || cur[0] != '{' {
			return nil, "the current " + string(t) + " is not an object", "/target"
		}
		if len(val) == 0 || val[0] != '{' {
			return nil, "not an object", "/value"
		}
	}
	if lists {
		if why := e.keeps(s, cur, val, messageTarget(t), merge); why != "" {
			return nil, why, "/value"
		}
	}
	switch {
	case !merge:
		return val, "", ""
	case cur[0] == '{' && val[0] == '{':
		m, err := mergeObjects(cur, val)
		if err != nil {
			// The current value is the host's: blame the target, not the
			// backend's value, when it is the one that fails.
			if _, cerr := ahpimpl.Reparse(cur); cerr != nil {
				return nil, "the current " + string(t) + " is not one JSON object: " + cerr.Error(), "/target"
			}
			return nil, err.Error(), "/value"
		}
		return m, "", ""
	case lists && cur[0] == '[' && val[0] == '[':
		return appendLists(cur, val), "", ""
	}
	return nil, "merge needs two objects or two lists", "/value"
}

// answer reports whether v is the content of an MCP ElicitResult.
func (e *Editor) answer(v ahprt.Value) bool {
	if len(v) == 0 || v[0] != '{' {
		return false
	}
	b := make([]byte, 0, len(v)+32)
	b = append(b, `{"action":"accept","content":`...)
	b = append(b, v...)
	b = append(b, '}')
	return valid(e.elicitation, b)
}

// keeps checks the list rules: what the backend could not see or may not
// change stays as it is. Parts are found by id and by value through maps
// (a part's hash, then one comparison), so a list of n parts costs O(n): a
// backend's list is as long as its reply allows.
func (e *Editor) keeps(s *State, cur, val ahprt.Value, messages, merge bool) string {
	cd, err := ahpimpl.Reparse(cur)
	if err != nil {
		return err.Error()
	}
	vd, err := ahpimpl.Reparse(val)
	if err != nil {
		return err.Error()
	}
	old, fresh := parts(cd, messages), parts(vd, messages)
	// The old parts the backend may not change fall into classes of
	// equal parts, each named by its first part's index: a part of the
	// new list that equals one is of its class.
	cls := classes{}
	fixedID := map[string]bool{} // ids of old parts it may not change
	free := map[string]bool{}    // ids of text the backend may edit
	rep := make([]int, len(old)) // each old part's class (-1: editable)
	held := map[spot]int{}       // hidden parts by class and message
	for i, q := range old {
		rep[i] = -1
		if q.editable {
			free[q.id] = true
			continue
		}
		fixedID[q.id] = true
		r, k := cls.find(cd, q, cd, old)
		if r < 0 {
			r, cls[k] = i, append(cls[k], i)
		}
		rep[i] = r
		if !q.seen {
			held[spot{rep[i], q.msgID, q.role}]++
		}
	}
	kept := map[spot]int{} // hidden parts of the new list, by class and message
	for _, p := range fresh {
		// A part with the id of an attachment or hidden text is one of
		// them, unchanged, unless the list also holds text the backend
		// may edit under that id (part ids need not be unique) and it is
		// such text: then it may be that text, edited.
		class := -1
		if !(free[p.id] && p.editable) && fixedID[p.id] {
			if class, _ = cls.find(vd, p, cd, old); class < 0 {
				return "part " + quote.Peer(p.id) + " is an attachment or hidden text: it cannot be changed"
			}
		}
		if messages && p.body && p.kind == "attachment" && !authorized(s, vd, p.n) {
			return "attachment " + quote.Peer(p.id) + " is not one the host authorized, unchanged"
		}
		if why := stays(old, class, held, kept, p, merge); why != "" {
			return why
		}
	}
	if merge {
		return ""
	}
	// A replacement keeps each hidden text part where it was, as often
	// as its message held it, or it would drop text the backend never
	// read; a part of the same id kept in another message, or another
	// part of that id kept twice in its message, does not stand for it.
	for i, q := range old {
		if at := (spot{rep[i], q.msgID, q.role}); q.kind == "text" && !q.seen && kept[at] < held[at] {
			where := ""
			if q.inMessage {
				where = " of message " + describe(q.home)
			}
			return "replace would drop text the backend cannot see (part " + quote.Peer(q.id) + where + ", not selected as body or with a gap): keep it as it was sent"
		}
	}
	return ""
}

// valueKey finds a part's class: its id and its value's hash.
type valueKey struct {
	id   string
	hash uint64
}

// spot is a class of hidden parts in a message (its id and role; empty
// in a text part list).
type spot struct {
	class       int
	msgID, role string
}

// classes are the classes of equal old parts, each named by its first
// part's index, found by the parts' id and hash.
type classes map[valueKey][]int

// find is the class of part p of document d among the old parts (of
// document od): the index of the first old part equal to it, or -1; and
// p's key, under which a new class goes.
func (c classes) find(d *ahpimpl.Doc, p part, od *ahpimpl.Doc, old []part) (int, valueKey) {
	k := valueKey{p.id, d.Hash(p.n)}
	for _, r := range c[k] {
		if ahpimpl.EqualNodes(d, p.n, od, old[r].n) {
			return r, k
		}
	}
	return -1, k
}

// authorized reports whether attachment n of d is one of s.Attachments,
// unchanged.
func authorized(s *State, d *ahpimpl.Doc, n ahpimpl.Node) bool {
	for _, a := range s.Attachments {
		if ahpimpl.EqualJSON(d.Raw(n), a) {
			return true
		}
	}
	return false
}

// stays checks where the new list holds p, when it is a part the backend
// could not see (one it got without a text or a body, or with a gap) and
// equals the old parts of class: in a message list, in a message with the
// id and role of one that held such a part, and no more often there than
// that message held them (in a text part list, no more often than the
// list held them; a merge appends, so never in its value). The host puts
// each such part's content back where the backend kept it, so moving one
// would carry text the backend never read into another message, or under
// another role (a user's prompt into a system message); role belongs to
// the message (content-upload.md). The count is by message and by value,
// not by list or by id: part ids need not be unique, a part held once in
// each of two messages is not twice in one, and two hidden parts of one
// id in a message are not one of them twice. kept counts what the new
// list holds so far.
func stays(old []part, class int, held, kept map[spot]int, p part, merge bool) string {
	if p.seen || class < 0 {
		return "" // content the backend has, or a part of its own
	}
	at := spot{class, p.msgID, p.role}
	if held[at] == 0 {
		return "part " + quote.Peer(p.id) + ", which the backend cannot see, moved from message " + describe(old[class].home) + " to message " + describe(p.home) + ": keep it in the message that holds it"
	}
	kept[at]++
	if merge || kept[at] > held[at] {
		return "part " + quote.Peer(p.id) + ", which the backend cannot see, would be in the list more often than it is: keep it once, where it is"
	}
	return ""
}

// part is a content part of a list, with what the list rules read of it.
type part struct {
	n ahpimpl.Node
	home
	inMessage bool
	kind      string
	body      bool // it has a body member
	// seen: the backend got its content (text selected as body, or an
	// attachment with a body, either without a gap); editable: it is
	// text selected as body without a gap, the only part a modify may
	// change.
	seen, editable bool
}

// home is a part's id and the message that holds it (its id and role;
// empty in a text part list).
type home struct {
	id, msgID, role string
}

// parts lists the content parts of a message list (messages) or of a
// text part list.
func parts(d *ahpimpl.Doc, messages bool) []part {
	var out []part
	add := func(n, msg ahpimpl.Node, inMessage bool) {
		p := part{n: n, inMessage: inMessage, kind: text(d, n, "kind")}
		p.id = text(d, n, "id")
		if inMessage {
			p.msgID, p.role = text(d, msg, "id"), text(d, msg, "role")
		}
		_, p.body = d.Member(n, "body")
		_, gap := d.Member(n, "gap")
		p.editable = p.kind == "text" && text(d, n, "selection") == "body" && !gap
		p.seen = p.editable || p.kind == "attachment" && p.body && !gap
		out = append(out, p)
	}
	for it := d.Items(d.Root()); it.Next(); {
		if !messages {
			add(it.Item(), 0, false)
			continue
		}
		ps, _ := d.Member(it.Item(), "parts")
		for p := d.Items(ps); p.Next(); {
			add(p.Item(), it.Item(), true)
		}
	}
	return out
}

// text is member name of object n when it is a string, else "".
func text(d *ahpimpl.Doc, n ahpimpl.Node, name string) string {
	if v, ok := d.Member(n, name); ok && d.Kind(v) == ahpimpl.KindString {
		return d.Text(v)
	}
	return ""
}

// describe names a part's message by its id and role: "m1" (role "user").
func describe(h home) string {
	return quote.Peer(h.msgID) + " (role " + quote.Peer(h.role) + ")"
}

// Return judges a return effect's value against the event: what
// replaces the operation's result has that result's shape (a message list
// for a tool's output or a model's response, text parts for a compaction
// summary, an MCP ElicitResult for an elicitation, whose content only an
// accepted form has). "" when it fits.
func (e *Editor) Return(s *State, val ahprt.Value) string {
	switch s.Event {
	case "tool.before", "model.request.before":
		if why := lacks(e.messages, locMessages); why != "" {
			return why
		}
		if !valid(e.messages, val) {
			return "the result a return supplies at " + s.Event + " is a canonical message list"
		}
	case "context.compact.before":
		if why := lacks(e.textParts, locTextParts); why != "" {
			return why
		}
		if !valid(e.textParts, val) {
			return "the summary a return supplies at context.compact.before is a text part list"
		}
	case "user.elicitation.request":
		if why := lacks(e.elicitation, locElicitResult); why != "" {
			return why
		}
		if !valid(e.elicitation, val) {
			return "the answer a return supplies at user.elicitation.request is an MCP ElicitResult"
		}
		d, err := ahpimpl.Reparse(val)
		if err != nil {
			return err.Error()
		}
		action, _ := d.Member(d.Root(), "action")
		if _, content := d.Member(d.Root(), "content"); content && (s.Mode != "form" || !d.StrEq(action, "accept")) {
			return "only an accepted form answer has content"
		}
	}
	return ""
}
