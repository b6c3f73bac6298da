package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/edit"
	"github.com/ahpgen/ahpgen/offer"
)

// CallOption adjusts one Intercept.
type CallOption func(*call)

type call struct {
	caps        []byte
	capsErr     error
	targets     map[offer.Target]ahprt.Value
	attachments []ahprt.Value
}

// Offer replaces, for this event only, the capabilities configured for its
// type (WithCapabilities): per-event advertisements narrow to what holds
// now, the continuations left for a turn, say.
func Offer(capabilities Event) CallOption {
	return func(c *call) {
		if capabilities == nil {
			c.capsErr = errors.New("harness: Offer: nil capabilities")
			return
		}
		c.caps, c.capsErr = compact(capabilities.AppendJSON(nil))
	}
}

// Target gives the current value of a modify target that the event does
// not hold where the harness finds it (the harness reads tool input from
// tool.before and tool.permission.request, the items of tool.after,
// model and turn events, messages of user.message events,
// context.compact.before's instructions and context.compact.after's
// summary, and user.elicitation.result's answer from the ElicitResult its
// result text serializes). A modify of it is judged against this value,
// and the edited value is in Decision.Targets; the event is left as it
// is, so the next interceptor sees the target as the host gave it. AHP
// leaves open where an event holds the workspace target: it comes from
// the host.
func Target(t offer.Target, value ahprt.Value) CallOption {
	return func(c *call) {
		if c.targets == nil {
			c.targets = map[offer.Target]ahprt.Value{}
		}
		v, err := compact(value)
		if err != nil && c.capsErr == nil {
			c.capsErr = fmt.Errorf("harness: target %s: %w", t, err)
		}
		c.targets[t] = v
	}
}

// Attachments authorizes attachment descriptors (content parts with a
// body) that a modified message list may carry, unchanged.
func Attachments(parts ...ahprt.Value) CallOption {
	return func(c *call) { c.attachments = append(c.attachments, parts...) }
}

// span is the byte range [start, end) of a value in a document.
type span struct{ start, end int }

// errNilEvent is what Intercept and Observe return for a nil event.
var errNilEvent = errors.New("harness: the event is nil")

// ErrInterrupted is Intercept's error when its context ends before the
// chain settles (errors.Is also finds context.Canceled or
// context.DeadlineExceeded).
var ErrInterrupted = errors.New("harness: interrupted")

// chain is one Intercept's state: the event as accepted effects left it,
// and what it offers.
type chain struct {
	id    string
	event ahprt.Value           // the effective event
	spans map[offer.Target]span // where event holds its targets
	caps  []byte
	offer offer.Offer
	state State
	// answer: the content target is the answer serialized in the
	// elicitation's result text (edit.Answer), spans[content] that
	// text's JSON string.
	answer bool
}

