package harness

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/internal/quote"
	"github.com/ahpgen/ahpgen/offer"
)

// Permission is what a chain decided about the operation. None is not
// Allow: an empty reply grants nothing (AHP-DEC-003), so with None the
// host's own permission flow (its rules, its prompt) decides as if no
// backend were configured. Deny means the host must not run the operation
// (AHP-DEC-002). Allow settles only the permission question AHP asks: it
// never bypasses the host's sandbox, managed policy or other controls
// (AHP-SEC-001), which apply as they would without AHP.
type Permission string

// The permissions, from the weakest: across a chain the strongest stands
// (a later allow does not undo an earlier ask), and a deny stops it.
const (
	PermissionNone  Permission = "none"
	PermissionAllow Permission = "allow"
	PermissionAsk   Permission = "ask"
	PermissionDeny  Permission = "deny"
)

func (p Permission) rank() int {
	switch p {
	case PermissionAllow:
		return 1
	case PermissionAsk:
		return 2
	case PermissionDeny:
		return 3
	}
	return 0
}

// Flow is what the chain asked of the agent's loop.
type Flow string

// The flow states. A stop from any backend stands; a continue only when
// no backend stopped.
const (
	FlowNone     Flow = "none"
	FlowStop     Flow = "stop"
	FlowContinue Flow = "continue"
)

// Decision is the settled outcome of one intercepted event: what the host
// must enforce, the event as the accepted effects left it, and who
// decided what.
type Decision struct {
	// EventID and EventType name the event (the request id is EventID).
	EventID, EventType string
	// Permission is the decision on the operation; Denial says why when
	// it is PermissionDeny.
	Permission Permission
	Denial     *Denial
	// Event is the effective event: the event with every accepted modify
	// effect applied where the event holds its target. It is what
	// observers are sent.
	Event ahprt.Value
	// Targets are the modify targets' values after the accepted effects,
	// for every target the event had (the tool input of a tool.before).
	Targets map[offer.Target]ahprt.Value
	// Messages are the message effects' texts, in order.
	Messages []Message
	// Return is the result a return effect supplied in place of the
	// operation (the last one accepted), nil when none did or the chain
	// ended in a denial (the audit records keep what each backend sent).
	Return *Return
	// Flow, with StopReason (stop) and Instructions (continue), is what
	// the flow effects asked.
	Flow         Flow
	StopReason   string
	Instructions []string
	// Continuations are the continuation counters after this decision,
	// when the offer advertised flow continue: a continue uses one.
	Continuations *Continuations
	// Injections are the inject effects' context, in order.
	Injections []Injection
	// Audit is one record per matching intercept subscription, in order:
	// the ones called, then the ones the chain never reached.
	Audit []Record
}

// Denied reports whether the operation must not run.
func (d *Decision) Denied() bool { return d.Permission == PermissionDeny }

// Target returns the value of a modify target after the decision (nil when
// the event has no such target).
func (d *Decision) Target(t offer.Target) ahprt.Value { return d.Targets[t] }

// Denial explains a deny.
type Denial struct {
	// Reason and Code are the deny effect's; for a synthetic denial the
	// generic SyntheticReason (the cause is in the audit record, never
	// shown to the model).
	Reason, Code string
	// Backend is the id of the backend that denied, or whose failure
	// under fail-closed did.
	Backend string
	// Synthetic is set for a fail-closed denial: no backend denied.
	Synthetic bool
}

// SyntheticReason is a fail-closed denial's reason: generic, without the
// failure's details (failure.md, "Synthetic denial").
const SyntheticReason = "Required policy backend unavailable."

// Message is a message effect's text and the backend that sent it.
type Message struct{ Text, Backend string }

// Return is a return effect's value and the backend that sent it.
type Return struct {
	Value   ahprt.Value
	Backend string
}

// Injection is an inject effect: context to add, and when.
type Injection struct {
	DeliverAt offer.DeliverAt
	Value     ahprt.Value
	Backend   string
}

// Continuations are the continuation counters of a flow offer.
type Continuations struct {
	Remaining, Count uint64
	Max              int64 // -1 when the offer carried none
}

// Outcome is what one subscription's call came to.
type Outcome string

// The outcomes of a subscription in a chain, and of an observer.
const (
	OutcomeNoEffect     Outcome = "no_effect"     // empty effects: nothing granted, next backend
	OutcomeApplied      Outcome = "applied"       // effects accepted and applied
	OutcomeDenied       Outcome = "denied"        // the backend denied: the chain stopped
	OutcomeFailedOpen   Outcome = "failed_open"   // operational failure under fail-open: next backend
	OutcomeFailedClosed Outcome = "failed_closed" // operational failure under fail-closed: synthetic denial
	OutcomeNotCalled    Outcome = "not_called"    // the chain stopped first: it is sent hooks/observe
	OutcomeObserved     Outcome = "observed"      // a hooks/observe delivered
	OutcomeObserveFail  Outcome = "observe_failed"
	OutcomeDropped      Outcome = "observe_dropped" // every observer slot busy: not sent
)

