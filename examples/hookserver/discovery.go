package main

import (
	"context"

	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/offer"
)

// capabilities answers hooks/capabilities with what this backend handles:
// tool.before, to deny or to merge into the input.
func (p *policy) capabilities(context.Context, *draft.CapabilitiesRequest) (*draft.CapabilitiesResponseResultManifest, error) {
	return &draft.CapabilitiesResponseResultManifest{
		Events: []draft.CapabilitiesResponseResultManifestEvent{{
			Event: draft.EventTypeToolBefore,
			Modes: []draft.CapabilitiesResponseResultManifestEventMode{draft.CapabilitiesResponseResultManifestEventModeIntercept},
			Capabilities: &draft.Capabilities{
				Effects: []string{string(offer.Deny), string(offer.Modify)},
				Modify:  &draft.CapabilitiesModify{Input: &draft.ModifyOperations{Merge: true}},
			},
		}},
		Gaps: []draft.CapabilitiesResponseResultManifestGap{{Path: "limits", Reason: "this example states no limits"}},
		Transports: []draft.CapabilitiesResponseResultManifestTransport{
			draft.CapabilitiesResponseResultManifestTransportHTTP, draft.CapabilitiesResponseResultManifestTransportStdio,
		},
		Authentication:    []draft.CapabilitiesResponseResultManifestAuthenticationItem{},
		ToolPaths:         []string{},
		ContentCategories: []string{},
		ManagedPolicy: draft.CapabilitiesResponseResultManifestManagedPolicy{
			Scopes:      []draft.CapabilitiesResponseResultManifestManagedPolicyScope{draft.CapabilitiesResponseResultManifestManagedPolicyScopeUser},
			Disableable: true,
		},
		CorrelationIdentityFields: []string{},
	}, nil
}