// Intercept runs the interceptors of event's type, serially in
// registration order, and returns the decision (AHP-COMP-001). For each
// matching intercept subscription it sends hooks/intercept (the request id
// is the event's id, the protocolVersion the registration's snapshot, the
// capabilities the host configured for the event type), within the
// subscription's timeout, and judges the reply before applying anything
// (see package doc). A deny stops the chain, so does a flow stop, and so
// does an operational failure under fail-closed, which denies (a
// synthetic denial); under fail-open the chain goes on without that
// backend. When no subscription matches, nothing is sent and the decision
// is PermissionNone.
//
// After the chain settles, hooks/observe goes to the matching observers
// and to the matching interceptors the chain never called, with the
// effective event, in the background (Intercept does not wait for them).
//
// The error is for the caller, never a backend's: an event that is not a
// valid interceptable event of the snapshot, invalid call options, a
// closed harness, or ctx done before the chain settled (ErrInterrupted,
// wrapping ctx's cause: the pending request is abandoned, nothing is
// observed, and no failure policy can let the operation go on; the
// Decision returned with it keeps only what interruption preserves, the
// edits accepted before, in its Event and Targets, with the Audit of the
// backends that answered, and grants nothing). A subscription's timeout is
// no interruption: it is an operational failure, and its policy applies.
// With an error the host has no decision to act on, and the operation must
// not run as if AHP had let it: fix the call, or treat it as interrupted.
func (h *Harness) Intercept(ctx context.Context, event Event, opts ...CallOption) (*Decision, error) {
	if !h.enter() {
		return nil, ErrClosed
	}
	defer h.mu.RUnlock()
	var c call
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.capsErr != nil {
		return nil, c.capsErr
	}
	if event == nil {
		return nil, errNilEvent
	}
	st, err := h.begin(singleLine(event.AppendJSON(nil)), &c)
	if err != nil {
		return nil, err
	}
	d := &Decision{EventID: st.id, EventType: st.state.Event, Permission: PermissionNone, Flow: FlowNone}
	var uncalled []*Subscription
	stopped := false
	for _, b := range h.reg.Backends {
		for _, s := range b.Subscriptions {
			if s.Mode != ModeIntercept || !s.Matches(st.state.Event) {
				continue
			}
			if stopped {
				uncalled = append(uncalled, s)
				continue
			}
			rec := h.consult(ctx, s, st, d)
			if ctx.Err() != nil {
				// Interrupted: the pending request ends, and no policy
				// (fail-open least of all) lets the operation go on. The
				// edits accepted before stay (observation-disposition.md):
				// the host gets them in a decision that grants nothing,
				// with the record of a reply judged before the
				// interruption was seen (its edits are in st already).
				if rec.Failure == nil {
					d.Audit = append(d.Audit, rec)
					h.log(ctx, rec)
				}
				kept := &Decision{EventID: st.id, EventType: st.state.Event, Permission: PermissionNone, Flow: FlowNone,
					Event: st.event, Targets: st.state.Targets, Audit: d.Audit}
				return kept, fmt.Errorf("%w: %w", ErrInterrupted, context.Cause(ctx))
			}
			d.Audit = append(d.Audit, rec)
			h.log(ctx, rec)
			// Decision-making stops on a deny, a flow stop or a
			// fail-closed failure (AHP-COMP-001); interruption returned
			// above.
			if rec.Outcome == OutcomeDenied || rec.Outcome == OutcomeFailedClosed || d.Flow == FlowStop {
				stopped = true
			}
		}
	}
	for _, s := range uncalled {
		rec := Record{EventID: st.id, Backend: s.Backend.ID, Subscription: s.Pointer, Outcome: OutcomeNotCalled, Policy: s.Policy}
		d.Audit = append(d.Audit, rec)
		h.log(ctx, rec)
	}
	d.Event, d.Targets = st.event, st.state.Targets
	if st.offer.ListsFlow(offer.Continue) {
		remaining, count, max := st.offer.Continuations()
		if d.Flow == FlowContinue {
			remaining, count = remaining-1, count+1
		}
		d.Continuations = &Continuations{Remaining: remaining, Count: count, Max: max}
	}
	h.observe(ctx, st.state.Event, st.event, uncalled)
	return d, nil
}

