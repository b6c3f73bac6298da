// Package offer holds the rules AHP sets on every hooks/intercept reply: a
// backend returns only the effects that request offered (AHP-CAP-001), and
// effects that do not contradict each other ([CheckConflicts]). The
// request's params.capabilities is the offer: the effect types it lists
// (standard names, or experimental reverse-DNS names that must match
// exactly), and the details of three of them — the targets and operations
// of modify, the operations of flow with the continuations left, and the
// delivery points of inject.
//
// An [Offer] is read once from the capabilities object, as JSON ([Parse]),
// as part of a document already parsed ([FromDoc]) or as a generated value
// of any snapshot ([Of]); it then judges effects as JSON ([Offer.CheckEffects],
// [Offer.CheckReply], [Offer.CheckDoc]) or as generated values
// ([Offer.Allows]). A backend asks it what it may return
// ([Offer.Offers], [Offer.CanModify], [Offer.CanFlow], [Offer.CanInject]);
// the backend kit (package backend) checks every reply with it before
// sending, and a harness checks every reply it receives. Nothing here
// depends on a snapshot: the rules are the same for draft and for
// 0.1.0-draft.1 (whose offer lists deny and experimental names only).
//
// An offer is read as the capabilities schema shapes it; unknown members
// are ignored (they advertise nothing), and so are modify targets this
// package does not know. Whether the capabilities object is valid is the
// generated check's business: Parse rejects only what it cannot read.
package offer

