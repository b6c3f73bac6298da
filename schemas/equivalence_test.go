package schemas_test

// The project keeps its own rendition of the AHP draft schema snapshot in
// schemas/draft; upstream keeps the reference documents in schema/draft
// (singular root). These tests prove that the rendition is a drop-in
// replacement for them: same file names, same $ids, same $defs pointers,
// and the same verdict on every golden fixture and on a deterministic
// corpus of near-valid mutants derived from those fixtures, from
// hand-written seeds and from intercept requests built out of the observe
// fixtures. They also guard the rendition's authorship rules and its
// manifest. The machinery is in harness_test.go.

import (
	"encoding/json"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"testing"
)

const (
	mutantSeed1        = 0x41485020 // "AHP "
	mutantSeed2        = 0x64726166 // "draf"
	mutantsPerGroup    = 200
	minMutantsPerSeed  = 10
	minMutantsPerExtra = 50
	maxBannedDepth     = 3
)

var draftSnapshot = &snapshot{
	key:           "draft",
	upstreamDir:   "schema/draft",
	fixtureField:  "snapshotVersion",
	wireVersion:   "draft",
	status:        "draft",
	titleSuffix:   " (Draft)",
	commentPrefix: "AHP draft snapshot.",
	keywords: strings.Fields(`$schema $id $ref $defs $comment title description type properties
		required additionalProperties patternProperties propertyNames items prefixItems contains
		minContains maxContains minItems maxItems uniqueItems minLength maxLength pattern format
		minimum maximum exclusiveMinimum exclusiveMaximum multipleOf const enum allOf anyOf oneOf
		not if then else minProperties maxProperties dependentRequired default examples`),
	annotations: true,
	summary:     "schema equivalence",
	// The draft's random mutation kinds, in the order (and with the shares)
	// its generator has always drawn them.
	mutations: []mutation{
		dropMember,
		addMember(unknownKeys),
		transplantObserved,
		swapObserved,
		retype(false),
		emptyString,
		swapEnumInSet, swapEnumInSet,
		breakFormat(brokenDateTimes, brokenURIs),
		edgeNumber([]json.Number{"1.0", "-1", "1.5", "0"}, false),
		duplicateItem,
		emptyArray,
		swapDeclared(discriminatorNames, 2), swapDeclared(discriminatorNames, 2),
		probeDomain(domainValues), probeDomain(domainValues),
		flipOrAppendDomain(domainValues),
	},
}

// draftSystematic are the systematic families applied to the hand-written
// seeds, the first seed of each group and one derived request.
var draftSystematic = []edits{
	dropEach, addBannedEach(maxBannedDepth), emptyStringEach, setNullEach, emptyOrDuplicateEach,
	domainValueEach(domainValues), extensionProbeEach(extensionKeyProbes),
}

// draftDerivedSystematic are the families applied to the capabilities of
// the other derived requests.
var draftDerivedSystematic = []edits{domainValueEach(domainValues), extensionProbeEach(extensionKeyProbes)}

var (
	discriminatorNames = []string{"type", "operation", "mode", "selection", "kind", "status", "target"}
	// extensionKeyProbes are member names tried on every extensions object.
	extensionKeyProbes = []string{"nodots", "a.b", "a.b!", "1a.b", "a..b", "a.b.", "A_b.c-d9", ".a.b", "a.b c"}
	unknownKeys        = []string{
		"zzUnknownMember", "vendor.example.flag", "undotted", "size", "sha256", "id", "manifest",
		"identity", "effects", "error", "result", "timeoutMs", "failurePolicy", "authentication",
		"contentReceiver", "synthesized", "extensions", "native", "category", "gap", "text", "body",
		"upload", "capabilities", "state", "instruction", "code", "value", "provenance",
	}
	brokenDateTimes = []string{
		"2024-02-30T10:00:00Z", "2024-01-01 10:00:00Z", "2024-01-01T25:00:00Z", "2024-01-01T10:00:00",
		"2024-01-01", "2023-02-29T00:00:00Z", "2024-02-29T23:59:60Z", "2024-12-31t10:00:00.123+01:00",
	}
	brokenURIs = []string{
		"not a uri", "example.com/path", "http://exa mple.com/", "/relative/path", "http://example.com/hook",
		"ftp://example.com/x", "https://", "http://localhost:8080/x", "http://127.0.0.1/x", "http://[::1]:9/",
		"urn:example:thing", "https://example.com/%zz",
	}
)

