package harness

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/edit"
	"github.com/ahpgen/ahpgen/internal/quote"
	"github.com/ahpgen/ahpgen/offer"
)

// verdict is what one accepted reply asks for: its effects read, judged
// and staged, nothing applied yet.
type verdict struct {
	effects    []string // types, in order
	permission Permission
	denial     *Denial
	messages   []Message
	ret        *Return
	flow       Flow
	stopReason string
	instrs     []string
	injections []Injection
	targets    map[offer.Target]ahprt.Value // staged (nil: no modify)
	event      ahprt.Value                  // the edited event (nil: unchanged)
	spans      map[offer.Target]span        // where the edited event holds its targets
}

// judge reads a reply to the request for event id under the offer o and
// the chain's state: strict decode, id and version, the snapshot's
// response schema, the offer, conflicts, then the contextual checks and
// the edited event's own check. Nothing is applied: the verdict is staged.
// seen is the event as the backend received it: modify effects are judged
// against that view and map back onto the event (see read).
func (h *Harness) judge(reply []byte, st *chain, o *offer.Offer, seen *sent, backendID string) (*verdict, *Failure) {
	c, err := ahpimpl.Begin(reply, h.opts.decode)
	if err != nil {
		return nil, &Failure{Class: ClassMalformed, Err: err}
	}
	defer c.Release()
	d := c.Doc
	root := d.Root()
	if d.Kind(root) != ahpimpl.KindObject {
		return nil, &Failure{Class: ClassMalformed, Err: errors.New("the reply is not a JSON-RPC object")}
	}
	if v, ok := d.Member(root, "jsonrpc"); !ok || !d.StrEq(v, "2.0") {
		return nil, &Failure{Class: ClassMalformed, Pointer: "/jsonrpc", Err: errors.New(`the reply is not JSON-RPC 2.0`)}
	}
	idn, hasID := d.Member(root, "id")
	if en, ok := d.Member(root, "error"); ok {
		// An error reply: valid by one of the snapshot's errorResponse
		// schemas, for this id (or null: the backend could not read ours).
		if hasID && d.Kind(idn) != ahpimpl.KindNull && !d.StrEq(idn, st.id) {
			return nil, &Failure{Class: ClassIDMismatch, Pointer: "/id", Err: errors.New("an error reply for another id")}
		}
		if !h.validError(c) {
			return nil, &Failure{Class: ClassMalformed, Pointer: "/error", Err: errors.New("an error reply the snapshot's errorResponse schema rejects")}
		}
		cn, _ := d.Member(en, "code")
		code, ok := ahprt.Number(d.Raw(cn)).Int64()
		if !ok || int64(int(code)) != code {
			// The schema's integer has no bound; a code no int holds
			// (1e999999) is no code a host can act on, and Code 0
			// would read as "no code".
			return nil, &Failure{Class: ClassMalformed, Pointer: "/error/code", Err: errors.New("an error code beyond the range of int")}
		}
		mn, _ := d.Member(en, "message")
		f := &Failure{Class: ClassRPCError, Code: int(code), Err: errors.New(quote.Peer(d.Text(mn)))}
		switch code {
		case -32001:
			f.Class = ClassUnsupportedVersion
		case -32002:
			f.Class = ClassUnsupportedEvent
		}
		return nil, f
	}
	result, ok := d.Member(root, "result")
	if !ok || !hasID {
		return nil, &Failure{Class: ClassMalformed, Err: errors.New("neither a result with an id nor an error")}
	}
	if !d.StrEq(idn, st.id) {
		return nil, &Failure{Class: ClassIDMismatch, Pointer: "/id", Err: errors.New("the reply answers another request")}
	}
	if v, ok := d.Member(result, "protocolVersion"); ok && !d.StrEq(v, h.snap.WireVersion) {
		return nil, &Failure{Class: ClassUnsupportedVersion, Pointer: "/result/protocolVersion",
			Err: errors.New("a result of another protocol version than " + strconv.Quote(h.snap.WireVersion))}
	}
	if err := h.checkReply(c); err != nil {
		f := &Failure{Class: ClassInvalidResult, Err: err}
		var ae *ahprt.Error
		if errors.As(err, &ae) {
			f.Pointer = ae.Root().Pointer
		}
		if errors.Is(err, ahprt.ErrUnsupported) {
			f.Class = ClassUnknownEffect
		}
		return nil, f
	}
	effects, _ := d.Member(result, "effects")
	if err := o.CheckDoc(d, effects, "/result/effects"); err != nil {
		f := &Failure{Class: ClassUnadvertised, Err: err}
		var v *offer.Violation
		if errors.As(err, &v) {
			f.Pointer = v.Pointer
		}
		return nil, f
	}
	v, f := h.read(d, effects, st, seen, backendID)
	if f != nil {
		return nil, f
	}
	if v.targets != nil {
		event, spans, err := h.edited(st, v.targets)
		if err != nil {
			return nil, &Failure{Class: ClassMalformedEffect, Pointer: "/result/effects", Err: err}
		}
		v.event, v.spans = event, spans
	}
	return v, nil
}

