package offer

import (
	"errors"
	"strconv"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// ErrConflict is matched (errors.Is) by every *Conflict.
var ErrConflict = errors.New("conflicting effects")

// Conflict is an effect that contradicts an earlier one of the same
// reply. A reply's effects are applied all or nothing, so a list that
// asks for two outcomes at once has no meaning, and AHP makes it an
// operational failure, as an effect that was not offered is
// (AHP-CAP-001).
type Conflict struct {
	// Pointer is the JSON Pointer of the later of the two effects, from
	// the root of what was checked ("/result/effects/1" in a reply).
	Pointer string
	// Reason names the two effects, without their values.
	Reason string
}

func (c *Conflict) Error() string { return "offer: " + c.Pointer + ": " + c.Reason }

// Is makes errors.Is(err, ErrConflict) hold.
func (c *Conflict) Is(target error) bool { return target == ErrConflict }

// CheckConflicts judges whether the effects array at node n of a parsed
// document contradicts itself; at is n's JSON Pointer in that document.
// The rules, the same for every snapshot:
//
//   - one permission per reply: deny, allow and ask exclude each other
//     (the same one repeated is no contradiction);
//   - at most one return, and none beside a deny (a denied operation
//     has no result to replace);
//   - flow stop and flow continue exclude each other.
//
// It judges only what the types and operations say: that each effect is
// well formed and offered is for the schema and CheckDoc. It allocates
// only to report a conflict. The backend kit checks every reply with it
// before sending, and the harness kit every reply it receives.
func CheckConflicts(d *ahpimpl.Doc, n ahpimpl.Node, at string) error {
	var permission, flow string
	denied, returned := false, false
	for it := d.Items(n); it.Next(); {
		e := it.Item()
		tn, _ := d.Member(e, "type")
		typ := EffectType(d.Tag(tn))
		why := ""
		switch typ {
		case Deny, Allow, Ask:
			switch {
			case permission != "" && permission != string(typ):
				why = permission + " and " + string(typ) + " in one reply"
			case typ == Deny && returned:
				why = "return and deny in one reply"
			}
			permission, denied = string(typ), denied || typ == Deny
		case Return:
			switch {
			case returned:
				why = "two return effects in one reply"
			case denied:
				why = "deny and return in one reply"
			}
			returned = true
		case Flow:
			on, _ := d.Member(e, "operation")
			op := d.Tag(on)
			if flow != "" && flow != op {
				why = "flow stop and continue in one reply"
			}
			flow = op
		}
		if why != "" {
			return &Conflict{Pointer: at + "/" + strconv.Itoa(it.Index()), Reason: why}
		}
	}
	return nil
}