// ---------------------------------------------------------------------------
// Tests.

// TestDocumentsAndPointers: same files, same $ids, every upstream $defs
// entry present at the same pointer and compiling on our side.
func TestDocumentsAndPointers(t *testing.T) { checkDocumentsAndPointers(t, draftSnapshot) }

// TestOwnWording checks that no title, description or $comment of ours
// repeats upstream prose, either whole or sentence by sentence.
func TestOwnWording(t *testing.T) { checkOwnWording(t, draftSnapshot) }

// TestAuthoringRules checks the conventions every document of the rendition
// follows: keyword allowlist, top-level keyword order, title and $comment
// markers, indentation, and the draft protocol version constant.
func TestAuthoringRules(t *testing.T) { checkAuthoringRules(t, draftSnapshot) }

// TestManifest: the project's manifest format, sorted, complete, and with
// the ids and hashes of the current files.
func TestManifest(t *testing.T) { checkManifest(t, draftSnapshot) }

// draftFixtures are the fixtures that are one JSON value each.
func draftFixtures(t *testing.T, sd *sides) []fixture {
	t.Helper()
	var out []fixture
	for _, fx := range loadFixtures(t, sd) {
		if fx.parseErr != nil {
			t.Logf("fixture %s is not a single JSON value (%v); not validated", fx.ID, fx.parseErr)
			continue
		}
		out = append(out, fx)
	}
	return out
}

// TestFixtureEquivalence compares verdicts on every fixture, against its
// own schema, the aggregate schema and, for observe and intercept
// messages, the event body against its event schema.
func TestFixtureEquivalence(t *testing.T) {
	sd := loadSides(t, draftSnapshot)
	var tl tally
	for _, fx := range draftFixtures(t, sd) {
		tl.add("fixtures", fx.ref, fx.doc, "fixture "+fx.ID, "")
		tl.add("fixtures", "schema.json", fx.doc, "fixture "+fx.ID+" (aggregate)", "")
		if fx.eventRef != "" {
			ev, ok := resolvePointer(fx.doc, "/params/event")
			if !ok {
				t.Logf("fixture %s names an eventSchema but has no /params/event", fx.ID)
				continue
			}
			tl.add("fixtures", fx.eventRef, ev, "fixture "+fx.ID+" (event)", "/params/event")
		}
	}
	tl.run(t, sd)
	tl.report(t, draftSnapshot.summary, "fixtures")
}