import (
	"errors"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// EffectType is an effect's "type", as capabilities.effects lists it.
// Besides the standard types below, an experimental effect has a
// reverse-DNS name ("com.example.audit"), which a request must list
// exactly before a backend may return it.
type EffectType string

// The standard effect types.
const (
	Deny    EffectType = "deny"
	Allow   EffectType = "allow"
	Ask     EffectType = "ask"
	Modify  EffectType = "modify"
	Message EffectType = "message"
	Return  EffectType = "return"
	Flow    EffectType = "flow"
	Inject  EffectType = "inject"
)

// standard lists the standard types; an Offer keeps one bit per entry.
var standard = [...]EffectType{Deny, Allow, Ask, Modify, Message, Return, Flow, Inject}

// Standard reports whether t is one of the standard effect types (the
// constants above), not an experimental name.
func (t EffectType) Standard() bool { return slices.Contains(standard[:], t) }

// Target is what a modify effect changes (capabilities.modify's members).
type Target string

// The modify targets.
const (
	TargetInput        Target = "input"
	TargetOutput       Target = "output"
	TargetPrompt       Target = "prompt"
	TargetRequest      Target = "request"
	TargetResponse     Target = "response"
	TargetContent      Target = "content"
	TargetInstructions Target = "instructions"
	TargetSummary      Target = "summary"
	TargetWorkspace    Target = "workspace"
)

var targets = [...]Target{TargetInput, TargetOutput, TargetPrompt, TargetRequest, TargetResponse, TargetContent, TargetInstructions, TargetSummary, TargetWorkspace}

// Operation is how a modify effect changes its target.
type Operation string

// The modify operations.
const (
	Replace Operation = "replace"
	Merge   Operation = "merge"
)

// FlowOperation is what a flow effect does.
type FlowOperation string

// The flow operations.
const (
	Stop     FlowOperation = "stop"
	Continue FlowOperation = "continue"
)

// DeliverAt is when an inject effect's context is delivered.
type DeliverAt string

// The delivery points.
const (
	Now      DeliverAt = "now"
	NextTurn DeliverAt = "next_turn"
)

// Offer is what one hooks/intercept request offered. The zero Offer
// offers nothing. An Offer is a small value; copy it freely.
type Offer struct {
	types  uint16              // bit i: standard[i] is listed
	exp    []string            // experimental names listed, as written
	modify [len(targets)]uint8 // per target: bit 0 replace, bit 1 merge
	flow   uint8               // bit 0 stop, bit 1 continue
	inject uint8               // bit 0 now, bit 1 next_turn
	// remaining and count are the continuation counters (saturated at
	// MaxUint64); maxPlus1 is maxContinuations plus one, 0 when absent,
	// so that the zero Offer has none.
	remaining, count uint64
	maxPlus1         uint64
	// unknown are the JSON Pointers of what the offer names and this
	// package gives no meaning (see Unknown).
	unknown []string
}

// ErrNotOffered is matched (errors.Is) by every *Violation.
var ErrNotOffered = errors.New("effect not offered")

// ErrUnreadable is matched by the errors of Parse, FromDoc and Of: the
// capabilities are not an object with an effects list of strings.
var ErrUnreadable = errors.New("capabilities unreadable")

// Violation is an effect the offer does not allow, or one that cannot be
// read as an effect.
type Violation struct {
	// Pointer is the JSON Pointer of the offending member, from the root
	// of what was checked ("/result/effects/1/target" in a reply).
	Pointer string
	// Type is the effect's type ("" when it has none).
	Type string
	// Reason says what was not offered, without the effect's values.
	Reason string
}

func (v *Violation) Error() string {
	p := v.Pointer
	if p == "" {
		p = "(document)"
	}
	return "offer: " + p + ": " + v.Reason
}

// Is makes errors.Is(err, ErrNotOffered) hold.
func (v *Violation) Is(target error) bool { return target == ErrNotOffered }

// unreadable is a Parse error: where and why.
type unreadable struct{ pointer, why string }

func (e *unreadable) Error() string {
	p := e.pointer
	if p == "" {
		p = "(document)"
	}
	return "offer: capabilities " + p + ": " + e.why
}

func (e *unreadable) Is(target error) bool { return target == ErrUnreadable }

// Parse reads a capabilities object (the JSON of params.capabilities).
func Parse(capabilities []byte) (Offer, error) {
	d, err := ahpimpl.Reparse(capabilities)
	if err != nil {
		return Offer{}, err
	}
	return FromDoc(d, d.Root())
}

// Appender is what every generated value is: it appends its JSON.
type Appender interface{ AppendJSON(b []byte) []byte }

// Of reads a generated capabilities value of any snapshot
// (&req.Params.Capabilities), through its encoding.
func Of(capabilities Appender) (Offer, error) {
	if capabilities == nil {
		return Offer{}, &unreadable{"", "nil (no value to read)"}
	}
	return Parse(capabilities.AppendJSON(nil))
}

// FromRequest reads the offer of a hooks/intercept request (JSON): its
// params.capabilities.
func FromRequest(request []byte) (Offer, error) {
	d, err := ahpimpl.Reparse(request)
	if err != nil {
		return Offer{}, err
	}
	params, _ := d.Member(d.Root(), "params")
	caps, ok := d.Member(params, "capabilities") // missing params have none
	if !ok {
		return Offer{}, &unreadable{"/params/capabilities", "missing"}
	}
	o, err := FromDoc(d, caps)
	if u, ok := err.(*unreadable); ok {
		u.pointer = "/params/capabilities" + u.pointer
	}
	return o, err
}

// FromDoc reads the capabilities object at node n of a parsed document.
// The Offer keeps nothing of d. Errors name the member by its JSON
// Pointer from n.
func FromDoc(d *ahpimpl.Doc, n ahpimpl.Node) (Offer, error) {
	var o Offer
	if d.Kind(n) != ahpimpl.KindObject {
		return Offer{}, &unreadable{"", "not an object"}
	}
	effects, ok := d.Member(n, "effects")
	if !ok || d.Kind(effects) != ahpimpl.KindArray {
		return Offer{}, &unreadable{"/effects", "missing or not a list"}
	}
	for it := d.Items(effects); it.Next(); {
		x := it.Item()
		if d.Kind(x) != ahpimpl.KindString {
			return Offer{}, &unreadable{"/effects/" + strconv.Itoa(it.Index()), "not a string"}
		}
		name := d.StrView(x)
		if i := slices.Index(standard[:], EffectType(name)); i >= 0 {
			o.types |= 1 << i
		} else if !slices.Contains(o.exp, name) {
			o.exp = append(o.exp, strings.Clone(name))
		}
	}
	for m := d.Members(n); m.Next(); {
		v := m.Value()
		switch m.Key() {
		case "modify":
			for t := d.Members(v); t.Next(); {
				i := slices.Index(targets[:], Target(t.Key()))
				for op := d.Members(t.Value()); op.Next(); {
					if d.Kind(op.Value()) != ahpimpl.KindBool || !d.Bool(op.Value()) {
						continue
					}
					switch {
					case i < 0: // an unknown target advertises nothing
						if ptr := "/modify/" + escape(t.Key()); !slices.Contains(o.unknown, ptr) {
							o.unknown = append(o.unknown, ptr) // once, however many operations it offers
						}
					case op.Key() == string(Replace):
						o.modify[i] |= 1
					case op.Key() == string(Merge):
						o.modify[i] |= 2
					default:
						o.unknown = append(o.unknown, "/modify/"+escape(t.Key())+"/"+escape(op.Key()))
					}
				}
			}
		case "flow":
			for f := d.Members(v); f.Next(); {
				switch f.Key() {
				case "operations":
					for it := d.Items(f.Value()); it.Next(); {
						switch d.Tag(it.Item()) {
						case string(Stop):
							o.flow |= 1
						case string(Continue):
							o.flow |= 2
						default:
							o.unknown = append(o.unknown, "/flow/operations/"+strconv.Itoa(it.Index()))
						}
					}
				case "remainingContinuations":
					o.remaining = count(d, f.Value())
				case "continuationCount":
					o.count = count(d, f.Value())
				case "maxContinuations":
					o.maxPlus1 = min(count(d, f.Value()), math.MaxInt64) + 1
				}
			}
		case "inject":
			// Without context or deliverAt there is no delivery point.
			ctx, _ := d.Member(v, "context")
			at, _ := d.Member(ctx, "deliverAt")
			for it := d.Items(at); it.Next(); {
				switch d.Tag(it.Item()) {
				case string(Now):
					o.inject |= 1
				case string(NextTurn):
					o.inject |= 2
				default:
					o.unknown = append(o.unknown, "/inject/context/deliverAt/"+strconv.Itoa(it.Index()))
				}
			}
		}
	}
	return o, nil
}

// count reads a non-negative integer counter ("2", "2.0", "2e0"),
// saturating; anything else is 0.
func count(d *ahpimpl.Doc, n ahpimpl.Node) uint64 {
	if d.Kind(n) != ahpimpl.KindNumber {
		return 0
	}
	raw := d.Raw(n)
	// Exactly when the value can be expanded: a float64 would round
	// counters beyond 2^53 (and 2^64-2 up to the saturated 2^64-1).
	if r, ok := ahprt.Number(raw).Rat(); ok {
		if r.Sign() <= 0 {
			return 0
		}
		q := new(big.Int).Quo(r.Num(), r.Denom())
		if !q.IsUint64() {
			return math.MaxUint64
		}
		return q.Uint64()
	}
	f, err := strconv.ParseFloat(string(raw), 64) // an exponent beyond Rat's
	switch {
	case err != nil && f > 0, f >= math.MaxUint64:
		return math.MaxUint64
	case err != nil || !(f > 0):
		return 0
	}
	return uint64(f)
}

// Offers reports whether the offer lists effect type t (a standard type,
// or an experimental name, matched exactly).
func (o Offer) Offers(t EffectType) bool {
	if i := slices.Index(standard[:], t); i >= 0 {
		return o.types&(1<<i) != 0
	}
	return slices.Contains(o.exp, string(t))
}

// Unknown lists, by JSON Pointer from the capabilities object, what the
// offer advertises that this package gives no meaning: a modify target or
// operation, a flow operation or an inject delivery point of a snapshot
// newer than it (experimental effect types are Effects'). A backend
// shown such an offer may take it up, and every check here then refuses
// the effect as not offered: a harness should not advertise it.
func (o Offer) Unknown() []string { return slices.Clone(o.unknown) }

// Effects lists the effect types the offer lists: the standard ones in
// the order of this package's constants, then the experimental ones as
// the request listed them.
func (o Offer) Effects() []EffectType {
	var out []EffectType
	for i, t := range standard {
		if o.types&(1<<i) != 0 {
			out = append(out, t)
		}
	}
	for _, n := range o.exp {
		out = append(out, EffectType(n))
	}
	return out
}

// CanModify reports whether a modify effect with this target and
// operation is offered.
func (o Offer) CanModify(t Target, op Operation) bool {
	i := slices.Index(targets[:], t)
	if i < 0 || !o.Offers(Modify) {
		return false
	}
	switch op {
	case Replace:
		return o.modify[i]&1 != 0
	case Merge:
		return o.modify[i]&2 != 0
	}
	return false
}

// CanFlow reports whether a flow effect with this operation is offered;
// continue also needs a continuation left (remainingContinuations ≥ 1).
func (o Offer) CanFlow(op FlowOperation) bool {
	return o.ListsFlow(op) && (op != Continue || o.remaining > 0)
}

// ListsFlow reports whether the offer's flow operations list op, whether
// or not a continue could be used now (CanFlow also asks for a
// continuation left): an offer listing continue carries the continuation
// counters, one of stop alone carries none.
func (o Offer) ListsFlow(op FlowOperation) bool {
	if !o.Offers(Flow) {
		return false
	}
	switch op {
	case Stop:
		return o.flow&1 != 0
	case Continue:
		return o.flow&2 != 0
	}
	return false
}

// Continuations returns the continuation counters the offer carries:
// remaining and count (0 when absent), and max (maxContinuations, -1
// when absent, as in the zero Offer). Counts beyond uint64 saturate, and
// max at math.MaxInt64.
func (o Offer) Continuations() (remaining, count uint64, max int64) {
	if o.maxPlus1 == 0 {
		return o.remaining, o.count, -1
	}
	return o.remaining, o.count, int64(o.maxPlus1 - 1)
}

// CanInject reports whether an inject effect delivered at this point is
// offered.
func (o Offer) CanInject(at DeliverAt) bool {
	if !o.Offers(Inject) {
		return false
	}
	switch at {
	case Now:
		return o.inject&1 != 0
	case NextTurn:
		return o.inject&2 != 0
	}
	return false
}

// escape is a member name as a JSON Pointer token.
func escape(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}