// read reads an effects list the schema and the offer accepted: what each
// effect asks, whether they contradict each other, and the contextual
// checks (modify staged on the chain's state, return values judged).
func (h *Harness) read(d *ahpimpl.Doc, effects ahpimpl.Node, st *chain, seen *sent, backendID string) (*verdict, *Failure) {
	if err := offer.CheckConflicts(d, effects, "/result/effects"); err != nil {
		f := &Failure{Class: ClassConflict, Err: err}
		var c *offer.Conflict
		if errors.As(err, &c) {
			f.Pointer, f.Err = c.Pointer, errors.New(c.Reason)
		}
		return nil, f
	}
	v := &verdict{permission: PermissionNone, flow: FlowNone}
	for it := d.Items(effects); it.Next(); {
		x, i := it.Item(), it.Index()
		tn, _ := d.Member(x, "type")
		typ := d.Text(tn)
		v.effects = append(v.effects, typ)
		str := func(name string) string {
			n, _ := d.Member(x, name)
			return d.Text(n)
		}
		switch offer.EffectType(typ) {
		case offer.Deny, offer.Allow, offer.Ask:
			p := Permission(typ) // one permission per reply (CheckConflicts)
			v.permission = p
			if p == PermissionDeny && v.denial == nil {
				v.denial = &Denial{Reason: str("reason"), Code: str("code"), Backend: backendID}
			}
		case offer.Message:
			v.messages = append(v.messages, Message{Text: str("text"), Backend: backendID})
		case offer.Return:
			vn, _ := d.Member(x, "value")
			val := d.RawValue(vn)
			if why := h.edit.Return(&st.state, val); why != "" {
				return nil, &Failure{Class: ClassMalformedEffect, Pointer: "/result/effects/" + strconv.Itoa(i) + "/value", Err: errors.New(why)}
			}
			v.ret = &Return{Value: val, Backend: backendID}
		case offer.Flow:
			op := Flow(str("operation"))
			v.flow = op
			if op == FlowStop && v.stopReason == "" {
				v.stopReason = str("reason")
			}
			if n, ok := d.Member(x, "instruction"); ok {
				v.instrs = append(v.instrs, d.Text(n))
			}
		case offer.Inject:
			vn, _ := d.Member(x, "value")
			v.injections = append(v.injections, Injection{DeliverAt: offer.DeliverAt(str("deliverAt")), Value: d.RawValue(vn), Backend: backendID})
		case offer.Modify:
			// staged below, in order, on the chain's state
		default:
			// Unreachable through an offer (the offer check refuses a
			// type not offered, and New and Offer refuse to offer one this
			// harness cannot apply): kept so that nothing unknown is ever
			// applied.
			return nil, &Failure{Class: ClassUnknownEffect, Pointer: "/result/effects/" + strconv.Itoa(i), Err: errors.New("effect " + quote.Peer(typ) + " has no meaning this harness knows")}
		}
	}
	// A backend that received withheld parts edits what it saw: its
	// modify effects are judged against the targets as the view holds
	// them (a part it saw as metadata is hidden text to it, which it may
	// keep but not rewrite), and the parts it kept as it saw them become
	// the event's own again.
	state := &st.state
	if seen.withheld {
		state = viewState(st, seen.event)
	}
	staged, e := h.edit.Modify(state, d, effects, "/result/effects")
	if e != nil {
		return nil, &Failure{Class: ClassMalformedEffect, Pointer: e.Pointer, Err: errors.New(e.Reason)}
	}
	if staged != nil && state != &st.state {
		staged = restore(staged, state.Targets, st.state.Targets)
	}
	if staged != nil && !sameMap(staged, st.state.Targets) {
		v.targets = staged
	}
	return v, nil
}

