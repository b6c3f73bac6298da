package main

import (
	"context"

	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/offer"
)

// capabilities answers hooks/capabilities with what this backend handles:
// tool.before, to deny or to merge into the input. (The draft has a
// harness publish its own manifest this way too; see
// backend.OnCapabilities.)
func (p *policy) capabilities(context.Context, *draft.CapabilitiesRequest) (*draft.StaticCapabilityManifest, error) {
	return &draft.StaticCapabilityManifest{
		Events: []draft.StaticCapabilityManifestEvent{{
			Event: draft.EventTypeToolBefore,
			Modes: []draft.StaticCapabilityManifestEventMode{draft.StaticCapabilityManifestEventModeIntercept},
			Capabilities: &draft.Capabilities{
				Effects: []string{string(offer.Deny), string(offer.Modify)},
				Modify:  &draft.CapabilitiesModify{Input: &draft.ModifyOperations{Merge: true}},
			},
		}},
		Gaps: []draft.StaticCapabilityManifestGap{{Path: "limits", Reason: "this example states no limits"}},
		Transports: []draft.StaticCapabilityManifestTransport{
			draft.StaticCapabilityManifestTransportHTTP, draft.StaticCapabilityManifestTransportStdio,
		},
		Authentication:    []draft.StaticCapabilityManifestAuthenticationItem{},
		ToolPaths:         []string{},
		ContentCategories: []string{},
		ManagedPolicy: draft.StaticCapabilityManifestManagedPolicy{
			Scopes:      []draft.StaticCapabilityManifestManagedPolicyScope{draft.StaticCapabilityManifestManagedPolicyScopeUser},
			Disableable: true,
		},
		CorrelationIdentityFields: []string{},
	}, nil
}