// TestMutantEquivalence compares verdicts on the random and systematic
// mutants of the seeds.
func TestMutantEquivalence(t *testing.T) {
	// The validators allocate heavily; trade memory for fewer collections.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	sd := loadSides(t, draftSnapshot)
	seeds := mutationSeeds(t, sd)
	docs := make([]any, len(seeds))
	for i, sdd := range seeds {
		docs[i] = sdd.doc
	}
	p := collectPools(docs, sd.upstream, sd.ours)
	rng := rand.New(rand.NewPCG(mutantSeed1, mutantSeed2))

	// Every group of seeds sharing a primary schema gets a similar share of
	// mutants, so that rarely exercised documents are not drowned out by
	// the many event fixtures.
	groupSize := map[string]int{}
	for _, sdd := range seeds {
		groupSize[sdd.refs[0]]++
	}
	var tl tally
	for _, sdd := range seeds {
		n := max(sdd.minMutants, (mutantsPerGroup+groupSize[sdd.refs[0]]-1)/groupSize[sdd.refs[0]])
		for i := 0; i < n; i++ {
			// Half of the mutants of a wire message leave the event body
			// alone: the event documents get their own share through the
			// observe fixtures, and the envelope, capabilities, state and
			// effects would otherwise be hit rarely.
			skip := ""
			if i%2 == 1 {
				skip = "/params/event"
			}
			m, ok := mutateStacked(rng, p, draftSnapshot.mutations, sdd.doc, skip)
			if !ok {
				continue
			}
			for _, ref := range sdd.refs {
				tl.add("random mutants", ref, m.doc, sdd.name+": "+m.desc, m.ptr)
			}
		}
	}
	// Systematic pass, outside event bodies (which get their share from the
	// random pass), over the hand-written seeds, the first seed of each
	// group and one derived request that carries control state: drop every
	// member, add every member name some schema forbids somewhere, set every
	// string to "", every value to null and every array to [] or to itself
	// plus a copy of its first item, and try every domain value. The other
	// derived requests get the domain values for their capabilities. These
	// mutants are validated against the seed's primary schema only.
	firstOfGroup := map[string]bool{}
	for _, sdd := range seeds {
		full := sdd.systematic || !firstOfGroup[sdd.refs[0]]
		firstOfGroup[sdd.refs[0]] = true
		var ms []mutant
		switch {
		case sdd.event:
		case full:
			ms = systematicMutants(p, sdd.doc, notBelow("/params/event"), draftSystematic...)
		case sdd.derived:
			ms = systematicMutants(p, sdd.doc, atOrBelow("/params/capabilities"), draftDerivedSystematic...)
		}
		for _, m := range ms {
			tl.add("systematic edits", sdd.refs[0], m.doc, sdd.name+": "+m.desc, m.ptr)
		}
	}
	tl.run(t, sd)
	tl.report(t, draftSnapshot.summary, "mutants")
}

// ---------------------------------------------------------------------------
// Mutation vocabulary and seeds: every fixture, plus hand-written documents
// that reach schema features no fixture exercises, plus intercept requests
// derived from the observe fixtures.

// domainValues lists, per member name, values that probe the patterns,
// formats and enums attached to members of that name. Array items use the
// name of the member holding the array.
var domainValues = map[string][]any{
	"mediaType": {"text/markdown", "TEXT/PLAIN", "application/json", "application/ld+json", "application/vnd.api+json; charset=utf-8",
		"application/JSON;q=1", "image/svg+xml", "application/jsonl", "application/json-seq", "image/png", "noslash", ""},
	"sha256": {"", strings.Repeat("a", 63), strings.Repeat("A", 64), strings.Repeat("0", 65), strings.Repeat("f", 64),
		strings.Repeat("0", 64) + "\n"},
	"tokenEnv":        {"1TOKEN", "TOKEN_1", "bad-name", "_x", ""},
	"code":            {"nodot", "a.b", "1a.b", "a..b", "a.b-c_d", "A.b.", ""},
	"id":              {"x", "a.b", json.Number("1"), json.Number("-3"), json.Number("1.5"), "", nil},
	"events":          {"*", "tool.*", "Tool.*", "tool.before.*", "**", "session.end", "turn.end", "unknown.event", "hook.failure"},
	"endpoint":        {"https://up.example.org/x", "http://localhost", "http://localhost:80/", "http://127.0.0.1:9/a", "http://[::1]/", "http://example.org/", "http://localhost.evil.org/", "https:/x", "ftp://x/"},
	"url":             {"https://example.org/h", "http://example.org/h", "ftp://example.org/", "https:example", "not a url"},
	"issuer":          {"https://login.example.org/", "http://login.example.org/", "https://", "urn:x:y"},
	"source":          {"https://example.org/src", "urn:example:src", "relative", "http://exa mple/"},
	"protocolVersion": {"draft", "1900-01-01", "0.1", ""},
	"jsonrpc":         {"2.0", "2", "1.0", json.Number("2")},
	"method":          {"hooks/intercept", "hooks/observe", "hooks/capabilities", "", "hooks/unknown"},
	"effects":         {"deny", "allow", "ask", "modify", "message", "return", "flow", "inject", "org.example.effect", "nodots", "Deny"},
	"operations":      {"stop", "continue", "pause"},
	"deliverAt":       {"now", "next_turn", "later"},
	"modes":           {"observe", "intercept", "notify"},
	"scopes":          {"user", "project", "managed", "global"},
	"transports":      {"http", "stdio", "in_process", "grpc"},
	"authentication":  {"bearer", "oauth", "basic"},
	"role":            {"system", "developer", "user", "assistant", "tool", "model"},
	"selection":       {"body", "metadata", "omit", "full"},
	"default":         {"body", "metadata", "omit", "all"},
	"flow":            {"authorization_code_pkce", "client_credentials", "none", "stop", "continue", "implicit"},
	"time":            {"2026-01-01T00:00:00Z", "2026-01-01T00:00:00.5+05:30", "2026-13-01T00:00:00Z", "20260101T000000Z"},
	"lifecycle":       {"persistent", "per_event", "daemon"},
	"failurePolicy":   {"fail-open", "fail-closed", "retry"},
	"permission":      {"none", "allow", "ask", "deny", "maybe"},
	"append":          {true, false},
	"disableable":     {true, false},
	"replace":         {true, false},
	"merge":           {true, false},
	"includeNative":   {true, false, "yes"},
	"candidate":       {nil, map[string]any{"value": nil}, map[string]any{"provenance": map[string]any{}}, map[string]any{"value": 1, "provenance": "p"}, "x"},
	"result":          {map[string]any{}, map[string]any{"protocolVersion": "draft", "effects": []any{}}, nil},
	"error":           {map[string]any{"code": json.Number("-32601"), "message": "m"}, map[string]any{"code": json.Number("1.5"), "message": "m"}, map[string]any{}},
}