// Record is one subscription's part in a decision (or one observer
// delivery): the audit trail's entry.
type Record struct {
	EventID string
	Backend string
	// Subscription is the subscription's JSON Pointer in the registration.
	Subscription string
	Outcome      Outcome
	// Effects are the types of the effects applied, in order.
	Effects []string
	Policy  Policy
	// Failure is the operational failure, for the failed outcomes.
	Failure *Failure
	// Synthetic marks the fail-closed synthetic denial (OutcomeFailedClosed):
	// distinguishable from a backend's deny, as AHP-FAIL-001 requires.
	Synthetic bool
	// Attempts is how many times the harness tried to send the request:
	// retries included, and the one resend to a new run of a request
	// whose persistent stdio run ended without answering it. A try may
	// end before the request reached a backend (its deadline while
	// queued behind another intercept, a run found ended), so a backend
	// may have seen the request fewer times.
	Attempts int
	Elapsed  time.Duration
}

func (r Record) String() string {
	s := r.Backend + " " + r.Subscription + ": " + string(r.Outcome)
	if len(r.Effects) > 0 {
		s += " ["
		for i, e := range r.Effects {
			if i > 0 {
				s += " "
			}
			s += e
		}
		s += "]"
	}
	if r.Synthetic {
		s += " (synthetic deny)"
	}
	if r.Failure != nil {
		s += ": " + r.Failure.Error()
	}
	if r.Attempts > 1 {
		s += " after " + strconv.Itoa(r.Attempts) + " attempts"
	}
	return s
}

// FailureClass is the kind of an operational failure: the classes
// failure.md lists.
type FailureClass string

// The operational failure classes.
const (
	ClassDeadline           FailureClass = "deadline"            // the subscription's timeoutMs passed
	ClassConnection         FailureClass = "connection"          // refused, reset or lost
	ClassProcess            FailureClass = "process"             // launch failure, abnormal or nonzero exit
	ClassAuth               FailureClass = "authentication"      // no credential, or 401
	ClassHTTPStatus         FailureClass = "http_status"         // any other status than the success one
	ClassMalformed          FailureClass = "malformed"           // not UTF-8 JSON-RPC, no reply, bad framing
	ClassIDMismatch         FailureClass = "id_mismatch"         // the reply answers another id
	ClassRPCError           FailureClass = "rpc_error"           // a JSON-RPC error reply
	ClassUnsupportedVersion FailureClass = "unsupported_version" // -32001, or a result of another version
	ClassUnsupportedEvent   FailureClass = "unsupported_event"   // -32002
	ClassInvalidResult      FailureClass = "invalid_result"      // the response schema rejects the result
	ClassUnknownEffect      FailureClass = "unknown_effect"      // an effect type or operation the snapshot does not know
	ClassUnadvertised       FailureClass = "unadvertised_effect" // an effect the request did not offer
	ClassMalformedEffect    FailureClass = "malformed_effect"    // an effect whose value does not fit the event's current state
	ClassConflict           FailureClass = "conflicting_effects" // effects of one reply that contradict each other
	ClassLate               FailureClass = "late_reply"          // a reply after the deadline
)

// Failure is an operational failure: its class and what exactly happened.
// Its text is for the host's logs, never for the model. It may quote text
// the backend sent (a JSON-RPC error's message, names from its reply),
// each at most 200 bytes on one line, and the HTTP client's error (which
// may quote a status or header line it could not read) as its first 400
// bytes, without the tokens the harness sent it (SECURITY.md).
type Failure struct {
	Class FailureClass
	// Code is a JSON-RPC error reply's code; Status an HTTP status.
	Code, Status int
	// Pointer is the JSON Pointer of the offending member of the reply.
	Pointer string
	Err     error
}

func (f *Failure) Error() string {
	s := string(f.Class)
	if f.Status != 0 {
		s += " " + strconv.Itoa(f.Status)
	}
	if f.Code != 0 {
		s += " " + strconv.Itoa(f.Code)
	}
	if f.Pointer != "" {
		s += " at " + quote.Pointer(f.Pointer) // the backend chose its names
	}
	if f.Err != nil {
		s += ": " + f.Err.Error()
	}
	return s
}

func (f *Failure) Unwrap() error { return f.Err }

// redact replaces secret, wherever f's text holds it, by "[credential]".
// The error that held it is kept for errors.Is only: its own text (and
// errors.As) would give the secret back.
func (f *Failure) redact(secret string) {
	const mark = "[credential]"
	f.Pointer = strings.ReplaceAll(f.Pointer, secret, mark)
	if f.Err != nil && strings.Contains(f.Err.Error(), secret) {
		f.Err = &redacted{text: strings.ReplaceAll(f.Err.Error(), secret, mark), err: f.Err}
	}
}

// redacted is an error whose text was rewritten for a Failure: a secret
// taken out (redact), a peer's long text cut (bounded).
type redacted struct {
	text string
	err  error
}

func (r *redacted) Error() string        { return r.text }
func (r *redacted) Is(target error) bool { return errors.Is(r.err, target) }

// retryable reports whether a retry inside the deadline can help: the
// reply never came (a connection, a process, a 5xx or 429), or the backend
// said it is temporarily unavailable (-32003).
func (f *Failure) retryable() bool {
	switch f.Class {
	case ClassConnection, ClassProcess:
		return true
	case ClassHTTPStatus:
		return f.Status >= 500 || f.Status == 429
	case ClassRPCError:
		return f.Code == -32003
	}
	return false
}
