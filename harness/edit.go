package harness

import (
	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/edit"
	"github.com/ahpgen/ahpgen/offer"
)

// State is what modify effects edit in one event (see edit.State): the
// harness judges each reply against the chain's.
type State = edit.State

// EditError is an effect that does not fit the event's current state
// (see edit.EditError).
type EditError = edit.EditError

// Stage applies the modify effects of effects to a copy of s.Targets, as
// the harness does when it judges a reply: see edit.Stage, which it is.
func Stage(snap *ahpimpl.Snapshot, s State, effects []byte) (map[offer.Target]ahprt.Value, error) {
	return edit.Stage(snap, s, effects)
}