type seed struct {
	name       string
	refs       []string // schemas each mutant is validated against; the first names its group
	doc        any
	minMutants int
	systematic bool // also derive the systematic single-step mutants
	event      bool // the seed is an event body
	derived    bool // the seed is an intercept request built from an observe fixture
}

// extraSeeds are written to be valid; each names the schemas it targets.
var extraSeeds = []struct {
	name string
	refs []string
	json string
}{
	{"seed.registration-full", []string{"registration.schema.json"}, `{
	  "protocolVersion": "draft",
	  "hooks": [
	    {
	      "id": "org.example.gate",
	      "transport": {"type": "http", "url": "https://gate.example.org/ahp"},
	      "authentication": {"type": "oauth", "resource": "https://gate.example.org/", "issuer": "https://login.example.org/",
	        "clientId": "gate-client", "clientSecretRef": "vault:gate", "flow": "client_credentials", "scopes": ["hooks.read", "hooks.write"]},
	      "subscriptions": [
	        {"events": ["tool.before", "model.*"], "mode": "intercept", "timeoutMs": 900, "failurePolicy": "fail-open", "includeNative": true,
	         "content": {"default": "omit", "text": "body", "reasoning": "metadata", "images": "omit", "audio": "omit", "video": "metadata", "files": "body", "skills": "omit"},
	         "upload": {"endpoint": "https://uploads.example.org/put", "auth": {"type": "bearer", "tokenRef": "vault:upload"}, "timeoutMs": 3000, "maxBytes": 1048576},
	         "filters": {"toolKinds": ["shell", "edit"], "paths": ["src/**"]},
	         "scope": "managed", "disableable": false},
	        {"events": ["*"], "mode": "observe", "content": {"default": "metadata"}, "scope": "user", "disableable": true,
	         "upload": {"endpoint": "http://localhost:8080/upload", "timeoutMs": 1, "maxBytes": 0}}
	      ]
	    },
	    {
	      "id": "org.example.local",
	      "transport": {"type": "stdio", "command": "local-hook", "args": ["--serve"], "lifecycle": "per_event", "cwd": "/tmp"},
	      "subscriptions": [
	        {"events": ["session.end", "file.changed"], "mode": "observe", "includeNative": false, "content": {"default": "body"}, "scope": "project"}
	      ]
	    }
	  ]
	}`},
	{"seed.content-upload", []string{"content-upload.schema.json"},
		`{"endpoint": "http://127.0.0.1:9000/u?x=1", "auth": {"type": "bearer", "tokenEnv": "UPLOAD_TOKEN"}, "timeoutMs": 10, "maxBytes": 5}`},
	{"seed.content-upload-oauth", []string{"content-upload.schema.json"},
		`{"endpoint": "https://up.example.org", "auth": {"type": "oauth", "resource": "r", "issuer": "https://id.example.org", "clientId": "c", "flow": "authorization_code_pkce"}, "timeoutMs": 1, "maxBytes": 0}`},
	{"seed.upload-receipt", []string{"content-upload-receipt.schema.json"},
		`{"ref": "blob-1", "size": 42, "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}`},
	{"seed.content-reference", []string{"content-reference.schema.json"}, `{"ref": "blob-1"}`},
	{"seed.content-selection", []string{"content-selection.schema.json"}, `{"default": "body", "images": "omit", "skills": "metadata"}`},
	{"seed.messages", []string{"content-item.schema.json#/$defs/messages"}, `[
	  {"id": "m1", "role": "user", "synthesized": false, "parts": [
	    {"id": "p1", "kind": "text", "mediaType": "text/plain", "selection": "body", "text": "hi", "category": "text", "synthesized": true},
	    {"id": "p2", "kind": "text", "mediaType": "text/plain", "selection": "body", "gap": {"reason": "too_large", "path": "/x"}, "size": 10,
	     "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
	    {"id": "p3", "kind": "text", "mediaType": "text/plain", "selection": "metadata", "size": 3,
	     "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "category": "reasoning"},
	    {"id": "p4", "kind": "text", "mediaType": "text/plain", "selection": "omit"},
	    {"id": "p5", "kind": "attachment", "mediaType": "image/png", "selection": "body", "body": {"ref": "blob-1"}, "category": "images"},
	    {"id": "p6", "kind": "attachment", "mediaType": "audio/ogg", "selection": "body", "gap": {"reason": "upload_failed"}},
	    {"id": "p7", "kind": "attachment", "mediaType": "application/pdf", "selection": "metadata", "size": 100,
	     "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
	    {"id": "p8", "kind": "attachment", "mediaType": "video/mp4", "selection": "omit", "size": 0, "synthesized": false}
	  ]},
	  {"id": "m2", "role": "developer", "parts": []}
	]`},
	{"seed.text-parts", []string{"content-item.schema.json#/$defs/textParts"}, `[
	  {"id": "t1", "kind": "text", "mediaType": "text/plain", "selection": "body", "text": ""},
	  {"id": "t2", "kind": "text", "mediaType": "text/plain", "selection": "metadata", "size": 0}
	]`},
	{"seed.all-effects", []string{"intercept-response.schema.json", "schema.json"}, `{
	  "jsonrpc": "2.0", "id": "evt-1",
	  "result": {"protocolVersion": "draft", "extensions": {"org.example.trace": {"span": 1}}, "effects": [
	    {"type": "deny", "reason": "blocked", "code": "org.example.policy", "extensions": {"org.example.x": 1}},
	    {"type": "allow"},
	    {"type": "ask"},
	    {"type": "modify", "target": "input", "operation": "merge", "value": {"command": "ls"}},
	    {"type": "modify", "target": "output", "operation": "replace", "value": [
	      {"id": "m1", "role": "tool", "parts": [{"id": "p1", "kind": "text", "mediaType": "text/plain", "selection": "body", "text": "ok"}]}]},
	    {"type": "modify", "target": "content", "operation": "replace", "value": {"answer": 1}},
	    {"type": "modify", "target": "prompt", "operation": "merge", "value": []},
	    {"type": "modify", "target": "summary", "operation": "replace", "value": [
	      {"id": "p1", "kind": "text", "mediaType": "text/plain", "selection": "body", "text": "sum"}]},
	    {"type": "modify", "target": "workspace", "operation": "merge", "value": {"roots": []}},
	    {"type": "message", "text": ""},
	    {"type": "return", "value": null},
	    {"type": "flow", "operation": "stop", "reason": "done"},
	    {"type": "flow", "operation": "continue", "instruction": "keep going"},
	    {"type": "inject", "target": "context", "operation": "append", "deliverAt": "next_turn", "value": []}
	  ]}
	}`},
	{"seed.deny-only", []string{"intercept-deny-response.schema.json", "intercept-response.schema.json"},
		`{"jsonrpc": "2.0", "id": 7, "result": {"protocolVersion": "draft", "effects": [{"type": "deny", "reason": "no", "code": "a.b"}], "extensions": {"a.b": true}}}`},
	{"seed.no-effect", []string{"intercept-no-effect-response.schema.json", "intercept-response.schema.json"},
		`{"jsonrpc": "2.0", "id": "e", "result": {"protocolVersion": "draft", "effects": [], "extensions": {"org.example.k": [1]}}}`},
	{"seed.error-null-id", []string{"json-rpc-message.schema.json", "schema.json"},
		`{"jsonrpc": "2.0", "id": null, "error": {"code": -32001, "message": "unsupported", "data": {"supported": ["draft"]}}}`},
	{"seed.request", []string{"json-rpc-message.schema.json"}, `{"jsonrpc": "2.0", "id": 0, "method": "x/y", "params": {}}`},
	{"seed.notification", []string{"json-rpc-message.schema.json"}, `{"jsonrpc": "2.0", "method": "n", "params": {"a": 1}}`},
	{"seed.success", []string{"json-rpc-message.schema.json"}, `{"jsonrpc": "2.0", "id": "a", "result": {}}`},
	{"seed.capabilities-request", []string{"capabilities-request.schema.json", "schema.json"},
		`{"jsonrpc": "2.0", "id": 12, "method": "hooks/capabilities", "params": {"protocolVersion": "draft"}}`},
	{"seed.capabilities", []string{"capabilities.schema.json"}, `{
	  "effects": ["modify", "inject", "flow", "message", "org.example.effect"],
	  "modify": {"output": {"replace": true, "merge": false}, "workspace": {"replace": false, "merge": true}},
	  "flow": {"operations": ["stop", "continue"], "remainingContinuations": 2, "continuationCount": 0, "maxContinuations": 3},
	  "inject": {"context": {"append": true, "deliverAt": ["now", "next_turn"]}},
	  "elicitation": {"form": {}, "url": {}}
	}`},
	{"seed.capabilities-tool-after", []string{"capabilities.schema.json#/$defs/tool.after", "capabilities.schema.json"}, `{
	  "effects": ["modify", "inject", "flow", "message"],
	  "modify": {"output": {"replace": true, "merge": false}},
	  "flow": {"operations": ["stop", "continue"], "remainingContinuations": 2, "continuationCount": 0, "maxContinuations": 3},
	  "inject": {"context": {"append": true, "deliverAt": ["now", "next_turn"]}}
	}`},
	{"seed.capabilities-turn-finish", []string{"capabilities.schema.json#/$defs/turn.finish.before"}, `{
	  "effects": ["modify", "flow"],
	  "modify": {"response": {"replace": true, "merge": true}},
	  "flow": {"operations": ["continue"], "remainingContinuations": 0, "continuationCount": 0}
	}`},
	{"seed.capabilities-response", []string{"capabilities-response.schema.json", "schema.json"}, `{
	  "jsonrpc": "2.0", "id": 3,
	  "result": {"protocolVersion": "draft", "manifest": {
	    "events": [
	      {"event": "tool.before", "modes": ["observe", "intercept"], "capabilities": {"effects": ["deny", "allow", "modify", "flow"],
	        "modify": {"input": {"replace": true, "merge": true}}, "flow": {"operations": ["stop"]}}},
	      {"event": "tool.after", "modes": ["intercept"], "capabilities": {"effects": ["flow", "message"],
	        "flow": {"operations": ["continue"], "remainingContinuations": 1, "continuationCount": 0}}},
	      {"event": "session.end", "modes": ["observe"]},
	      {"event": "user.message.outbound", "modes": ["intercept", "observe"], "capabilities": {"effects": ["modify"], "modify": {"content": {"replace": false, "merge": true}}}}
	    ],
	    "gaps": [],
	    "transports": ["in_process"],
	    "authentication": ["oauth", "bearer"],
	    "toolPaths": [],
	    "contentCategories": ["text", "images"],
	    "limits": {},
	    "managedPolicy": {"scopes": ["managed", "user"], "disableable": false},
	    "correlationIdentityFields": ["id"]
	  }}
	}`},
	{"seed.session", []string{"common.schema.json#/$defs/session"},
		`{"id": "s", "cwd": "/", "workspaceRoots": ["/a"], "model": "m", "agent": {"id": "a", "type": "sub"}, "synthesized": true}`},
}