func sameMap(a, b map[offer.Target]ahprt.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || string(v) != string(w) {
			return false
		}
	}
	return true
}

// edited writes staged targets into the event where it holds them, and
// checks the edited event (unless only opaque slots changed): the request
// that would carry it must pass the snapshot's intercept-request check (an
// outbound message list of role user, say, does not).
func (h *Harness) edited(st *chain, staged map[offer.Target]ahprt.Value) (ahprt.Value, map[offer.Target]span, error) {
	event, spans, check := st.event, st.spans, false
	for t, val := range staged {
		sl, ok := edit.Slots(st.state.Event)[t]
		answer := st.answer && t == offer.TargetContent
		sp, held := spans[t]
		if !ok && !answer || !held || string(st.state.Targets[t]) == string(val) {
			continue
		}
		if answer {
			// The answer is serialized in the result part's text: the
			// text with the new content replaces it.
			var text string
			if json.Unmarshal(event[sp.start:sp.end], &text) != nil {
				continue // unreachable: begin read a string there
			}
			nt, ok := edit.WriteAnswer(text, val)
			if !ok {
				return nil, nil, errors.New("the elicitation's result text is no longer an answer object")
			}
			val, sl.Opaque = ahpimpl.AppendString(nil, nt), false
		}
		// Splice the value in where the event holds the target; the
		// targets after it move.
		event = splice(event, sp.start, sp.end, val)
		delta := len(val) - (sp.end - sp.start)
		moved := make(map[offer.Target]span, len(spans))
		for u, o := range spans {
			switch {
			case u == t:
				o.end = o.start + len(val)
			case o.start >= sp.end:
				o.start, o.end = o.start+delta, o.end+delta
			}
			moved[u] = o
		}
		spans = moved
		check = check || !sl.Opaque
	}
	if !check {
		return event, spans, nil
	}
	req := h.request(make([]byte, 0, len(event)+len(st.caps)+160), st.id, event, st.caps)
	if err := h.checkRequest(req); err != nil {
		return nil, nil, errors.New("the edited event is not a valid " + st.state.Event + " event: " + err.Error())
	}
	return event, spans, nil
}

// checkReply runs the snapshot's checks of an intercept reply on c: the
// first that accepts it decides; when none does, the first one's
// rejection says why (as the backend kit judges the replies it sends).
func (h *Harness) checkReply(c *ahpimpl.Ctx) error {
	if checks := h.snap.Replies(methodIntercept); len(checks) > 0 {
		return c.RunFirst(checks)
	}
	var first error
	for _, dec := range h.snap.Responses {
		c.Forget()
		if _, err := dec.Decode(c); err == nil {
			return nil
		} else if first == nil {
			first = err
		}
	}
	if first == nil {
		first = errors.New("snapshot " + h.snap.Key + " defines no response")
	}
	return first
}

// validError reports whether c is an error reply one of the snapshot's
// errorResponse schemas accepts.
func (h *Harness) validError(c *ahpimpl.Ctx) bool {
	for _, dec := range h.snap.ErrorResponses {
		c.Forget()
		if _, err := dec.Decode(c); err == nil {
			return true
		}
	}
	return false
}
