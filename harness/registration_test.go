package harness_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/conformance"
	"github.com/ahpgen/ahpgen/harness"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// TestLoadFixtures: Load agrees with every registration fixture of the
// upstream manifests, for both snapshots.
func TestLoadFixtures(t *testing.T) {
	root, _ := testenv.AHPRoot(t)
	n := 0
	for _, snap := range []string{"draft", "0.1.0-draft.1"} {
		data, err := os.ReadFile(filepath.Join(root, "fixtures", snap, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m conformance.Manifest
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		for _, c := range m.Cases {
			if c.Binding != "registration-json" {
				continue
			}
			n++
			reg, err := harness.LoadFile(filepath.Join(root, c.Path))
			if (err == nil) != c.ExpectedValid {
				t.Errorf("%s: want valid=%v, got %v", c.ID, c.ExpectedValid, err)
				continue
			}
			if err != nil {
				var ce *harness.ConfigError
				if !errors.As(err, &ce) || !strings.HasSuffix(ce.File, filepath.FromSlash(c.Path)) {
					t.Errorf("%s: %v is not a ConfigError naming the file", c.ID, err)
				}
				continue
			}
			if reg.Snapshot.Key != snap {
				t.Errorf("%s: snapshot %s", c.ID, reg.Snapshot.Key)
			}
		}
	}
	if n == 0 {
		t.Fatal("no registration fixtures")
	}
}

// TestLoadRefuses: what no schema states, refused with the file and the
// member's JSON Pointer.
func TestLoadRefuses(t *testing.T) {
	sub := intercept(`["tool.before"]`, 500, "fail-open")
	obs := observe(`["tool.after"]`)
	for _, c := range []struct {
		name, doc, pointer, reason string
	}{
		{"not JSON", `{"protocolVersion":`, "/protocolVersion", "not a JSON document"},
		{"duplicate member", `{"protocolVersion":"draft","protocolVersion":"draft","hooks":[]}`, "/protocolVersion", "not a JSON document"},
		{"no version", `{"hooks":[]}`, "/protocolVersion", "missing"},
		{"unknown version", `{"protocolVersion":"2026-12-15","hooks":[]}`, "/protocolVersion", `unsupported protocol version "2026-12-15" (supported: "draft", "0.1")`},
		{"schema", `{"protocolVersion":"draft","hooks":[]}`, "/hooks", "not a valid draft registration"},
		{"no failure policy", string(registration(hook{"com.example.a", httpTransport("https://a.example"), []string{strings.Replace(sub, `,"failurePolicy":"fail-open"`, "", 1)}})),
			"/hooks/0/subscriptions/0", "not a valid draft registration"},
		{"duplicate id", string(registration(hook{"com.example.a", httpTransport("https://a.example"), []string{sub}}, hook{"com.example.a", httpTransport("https://b.example"), []string{sub}})),
			"/hooks/1/id", "not a valid draft registration"}, // the generated rule
		{"same event twice", string(registration(hook{"com.example.a", httpTransport("https://a.example"), []string{sub, intercept(`["tool.after","tool.before"]`, 100, "fail-closed")}})),
			"/hooks/0/subscriptions/1/events/1", `"tool.before" overlaps "tool.before" of /hooks/0/subscriptions/0`},
		{"family and event", string(registration(hook{"com.example.a", httpTransport("https://a.example"), []string{sub, intercept(`["tool.*"]`, 100, "fail-closed")}})),
			"/hooks/0/subscriptions/1/events/0", `"tool.*" overlaps "tool.before"`},
		{"everything and a family", string(registration(hook{"com.example.a", httpTransport("https://a.example"), []string{obs, observe(`["*"]`)}})),
			"/hooks/0/subscriptions/1/events/0", `"*" overlaps "tool.after"`},
		{"plain http", string(registration(hook{"com.example.a", httpTransport("http://policy.example/hooks"), []string{sub}})),
			"/hooks/0/transport/url", "plain http is for loopback hosts only"},
		{"credentials in the URL", string(registration(hook{"com.example.a", httpTransport("https://user:pw@policy.example/hooks"), []string{sub}})),
			"/hooks/0/transport/url", "credentials in a URL"},
		{"literal token", string(registration(hook{"com.example.a", httpTransport("https://policy.example/hooks") + `,"authentication":{"type":"bearer","tokenEnv":"AHP_TOKEN","token":"s3cr3t-literal"}`, []string{sub}})),
			"/hooks/0/authentication/token", "a literal credential in a registration is not allowed"},
		{"literal client secret", string(registration(hook{"com.example.a", httpTransport("https://policy.example/hooks") + `,"authentication":{"type":"oauth","issuer":"https://issuer.example","resource":"https://policy.example","clientId":"c","flow":"client_credentials","clientSecret":"s3cr3t-literal"}`, []string{sub}})),
			"/hooks/0/authentication/clientSecret", "a literal credential"},
	} {
		_, err := harness.Load("hooks.json", []byte(c.doc))
		var ce *harness.ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if ce.File != "hooks.json" || ce.Pointer != c.pointer || !strings.Contains(ce.Reason, c.reason) {
			t.Errorf("%s: got %q at %q: %q", c.name, ce.File, ce.Pointer, ce.Reason)
		}
		if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%s: the error quotes the secret: %v", c.name, err)
		}
	}
	// Both modes for one event are fine, and so are loopback http and
	// families that do not meet.
	ok := registration(hook{"com.example.a", httpTransport("http://127.0.0.1:1/x"), []string{sub, obs, intercept(`["model.*"]`, 100, "fail-closed")}},
		hook{"com.example.b", httpTransport("http://[::1]:1/x"), []string{sub}}, hook{"com.example.c", httpTransport("http://localhost:1/"), []string{obs}})
	if _, err := harness.Load("ok.json", ok); err != nil {
		t.Error(err)
	}
}

// TestNewRefuses: what the harness cannot honor is refused before
// anything runs.
func TestNewRefuses(t *testing.T) {
	sub := intercept(`["tool.before"]`, 500, "fail-open")
	for _, c := range []struct {
		name, doc string
		opts      []harness.Option
		want      string
	}{
		{"oauth without a secret", strings.Replace(string(registration(hook{"com.example.a", httpTransport("https://a.example"), []string{sub}})), `"subscriptions"`,
			`"authentication":{"type":"oauth","resource":"r","issuer":"https://issuer.example","clientId":"c","flow":"client_credentials"},"subscriptions"`, 1),
			nil, `/hooks/0/authentication: OAuth client_credentials needs the client's secret`},
		{"oauth without a secret store", strings.Replace(string(registration(hook{"com.example.a", httpTransport("https://a.example"), []string{sub}})), `"subscriptions"`,
			`"authentication":{"type":"oauth","resource":"r","issuer":"https://issuer.example","clientId":"c","clientSecretRef":"vault:c","flow":"client_credentials"},"subscriptions"`, 1),
			nil, `/hooks/0/authentication/clientSecretRef: a clientSecretRef needs a secret store`},
		{"oauth with a user", strings.Replace(string(registration(hook{"com.example.a", httpTransport("https://a.example"), []string{sub}})), `"subscriptions"`,
			`"authentication":{"type":"oauth","resource":"r","issuer":"https://issuer.example","clientId":"c","flow":"authorization_code_pkce"},"subscriptions"`, 1),
			nil, `/hooks/0/authentication/flow: OAuth flow "authorization_code_pkce" needs a user at a browser`},
		{"tokenRef", strings.Replace(string(registration(hook{"com.example.a", httpTransport("https://a.example"), []string{sub}})), `"subscriptions"`,
			`"authentication":{"type":"bearer","tokenRef":"vault:policy"},"subscriptions"`, 1),
			nil, "/hooks/0/authentication/tokenRef: a tokenRef needs a secret store"},
		{"0.1 observers", `{"protocolVersion":"0.1","hooks":[{"id":"com.example.a","transport":{"type":"stdio","command":"x","lifecycle":"per_event"},"subscriptions":[{"events":["tool.after"],"mode":"observe"}]}]}`,
			nil, "/hooks/0/subscriptions/0: snapshot 0.1.0-draft.1 defines no hooks/observe"},
		{"capabilities out of bounds", string(registration(hook{"com.example.a", httpTransport("https://a.example"), []string{sub}})),
			[]harness.Option{harness.WithCapabilities("tool.after", caps(`{"effects":["deny"]}`))}, "the capabilities for tool.after are not valid"},
		{"capabilities for an unknown event type", string(registration(hook{"com.example.a", httpTransport("https://a.example"), []string{sub}})),
			[]harness.Option{harness.WithCapabilities("tool.befor", caps(`{"effects":["deny"]}`))}, `harness: WithCapabilities("tool.befor"): snapshot draft has no event type "tool.befor"`},
		{"capabilities for an observe-only event type", string(registration(hook{"com.example.a", httpTransport("https://a.example"), []string{sub}})),
			[]harness.Option{harness.WithCapabilities("session.end", caps(`{"effects":[]}`))}, `harness: WithCapabilities("session.end"): session.end is not interceptable in snapshot draft`},
		{"0.1 capabilities for another event type", `{"protocolVersion":"0.1","hooks":[{"id":"com.example.a","transport":{"type":"stdio","command":"x","lifecycle":"per_event"},"subscriptions":[{"events":["tool.before"],"mode":"intercept","timeoutMs":500,"failurePolicy":"fail-open"}]}]}`,
			[]harness.Option{harness.WithCapabilities("tool.after", caps(`{"effects":["deny"]}`))}, `harness: WithCapabilities("tool.after"): snapshot 0.1.0-draft.1 has no event type "tool.after"`},
		{"tool.before without deny", string(registration(hook{"com.example.a", httpTransport("https://a.example"), []string{sub}})),
			[]harness.Option{harness.WithCapabilities("tool.before", caps(`{"effects":["allow","ask"]}`))}, "capabilities for tool.before do not offer deny: a harness intercepting tool.before must advertise and enforce it (AHP-CAP-002)"},
		{"an effect the harness cannot apply", `{"protocolVersion":"0.1","hooks":[{"id":"com.example.a","transport":{"type":"stdio","command":"x","lifecycle":"per_event"},"subscriptions":[{"events":["tool.before"],"mode":"intercept","timeoutMs":500,"failurePolicy":"fail-open"}]}]}`,
			[]harness.Option{harness.WithCapabilities("tool.before", caps(`{"effects":["deny","com.example.audit"]}`))}, `harness: the capabilities for tool.before offer effect "com.example.audit", which this harness cannot apply (it applies the standard effect types: package offer's)`},
		{"capabilities not JSON", string(registration(hook{"com.example.a", httpTransport("https://a.example"), []string{sub}})),
			[]harness.Option{harness.WithCapabilities("tool.before", caps(`{"effects":`))}, "capabilities for tool.before"},
	} {
		reg, err := harness.Load("hooks.json", []byte(c.doc))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if _, err := harness.New(reg, c.opts...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestAuthTypesRefused: authentication other than bearer and oauth (mtls,
// workload: deployment-specific, no portable AHP variant, AHP-AUTH-001)
// is refused. Load refuses it (the generated check does, for both
// snapshots) with a ConfigError naming the file and the member; and New
// refuses a registration built otherwise that carries one, naming the
// authentication, before anything is sent.
func TestAuthTypesRefused(t *testing.T) {
	sub := intercept(`["tool.before"]`, 500, "fail-open")
	for _, typ := range []string{"mtls", "workload"} {
		for _, doc := range []string{
			string(registration(hook{"com.example.a", httpTransport("https://a.example") + `,"authentication":{"type":"` + typ + `","tokenEnv":"AHP_TOKEN"}`, []string{sub}})),
			`{"protocolVersion":"0.1","hooks":[{"id":"com.example.a","transport":{"type":"http","url":"https://a.example"},"authentication":{"type":"` + typ +
				`","tokenEnv":"AHP_TOKEN"},"subscriptions":[{"events":["tool.before"],"mode":"intercept","timeoutMs":500,"failurePolicy":"fail-open"}]}]}`,
		} {
			_, err := harness.Load("hooks.json", []byte(doc))
			var ce *harness.ConfigError
			if !errors.As(err, &ce) || ce.File != "hooks.json" || ce.Pointer != "/hooks/0/authentication/type" {
				t.Errorf("%s: %v, want a ConfigError at /hooks/0/authentication/type\n%s", typ, err, doc)
			}
		}
		reg, err := harness.Load("hooks.json", registration(hook{"com.example.a", httpTransport("https://a.example") + `,"authentication":{"type":"bearer","tokenEnv":"AHP_TOKEN"}`, []string{sub}}))
		if err != nil {
			t.Fatal(err)
		}
		reg.Backends[0].Auth = &harness.Auth{Type: typ, TokenEnv: "AHP_TOKEN"}
		h, err := harness.New(reg)
		var ce *harness.ConfigError
		if !errors.As(err, &ce) || ce.Pointer != "/hooks/0/authentication" || !strings.Contains(ce.Reason, `authentication "`+typ+`" is not supported`) {
			t.Errorf("New with %s authentication: %v", typ, err)
		}
		if h != nil {
			h.Close()
		}
	}
}