// interceptCapabilities holds a valid, rich capability offer per
// interceptable event, used to turn observe fixtures into intercept requests.
var interceptCapabilities = map[string]string{
	"session.start":            `{"effects": ["inject", "message"], "inject": {"context": {"append": true, "deliverAt": ["now"]}}}`,
	"config.change.before":     `{"effects": ["deny", "message"]}`,
	"turn.start":               `{"effects": ["deny", "modify", "inject", "flow", "message"], "modify": {"prompt": {"replace": true, "merge": false}}, "flow": {"operations": ["stop"]}, "inject": {"context": {"append": true, "deliverAt": ["now", "next_turn"]}}}`,
	"turn.finish.before":       `{"effects": ["modify", "flow", "message"], "modify": {"response": {"replace": false, "merge": true}}, "flow": {"operations": ["stop", "continue"], "remainingContinuations": 3, "continuationCount": 1, "maxContinuations": 4}}`,
	"model.request.before":     `{"effects": ["deny", "modify", "inject", "return", "flow", "message"], "modify": {"request": {"replace": true, "merge": true}}, "flow": {"operations": ["stop"]}, "inject": {"context": {"append": true, "deliverAt": ["next_turn"]}}}`,
	"model.response.after":     `{"effects": ["modify", "flow", "message"], "modify": {"response": {"replace": true, "merge": true}}, "flow": {"operations": ["stop"]}}`,
	"model.switch.before":      `{"effects": ["deny", "flow", "message"], "flow": {"operations": ["stop"]}}`,
	"tool.before":              `{"effects": ["deny", "allow", "ask", "modify", "inject", "flow", "return", "message"], "modify": {"input": {"replace": true, "merge": false}}, "flow": {"operations": ["stop"]}, "inject": {"context": {"append": true, "deliverAt": ["now"]}}}`,
	"tool.after":               `{"effects": ["modify", "inject", "flow", "message"], "modify": {"output": {"replace": true, "merge": true}}, "flow": {"operations": ["continue", "stop"], "remainingContinuations": 0, "continuationCount": 2}, "inject": {"context": {"append": true, "deliverAt": ["now"]}}}`,
	"tool.permission.request":  `{"effects": ["allow", "deny", "modify", "flow", "message"], "modify": {"input": {"replace": true, "merge": true}}, "flow": {"operations": ["stop"]}}`,
	"tool.batch.after":         `{"effects": ["flow", "inject", "message"], "flow": {"operations": ["stop"]}, "inject": {"context": {"append": true, "deliverAt": ["now"]}}}`,
	"context.compact.before":   `{"effects": ["deny", "modify", "return", "inject", "message"], "modify": {"instructions": {"replace": true, "merge": true}}, "inject": {"context": {"append": true, "deliverAt": ["next_turn"]}}}`,
	"context.compact.after":    `{"effects": ["inject", "modify", "message"], "modify": {"summary": {"replace": true, "merge": false}}, "inject": {"context": {"append": true, "deliverAt": ["now"]}}}`,
	"task.change.before":       `{"effects": ["deny", "message"]}`,
	"user.elicitation.request": `{"effects": ["deny", "return", "message"], "elicitation": {"form": {}}}`,
	"user.elicitation.result":  `{"effects": ["modify", "message"], "modify": {"content": {"replace": true, "merge": true}}, "elicitation": {"form": {}, "url": {}}}`,
	"user.message.inbound":     `{"effects": ["deny", "modify", "message"], "modify": {"prompt": {"replace": true, "merge": true}}}`,
	"user.message.outbound":    `{"effects": ["deny", "modify", "message"], "modify": {"content": {"replace": true, "merge": false}}}`,
	"workspace.change.before":  `{"effects": ["deny", "modify", "message"], "modify": {"workspace": {"replace": false, "merge": true}}}`,
}