// begin reads the event and builds the chain's state: its id and type, the
// offer, the targets it holds.
func (h *Harness) begin(ev ahprt.Value, c *call) (*chain, error) {
	pc, err := ahpimpl.BeginHeld(ev)
	if err != nil {
		return nil, fmt.Errorf("harness: the event is not JSON: %w", err)
	}
	defer pc.Release()
	d := pc.Doc
	idn, hasID := d.Member(d.Root(), "id")
	// The request's id is the event's: without one, the request check
	// would blame the request's /id, which the caller never built.
	var why *ahprt.Error
	switch {
	case d.Kind(d.Root()) != ahpimpl.KindObject:
		why = &ahprt.Error{Code: ahprt.CodeType, Pointer: "/params/event", Message: "the event is not an object (a nil event encodes as null)"}
	case !hasID:
		why = &ahprt.Error{Code: ahprt.CodeRequired, Pointer: "/params/event/id", Message: "the event has no id (the request's id is the event's)"}
	case d.Kind(idn) != ahpimpl.KindString:
		why = &ahprt.Error{Code: ahprt.CodeType, Pointer: "/params/event/id", Message: "the event's id is not a string"}
	case d.Text(idn) == "":
		why = &ahprt.Error{Code: ahprt.CodeMinLength, Pointer: "/params/event/id", Message: "the event's id is empty"}
	}
	if why != nil {
		why.Offset = -1
		return nil, fmt.Errorf("harness: not a valid %s intercept request for this event: %w", h.snap.Key, why)
	}
	tn, _ := d.Member(d.Root(), "type")
	st := &chain{id: d.Text(idn), event: ev}
	st.state.Event = d.Text(tn)
	if st.state.Event == "" && h.snap.WireVersion == "0.1" {
		st.state.Event = "tool.before" // the one event of 0.1, which has no type member
	}
	if c.caps != nil {
		if err := h.checkCaps(st.state.Event, c.caps); err != nil {
			return nil, err
		}
		if st.offer, err = offer.Parse(c.caps); err != nil {
			return nil, fmt.Errorf("harness: capabilities: %w", err)
		}
		st.caps = c.caps
	} else {
		o := h.capabilities(st.state.Event)
		st.caps, st.offer = o.raw, o.offer
	}
	// The request must be valid as it would first be sent: the event, the
	// capabilities for it, the id rule.
	if err := h.checkRequest(h.request(nil, st.id, ev, st.caps)); err != nil {
		return nil, fmt.Errorf("harness: not a valid %s intercept request for this event: %w", h.snap.Key, err)
	}
	st.state.Targets = map[offer.Target]ahprt.Value{}
	for t, sl := range edit.Slots(st.state.Event) {
		if n, ok := edit.Find(d, d.Root(), sl.Path); ok {
			st.state.Targets[t] = d.RawValue(n)
			if st.spans == nil {
				st.spans = map[offer.Target]span{}
			}
			start, end := d.Span(n)
			st.spans[t] = span{start, end}
		}
	}
	if st.state.Event == "user.elicitation.result" && c.targets[offer.TargetContent] == nil {
		if v, n, ok := edit.Answer(d, d.Root()); ok {
			st.state.Targets[offer.TargetContent] = v
			if st.spans == nil {
				st.spans = map[offer.Target]span{}
			}
			start, end := d.Span(n)
			st.spans[offer.TargetContent], st.answer = span{start, end}, true
		}
	}
	for t, v := range c.targets {
		st.state.Targets[t] = v
	}
	if st.state.Event == "user.elicitation.result" || st.state.Event == "user.elicitation.request" {
		if n, ok := edit.Find(d, d.Root(), []string{"elicitation", "mode"}); ok {
			st.state.Mode = d.Text(n)
		}
		if n, ok := edit.Find(d, d.Root(), []string{"elicitation", "action"}); ok {
			st.state.Action = d.Text(n)
		}
	}
	st.state.Attachments = c.attachments
	// Advertise only what can be enforced: a modify target the harness
	// has no value for could not be judged nor applied.
	if st.offer.Offers(offer.Modify) {
		for _, t := range []offer.Target{offer.TargetInput, offer.TargetOutput, offer.TargetPrompt, offer.TargetRequest, offer.TargetResponse,
			offer.TargetContent, offer.TargetInstructions, offer.TargetSummary, offer.TargetWorkspace} {
			if (st.offer.CanModify(t, offer.Replace) || st.offer.CanModify(t, offer.Merge)) && st.state.Targets[t] == nil {
				return nil, fmt.Errorf("harness: the capabilities offer modify %s, but the %s event holds none where the harness reads it: pass harness.Target", t, st.state.Event)
			}
		}
	}
	return st, nil
}

