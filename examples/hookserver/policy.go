package main

import (
	"context"
	"log/slog"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/gen/draft"
	v01 "github.com/ahpgen/ahpgen/gen/v0_1_0_draft_1"
	"github.com/ahpgen/ahpgen/offer"
)

// policy denies the tools it names, asks for a sandbox wherever the host
// lets it merge into a tool's input, and logs what it observes.
type policy struct {
	deny map[string]bool
	log  *slog.Logger
}

// register puts the policy on srv for every snapshot in gen/.
func (p *policy) register(srv *backend.Server) {
	backend.OnIntercept(srv, draft.Snapshot, p.intercept)
	backend.OnObserve(srv, draft.Snapshot, p.observe)
	backend.OnCapabilities(srv, draft.Snapshot, p.capabilities)
	backend.OnIntercept(srv, v01.Snapshot, p.intercept01)
}

func (p *policy) intercept(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
	call, ok := req.Params.Event.(*draft.ToolBeforeEvent)
	if !ok {
		return nil, nil // not a tool call: no decision
	}
	offered := backend.Offered(ctx)
	if p.deny[call.Tool.Name] && offered.Offers(offer.Deny) {
		return []draft.Effect{draft.NewDenyEffect("the tool " + call.Tool.Name + " is not allowed here")}, nil
	}
	if offered.CanModify(offer.TargetInput, offer.Merge) {
		sandbox := draft.NewModifyEffect(draft.ModifyEffectTargetInput, draft.ModifyEffectOperationMerge, ahprt.Value(`{"sandbox":true}`))
		return []draft.Effect{sandbox}, nil
	}
	return nil, nil
}

func (p *policy) observe(ctx context.Context, n *draft.ObserveNotification) error {
	ev := n.Params.Event
	p.log.InfoContext(ctx, "observed", "type", ev.GetType(), "id", ev.GetID(), "time", ev.GetTime())
	return nil
}

// intercept01 is the same policy for protocol version 0.1, which has
// tool.before events and deny effects only.
func (p *policy) intercept01(ctx context.Context, req *v01.InterceptRequest) ([]*v01.DenyEffect, error) {
	name := req.Params.Event.Tool.Name
	if p.deny[name] && backend.Offered(ctx).Offers(offer.Deny) {
		return []*v01.DenyEffect{v01.NewDenyEffect("the tool " + name + " is not allowed here")}, nil
	}
	return nil, nil
}