const stateExample = `{"permission": "ask", "candidate": {"value": {"x": 1}, "provenance": {"by": "a"}}, "flow": "none", "instructions": ["be careful"], "injections": [{}]}`

func mutationSeeds(t *testing.T, sd *sides) []seed {
	t.Helper()
	fixtures := draftFixtures(t, sd)
	var seeds []seed
	for _, fx := range fixtures {
		seeds = append(seeds, seed{name: fx.ID, refs: []string{fx.ref}, doc: fx.doc, minMutants: minMutantsPerSeed})
		if fx.eventRef != "" {
			if ev, ok := resolvePointer(fx.doc, "/params/event"); ok {
				seeds = append(seeds, seed{name: fx.ID + " (event)", refs: []string{fx.eventRef}, doc: ev, minMutants: minMutantsPerSeed, event: true})
			}
		}
	}
	for _, x := range extraSeeds {
		doc := mustJSON(t, x.name, x.json)
		for _, ref := range x.refs {
			if ok, why, err := sd.upstream.verdict(ref, doc, true); err != nil {
				t.Fatal(err)
			} else if !ok {
				t.Logf("note: seed %s is not valid against upstream %s: %s", x.name, ref, why)
			}
		}
		seeds = append(seeds, seed{name: x.name, refs: x.refs, doc: doc, minMutants: minMutantsPerExtra, systematic: true})
	}
	// Intercept requests built from valid observe fixtures, one per event type.
	done := map[string]bool{}
	for _, fx := range fixtures {
		if fx.ref != "observe-notification.schema.json" {
			continue
		}
		ev, ok := resolvePointer(fx.doc, "/params/event")
		if !ok {
			continue
		}
		typ, _ := resolvePointer(ev, "/type")
		name, _ := typ.(string)
		caps, known := interceptCapabilities[name]
		if !known || done[name] {
			continue
		}
		if ok, _, err := sd.upstream.verdict("observe-notification.schema.json", fx.doc, false); err != nil || !ok {
			continue
		}
		done[name] = true
		id, _ := resolvePointer(ev, "/id")
		params := map[string]any{
			"protocolVersion": "draft",
			"event":           deepCopy(ev),
			"capabilities":    mustJSON(t, name, caps),
		}
		if len(done)%3 == 1 {
			params["state"] = mustJSON(t, "state", stateExample)
			params["extensions"] = map[string]any{"org.example.hint": "x"}
		}
		doc := map[string]any{"jsonrpc": "2.0", "id": id, "method": "hooks/intercept", "params": params}
		if ok, why, _ := sd.upstream.verdict("intercept-request.schema.json", doc, true); !ok {
			t.Logf("note: derived intercept request for %s is not valid upstream: %s", name, why)
		}
		_, withState := params["state"]
		seeds = append(seeds, seed{name: "derived.intercept." + name, refs: []string{"intercept-request.schema.json"}, doc: doc,
			minMutants: minMutantsPerSeed, systematic: withState && len(done) == 1, derived: true})
	}
	return seeds
}