// singleLine returns JSON on one line: generated encoders write it so, and
// other JSON is compacted (a stdio message is one line; a literal line
// break in JSON text is always whitespace).
func singleLine(b []byte) []byte {
	if bytes.IndexByte(b, '\n') < 0 && bytes.IndexByte(b, '\r') < 0 {
		return b
	}
	if v, err := compact(b); err == nil {
		return v
	}
	return b // not JSON: the request check says so
}

func (h *Harness) checkRequest(req []byte) error { return h.checks.request(req) }

// request appends a hooks/intercept request to b: the envelope's constants
// are the snapshot's (its wire version), the event and capabilities as
// given (compact), the id the event's.
func (h *Harness) request(b []byte, id string, event, caps []byte) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = ahpimpl.AppendString(b, id)
	b = append(b, `,"method":"hooks/intercept","params":{"protocolVersion":`...)
	b = ahpimpl.AppendString(b, h.snap.WireVersion)
	b = append(b, `,"event":`...)
	b = append(b, event...)
	b = append(b, `,"capabilities":`...)
	b = append(b, caps...)
	return append(b, "}}"...)
}

// notification appends a hooks/observe notification of event to b.
func (h *Harness) notification(b []byte, event []byte) []byte {
	b = append(b, `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":`...)
	b = ahpimpl.AppendString(b, h.snap.WireVersion)
	b = append(b, `,"event":`...)
	b = append(b, event...)
	return append(b, "}}"...)
}

// sent is an event as one subscription received it: its view, and whether
// the view withheld any content part.
type sent struct {
	event    ahprt.Value
	withheld bool
}

// view is event (of type typ) as subscription s receives it: without
// native unless it asked for it and its content selection withholds
// nothing, and with its content parts as its content selection gives them
// (see contentView). native is opaque: the harness cannot find in it the
// copies of content the selection withholds, so a subscription that
// withholds any does not get it (AHP-CONTENT-002: no duplicate-content
// bypass).
func (h *Harness) view(s *Subscription, typ string, event ahprt.Value) sent {
	withholds := !s.Content.bodyOnly() || s.UploadEndpoint != ""
	if (!s.IncludeNative || withholds) && mayHoldNative(event) {
		event = without(event, "native")
	}
	v, withheld := h.contentView(s.Content, s.UploadEndpoint != "", typ, event)
	return sent{v, withheld}
}

// mayHoldNative reports whether event may have a member named native:
// written plainly, the name is "native" followed by a colon, whitespace
// perhaps between (the harness compacts only events with line breaks);
// with an escape, the event holds a \u (a letter has no other escape).
// Anything else has none, and is sent without a parse.
func mayHoldNative(event []byte) bool {
	if bytes.Contains(event, []byte(`\u`)) {
		return true
	}
	for rest := event; ; {
		i := bytes.Index(rest, []byte(`"native"`))
		if i < 0 {
			return false
		}
		rest = rest[i+len(`"native"`):]
		if j := skipSpace(rest, 0); j < len(rest) && rest[j] == ':' {
			return true // a name ("native" as a value, "path":"native", is none)
		}
	}
}

