package offer

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/quote"
)

// CheckEffects judges an effects list (a JSON array of effects): nil when
// the offer allows every effect, otherwise a *Violation for the first
// one it does not, its Pointer from the array ("/1/target").
func (o Offer) CheckEffects(effects []byte) error {
	d, err := ahpimpl.Reparse(effects)
	if err != nil {
		return err
	}
	return o.CheckDoc(d, d.Root(), "")
}

// CheckReply judges the effects of a hooks/intercept reply (the whole
// JSON-RPC response): its Pointers start at the reply
// ("/result/effects/0"). A reply without result.effects (an error
// response, a discovery result) has nothing to judge.
func (o Offer) CheckReply(reply []byte) error {
	d, err := ahpimpl.Reparse(reply)
	if err != nil {
		return err
	}
	result, _ := d.Member(d.Root(), "result")
	effects, ok := d.Member(result, "effects") // a missing result has no effects
	if !ok {
		return nil
	}
	return o.CheckDoc(d, effects, "/result/effects")
}

// Allows judges one effect given as a generated value of any snapshot
// (draft.NewDenyEffect("…")), through its encoding. Its Pointer is from
// the effect ("/target").
func (o Offer) Allows(effect Appender) error {
	if effect == nil {
		return &Violation{Reason: "nil (no effect to judge)"}
	}
	data := effect.AppendJSON(nil)
	d, err := ahpimpl.Reparse(data)
	if err != nil {
		return err
	}
	if v := o.checkEffect(d, d.Root()); v != nil {
		return v
	}
	return nil
}

// CheckDoc judges the effects array at node n of a parsed document; at
// is n's JSON Pointer in that document, which a Violation's Pointer
// extends. It allocates only to report a violation.
func (o Offer) CheckDoc(d *ahpimpl.Doc, n ahpimpl.Node, at string) error {
	if d.Kind(n) != ahpimpl.KindArray {
		return &Violation{Pointer: at, Reason: "effects is not a list"}
	}
	for it := d.Items(n); it.Next(); {
		if v := o.checkEffect(d, it.Item()); v != nil {
			v.Pointer = at + "/" + strconv.Itoa(it.Index()) + v.Pointer
			return v
		}
	}
	return nil
}

// checkEffect judges effect node e; a Violation's Pointer is from e.
func (o Offer) checkEffect(d *ahpimpl.Doc, e ahpimpl.Node) *Violation {
	const at = ""
	typ, ok := d.Member(e, "type")
	if !ok || d.Kind(typ) != ahpimpl.KindString {
		return &Violation{Pointer: at, Reason: "an effect without a string type"}
	}
	name := d.StrView(typ)
	if !o.Offers(EffectType(name)) {
		return &Violation{Pointer: at + "/type", Type: name, Reason: "effect type " + quote.Peer(name) + " is not offered (offered: " + o.list() + ")"}
	}
	switch EffectType(name) {
	case Modify:
		tn, _ := d.Member(e, "target")
		on, _ := d.Member(e, "operation")
		t, op := Target(d.Tag(tn)), Operation(d.Tag(on))
		if !o.CanModify(t, op) {
			why, ptr := "modify "+quoteTag(string(t))+" by "+quoteTag(string(op))+" is not offered (offered: "+o.modifyList()+")", at+"/target"
			// An offer can name targets and operations of a snapshot
			// newer than this package; it advertises those to nobody
			// here, and saying "not offered" of one the offer names
			// would send its reader looking in the wrong place.
			switch {
			case t != "\xff" && !slices.Contains(targets[:], t):
				why = "modify " + quoteTag(string(t)) + ": a target this package does not know (it knows " + knownTargets() + "), so no offer allows it"
			case op != "\xff" && op != Replace && op != Merge:
				why = "modify " + quoteTag(string(t)) + " by " + quoteTag(string(op)) + ": an operation this package does not know (it knows replace and merge), so no offer allows it"
				ptr = at + "/operation"
			}
			return &Violation{Pointer: ptr, Type: name, Reason: why}
		}
	case Flow:
		on, _ := d.Member(e, "operation")
		op := FlowOperation(d.Tag(on))
		if !o.CanFlow(op) {
			why := "flow " + quoteTag(string(op)) + " is not offered"
			if op == Continue && o.flow&2 != 0 {
				why = "flow \"continue\" is offered but no continuation is left (remainingContinuations " + strconv.FormatUint(o.remaining, 10) + ")"
			}
			return &Violation{Pointer: at + "/operation", Type: name, Reason: why}
		}
	case Inject:
		an, _ := d.Member(e, "deliverAt")
		when := DeliverAt(d.Tag(an))
		if !o.CanInject(when) {
			return &Violation{Pointer: at + "/deliverAt", Type: name, Reason: "inject at " + quoteTag(string(when)) + " is not offered"}
		}
	}
	return nil
}

// knownTargets lists the modify targets this package knows.
func knownTargets() string {
	var b strings.Builder
	for i, t := range targets {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(t))
	}
	return b.String()
}

// quoteTag quotes a protocol keyword read from an effect, as peer text
// (quote.Peer: on one line, bounded); a value that is not one (Tag's "\xff" for a non-string) reads as "(none)".
func quoteTag(s string) string {
	if s == "\xff" {
		return "(none)"
	}
	return quote.Peer(s)
}

func (o Offer) list() string {
	var b []byte
	for i, t := range o.Effects() {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, t...)
	}
	if b == nil {
		return "none"
	}
	return string(b)
}

func (o Offer) modifyList() string {
	var b []byte
	if o.Offers(Modify) {
		for i, t := range targets {
			for k, op := range [...]Operation{Replace, Merge} {
				if o.modify[i]&(1<<k) != 0 {
					if b != nil {
						b = append(b, ", "...)
					}
					b = append(b, string(t)+" by "+string(op)...)
				}
			}
		}
	}
	if b == nil {
		return "none"
	}
	return string(b)
}