// consult calls one interceptor within its deadline, judges its reply and
// applies an accepted one to the chain and the decision.
func (h *Harness) consult(ctx context.Context, s *Subscription, st *chain, d *Decision) Record {
	rec := Record{EventID: st.id, Backend: s.Backend.ID, Subscription: s.Pointer, Policy: s.Policy}
	start := time.Now()
	dctx, cancel := h.opts.deadline(ctx, s.Timeout)
	defer cancel()
	seen := h.view(s, st.state.Event, st.event)
	req := h.request(make([]byte, 0, len(st.event)+len(st.caps)+160), st.id, seen.event, st.caps)
	conn := h.conns[s.Backend]
	var v *verdict
	var f *Failure
	resent := 0
	for {
		// One resend to a new persistent stdio run, at once and on the
		// same turn, besides the retries (see persistentConn.call).
		reply, sent, cf := conn.call(dctx, st.id, req, resent == 0)
		rec.Attempts += sent
		resent += sent - 1
		if f = cf; f == nil {
			v, f = h.judge(reply, st, &st.offer, &seen, s.Backend.ID)
			if f == nil && past(dctx) {
				// Accepted too late: the deadline covers acceptance.
				v, f = nil, &Failure{Class: ClassLate, Err: errors.New("the reply was judged after the deadline")}
			}
			if f == nil || f.Class != ClassRPCError || !f.retryable() {
				break // a reply is never retried, but for "unavailable, try again"
			}
		}
		if f.Class == ClassDeadline || past(dctx) {
			// Name the bound that passed: the subscription's.
			why := f.Err
			if why == nil {
				why = context.DeadlineExceeded
			}
			f.Class, f.Err = ClassDeadline, fmt.Errorf("timeoutMs %d: %w", s.Timeout.Milliseconds(), why)
			break
		}
		if !f.retryable() || rec.Attempts-resent > h.opts.retries || !h.wait(dctx) {
			break
		}
	}
	rec.Elapsed = time.Since(start)
	if f != nil {
		redact(conn, f)
		rec.Failure = f
		if s.Policy == FailClosed {
			rec.Outcome, rec.Synthetic = OutcomeFailedClosed, true
			d.Permission = PermissionDeny
			d.Denial = &Denial{Reason: SyntheticReason, Backend: s.Backend.ID, Synthetic: true}
			d.Return = nil // see apply
		} else {
			rec.Outcome = OutcomeFailedOpen
		}
		return rec
	}
	rec.Effects = v.effects
	h.apply(st, d, v)
	switch {
	case v.permission == PermissionDeny:
		rec.Outcome = OutcomeDenied
	case len(v.effects) == 0:
		rec.Outcome = OutcomeNoEffect
	default:
		rec.Outcome = OutcomeApplied
	}
	return rec
}

// redact takes the credentials sent over c out of f, where c keeps them
// (see httpConn.redact).
func redact(c conn, f *Failure) {
	if r, ok := c.(interface{ redact(*Failure) }); ok {
		r.redact(f)
	}
}

// past reports whether ctx's deadline has passed, by the clock. ctx.Err
// says so only once a timer's goroutine has run: a process stalled across
// the deadline (a loaded machine, a descheduled VM) resumes with the
// reply and the deadline both come, and may take the reply first, before
// ctx is done.
func past(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	dl, ok := ctx.Deadline()
	return ok && !time.Now().Before(dl)
}

// wait sleeps the backoff between attempts; false when the deadline
// passed meanwhile.
func (h *Harness) wait(ctx context.Context) bool {
	if h.opts.backoff > 0 {
		t := time.NewTimer(h.opts.backoff)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return !past(ctx)
}

// apply commits an accepted verdict: the edited event and targets, and
// what the effects ask, composed with the earlier backends' (the strongest
// permission stands, the last return stands unless a deny ends the chain,
// which drops it as a stop drops the earlier continues' instructions,
// messages, instructions and injections add up in order).
func (h *Harness) apply(st *chain, d *Decision, v *verdict) {
	if v.targets != nil {
		st.state.Targets = v.targets
	}
	if v.event != nil {
		st.event, st.spans = v.event, v.spans
	}
	if v.permission.rank() > d.Permission.rank() {
		d.Permission = v.permission
		if v.permission == PermissionDeny {
			// The operation does not run, and no result stands in for
			// it: one reply may not send both (a conflict), nor may the
			// chain leave both.
			d.Denial, d.Return = v.denial, nil
		}
	}
	d.Messages = append(d.Messages, v.messages...)
	if v.ret != nil {
		d.Return = v.ret
	}
	switch {
	case v.flow == FlowStop && d.Flow != FlowStop:
		d.Flow, d.StopReason, d.Instructions = FlowStop, v.stopReason, nil
	case v.flow == FlowContinue && d.Flow == FlowNone:
		d.Flow = FlowContinue
	}
	if v.flow == FlowContinue && d.Flow == FlowContinue {
		d.Instructions = append(d.Instructions, v.instrs...)
	}
	d.Injections = append(d.Injections, v.injections...)
}

// Observe sends hooks/observe with event to every observe subscription of
// its type, in the background (best effort, bounded: see WithObservers).
// Use it for the events the host does not intercept (session.end,
// tool.after when nothing intercepts it); Intercept observes its own
// events. The error is for the caller's mistakes: an event the snapshot's
// observe notification rejects, a closed harness.
func (h *Harness) Observe(ctx context.Context, event Event) error {
	if !h.enter() {
		return ErrClosed
	}
	defer h.mu.RUnlock()
	if h.checks.notify == nil {
		return fmt.Errorf("harness: snapshot %s defines no hooks/observe", h.snap.Key)
	}
	if event == nil {
		return errNilEvent
	}
	ev := singleLine(event.AppendJSON(nil))
	if err := h.checks.notify(h.notification(nil, ev)); err != nil {
		return fmt.Errorf("harness: not a valid %s observe notification: %w", h.snap.Key, err)
	}
	d, _ := ahpimpl.Reparse(ev)
	tn, _ := d.Member(d.Root(), "type")
	h.observe(ctx, d.Text(tn), ev, nil)
	return nil
}

// observe dispatches hooks/observe with the effective event to the
// matching observe subscriptions and to extra (intercept subscriptions the
// chain never called), each in its own goroutine, bounded; it never
// waits for a delivery.
func (h *Harness) observe(ctx context.Context, typ string, event ahprt.Value, extra []*Subscription) {
	if h.checks.notify == nil {
		return // 0.1: no hooks/observe
	}
	subs := extra
	for _, b := range h.reg.Backends {
		for _, s := range b.Subscriptions {
			if s.Mode == ModeObserve && s.Matches(typ) {
				subs = append(subs, s)
			}
		}
	}
	if len(subs) == 0 {
		return
	}
	ctx = context.WithoutCancel(ctx) // the caller's call ends now; delivery goes on
	id := ""
	if d, err := ahpimpl.Reparse(event); err == nil {
		n, _ := d.Member(d.Root(), "id")
		id = d.Text(n)
	}
	for _, s := range subs {
		rec := Record{EventID: id, Backend: s.Backend.ID, Subscription: s.Pointer, Outcome: OutcomeObserved}
		msg := h.notification(nil, h.view(s, typ, event).event)
		if err := h.checks.notify(msg); err != nil {
			// The effective event passed as an intercept request: a
			// snapshot whose notification says otherwise is the only way.
			rec.Outcome, rec.Failure = OutcomeObserveFail, &Failure{Class: ClassMalformed, Err: err}
			h.log(ctx, rec)
			continue
		}
		select {
		case h.observers <- struct{}{}:
		default:
			rec.Outcome = OutcomeDropped
			h.log(ctx, rec)
			continue
		}
		h.wg.Add(1)
		go func() {
			defer func() { <-h.observers; h.wg.Done() }()
			octx, cancel := context.WithTimeout(ctx, h.opts.observeWait)
			defer cancel()
			start := time.Now()
			rec.Attempts = 1
			conn := h.conns[s.Backend]
			if f := conn.notify(octx, msg); f != nil {
				redact(conn, f) // an observer's record goes to the audit log too
				rec.Outcome, rec.Failure = OutcomeObserveFail, f
			}
			rec.Elapsed = time.Since(start)
			h.log(ctx, rec)
		}()
	}
}
