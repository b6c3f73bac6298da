package schemas_test

// The project keeps its own rendition of the legacy AHP snapshot
// 0.1.0-draft.1 in schemas/0.1.0-draft.1. The tests in this file show that
// the rendition is interchangeable with the public upstream documents
// (schemas/0.1.0-draft.1 of the upstream repository, plural root): same
// file names, $ids and $defs pointers, and the same verdict on every golden
// fixture, on fragments of those fixtures checked against the component
// schemas, and on a deterministic corpus of mutants. They also guard the
// rendition's authorship rules and its manifest. The machinery is in
// harness_test.go.

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

const (
	legacySeedA       = 0x4c454741 // "LEGA"
	legacySeedB       = 0x43593031 // "CY01"
	legacyMutantsEach = 32
)

var legacySnapshot = &snapshot{
	key:           "0.1.0-draft.1",
	upstreamDir:   "schemas/0.1.0-draft.1",
	fixtureField:  "draftVersion",
	wireVersion:   "0.1",
	status:        "published",
	titleSuffix:   " (0.1.0-draft.1)",
	commentPrefix: "AHP legacy snapshot 0.1.0-draft.1.",
	keywords:      legacyKeywords,
	summary:       "legacy schema equivalence",
	// The legacy random mutation kinds, in the order (and with the shares)
	// its generator has always drawn them.
	mutations: []mutation{
		dropMember,
		addMember(legacyExtraKeys),
		retype(true),
		emptyString,
		swapEnumAnywhere(legacyOddStrings),
		breakFormat(legacyBadDateTimes, legacyBadURIs),
		edgeNumber(legacyEdgeNumbers, true),
		duplicateItem,
		emptyArray,
		swapDeclared(nil, 1), swapDeclared(nil, 1),
		appendItem(legacyAppendItems),
		graftPlausible(legacyPlausible), graftPlausible(legacyPlausible),
	},
}

// legacySystematic are the systematic families: drop each member, give each
// value each other JSON kind, and graft each plausible member (all its
// sample values) onto each object.
var legacySystematic = []edits{dropEach, retypeEach, graftEach(legacyPlausible)}

// legacyKeywords are the JSON Schema 2020-12 keywords a document may use
// (annotations aside from these would have to start with "x-"; none do).
var legacyKeywords = strings.Fields(`$schema $id $ref $defs $comment $anchor title description
	type properties required additionalProperties patternProperties propertyNames
	items prefixItems contains minContains maxContains minItems maxItems uniqueItems
	minLength maxLength pattern format minimum maximum exclusiveMinimum exclusiveMaximum multipleOf
	const enum allOf anyOf oneOf not if then else minProperties maxProperties
	dependentRequired dependentSchemas unevaluatedItems unevaluatedProperties default examples
	deprecated readOnly writeOnly`)

var (
	// legacyExtraKeys mixes plain unknown members with names some schema
	// forbids or requires somewhere (output, error, token, timeoutMs …).
	legacyExtraKeys = []string{
		"zzUnknown", "com.example.ext", "nodots", "id", "error", "result", "method", "params",
		"output", "token", "bearerToken", "value", "timeoutMs", "failurePolicy", "authentication",
		"extensions", "native", "mcp", "includeNative", "cwd", "agent", "data", "code",
	}
	legacyBadDateTimes = []string{
		"2026-02-30T10:00:00Z", "2026-08-24 08:51:14Z", "2026-08-24T24:00:01Z", "2026-08-24T08:51:14",
		"2026-08-24", "2025-02-29T00:00:00Z", "2026-06-30T23:59:60Z", "2026-08-24t08:51:14.5+02:00",
		"2026-08-24T08:51:14.000000001-00:00", "0000-01-01T00:00:00Z",
	}
	legacyBadURIs = []string{
		"not a uri", "harness.example/runtime", "http://bad host/", "/just/a/path", "urn:uuid:x",
		"ftp://policy.example.com/hooks", "https://", "http://[::1]:8080/", "https://example.com/%zz",
		"HTTPS://policy.example.com/", "https:policy", "mailto:a@b.example", "http://example.com:99999/",
	}
	// legacyPlausible gives members that some schema of the snapshot names
	// values of the right shape, so that grafting them onto another object
	// reaches the cross-shape rules (an answer with both result and error, a
	// request that also has a result, authentication on a stdio backend …).
	legacyPlausible = newPlausible(map[string][]string{
		"id":             {`"evt_x"`, `null`, `3`},
		"method":         {`"hooks/intercept"`, `"hooks/observe"`},
		"params":         {`{}`},
		"result":         {`{}`, `{"protocolVersion":"0.1","effects":[]}`},
		"error":          {`{"code":-32002,"message":"unsupported event"}`},
		"output":         {`{}`},
		"token":          {`"literal"`},
		"bearerToken":    {`"literal"`},
		"value":          {`"literal"`},
		"timeoutMs":      {`100`},
		"failurePolicy":  {`"fail-open"`},
		"authentication": {`{"type":"bearer","tokenEnv":"AHP_TOKEN"}`},
		"agent":          {`{"id":"agent_1"}`, `{}`},
		"native":         {`{"provider":"p","eventName":"e","payload":{}}`, `{"provider":"p","eventName":"e"}`},
		"mcp":            {`{}`, `[]`},
		"extensions":     {`{"com.example.a":1}`, `{"plain":1}`},
		"includeNative":  {`true`},
		"cwd":            {`"/w"`},
		"code":           {`"com.example.reason"`, `"nodots"`},
		"args":           {`["a"]`, `[1]`},
		"lifecycle":      {`"per_event"`},
		"url":            {`"https://h.example/x"`},
		"command":        {`"run"`},
		"data":           {`[1]`},
	})
	legacyEdgeNumbers = []json.Number{"1.0", "-1", "1.5", "0", "1e3", "-0", "9007199254740993"}
	legacyOddStrings  = []string{"unknown", "com.example.unknown", "deny ", "DENY", "0.1.0", "0.2", "2.0", "1.0"}
	legacyAppendItems = []any{"deny", "com.example.x", "tool.after", json.Number("2"), nil,
		map[string]any{"type": "deny", "reason": "r"}, map[string]any{}}
)

// ---------------------------------------------------------------------------
// Tests.

// TestLegacyDocumentsAndPointers: same files, same $ids, every upstream
// $defs entry present at the same pointer and compiling on our side.
func TestLegacyDocumentsAndPointers(t *testing.T) { checkDocumentsAndPointers(t, legacySnapshot) }

// TestLegacyOwnWording: no title, description or $comment of ours repeats
// upstream prose, whole, up to case/spacing/punctuation, or sentence by
// sentence.
func TestLegacyOwnWording(t *testing.T) { checkOwnWording(t, legacySnapshot) }

// TestLegacyAuthoringRules: 2-space indentation, head keyword order, title
// and $comment markers, 2020-12 keywords only, the wire version constant.
func TestLegacyAuthoringRules(t *testing.T) { checkAuthoringRules(t, legacySnapshot) }

// TestLegacyManifest: the project's manifest format, sorted, complete, and
// with hashes of the current file bytes.
func TestLegacyManifest(t *testing.T) { checkManifest(t, legacySnapshot) }

// TestLegacySchemaEquivalence compares verdicts on every fixture, on the
// fragments of fixtures and synthetic seeds, and on the mutation corpus.
func TestLegacySchemaEquivalence(t *testing.T) {
	// The validators allocate heavily; trade memory for fewer collections.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	sd := loadSides(t, legacySnapshot)
	var tl tally
	var bases []legacyBase

	var compared []fixture
	for _, fx := range loadFixtures(t, sd) {
		if fx.parseErr != nil {
			// Not one JSON value: rejected before any schema on both sides.
			t.Logf("fixture %s: framed-out text is not one JSON value (%v); invalid on both sides", fx.ID, fx.parseErr)
			tl.count("fixtures", verdicts{})
			continue
		}
		tl.add("fixtures", fx.ref, fx.doc, "fixture "+fx.ID, "")
		compared = append(compared, fx)
		bases = append(bases, legacyBasesOf("fixture "+fx.ID, fx.ref, fx.Binding != "registration-json", fx.doc)...)
	}
	for i, v := range tl.run(t, sd) {
		fx := compared[i]
		ourFinal, upFinal := fx.framingOK && v.ourOK, fx.framingOK && v.upOK
		switch {
		case !fx.framingOK:
			t.Logf("fixture %s: framing fails (%s), so the case is invalid on both sides; schema verdicts on the framed-out text: ours %v, upstream %v",
				fx.ID, fx.framingWhy, v.ourOK, v.upOK)
		case upFinal != fx.ExpectedValid:
			t.Logf("fixture %s: expectedValid=%v but the upstream schema says %v: a rule beyond JSON Schema decides this case (ours says %v)",
				fx.ID, fx.ExpectedValid, upFinal, ourFinal)
		}
		if ourFinal != upFinal {
			t.Errorf("fixture %s: final verdict ours %v, upstream %v", fx.ID, ourFinal, upFinal)
		}
	}
	for _, seed := range legacySyntheticSeeds {
		bases = append(bases, legacyBasesOf(seed.name, seed.ref, seed.message, mustJSON(t, seed.name, seed.text))...)
	}
	for _, b := range bases {
		if strings.HasPrefix(b.name, "fixture ") && !strings.Contains(b.name, " at ") && !strings.Contains(b.name, "(envelope") {
			continue // the fixture itself was compared above
		}
		tl.addOnce(t, "fragments and seeds", b.ref, b.doc, b.name, "")
	}
	tl.run(t, sd)

	p := collectPools(nil, sd.upstream, sd.ours)
	for _, b := range bases {
		for _, m := range systematicMutants(p, b.doc, nil, legacySystematic...) {
			tl.addOnce(t, "systematic edits", b.ref, m.doc, b.name+": "+m.desc, m.ptr)
		}
	}
	tl.run(t, sd)

	rng := rand.New(rand.NewPCG(legacySeedA, legacySeedB))
	for _, b := range bases {
		// Bigger instances get more mutants, so every node is likely hit.
		count := legacyMutantsEach + 2*len(collectNodes(b.doc))
		for i := 0; i < count; i++ {
			if m, ok := mutateStacked(rng, p, legacySnapshot.mutations, b.doc, ""); ok {
				tl.addOnce(t, "random mutants", b.ref, m.doc, b.name+": "+m.desc, m.ptr)
			}
		}
	}
	tl.run(t, sd)
	tl.report(t, legacySnapshot.summary, "")
}

// ---------------------------------------------------------------------------
// Corpus: fixtures, their fragments and synthetic seeds.

// legacyFragments maps fixture pointers (as regular expressions over JSON
// Pointers) to the component schemas the value there must satisfy or that
// it is checked against to exercise a discriminator.
var legacyFragments = []struct {
	ptr  *regexp.Regexp
	refs []string
}{
	{regexp.MustCompile(`^$`), []string{
		"common.schema.json#/$defs/request", "common.schema.json#/$defs/notification",
		"common.schema.json#/$defs/successResponse", "common.schema.json#/$defs/errorResponse",
	}},
	{regexp.MustCompile(`^/id$`), []string{"common.schema.json#/$defs/jsonRpcId", "common.schema.json#/$defs/jsonRpcResponseId"}},
	{regexp.MustCompile(`^/(params|result)?/?protocolVersion$`), []string{"common.schema.json#/$defs/protocolVersion"}},
	{regexp.MustCompile(`^/params/event$`), []string{"tool-before.schema.json"}},
	{regexp.MustCompile(`^/params/event/session$`), []string{"common.schema.json#/$defs/session"}},
	{regexp.MustCompile(`^/params/event/native$`), []string{"common.schema.json#/$defs/native"}},
	{regexp.MustCompile(`^/params/capabilities$`), []string{"capabilities.schema.json"}},
	{regexp.MustCompile(`(^|/)extensions$`), []string{"extensions.schema.json"}},
	{regexp.MustCompile(`^/result/effects/\d+$`), []string{"deny-effect.schema.json"}},
	{regexp.MustCompile(`^/hooks/\d+$`), []string{"registration.schema.json#/$defs/backend"}},
	{regexp.MustCompile(`^/hooks/\d+/id$`), []string{"registration.schema.json#/$defs/reverseDns"}},
	{regexp.MustCompile(`^/hooks/\d+/transport$`), []string{
		"registration.schema.json#/$defs/stdioTransport", "registration.schema.json#/$defs/httpTransport",
	}},
	{regexp.MustCompile(`^/hooks/\d+/authentication$`), []string{"registration.schema.json#/$defs/authentication"}},
	{regexp.MustCompile(`^/hooks/\d+/subscriptions/\d+$`), []string{
		"registration.schema.json#/$defs/interceptSubscription", "registration.schema.json#/$defs/observeSubscription",
	}},
}

// legacyBase is an instance the mutation corpus starts from.
type legacyBase struct {
	name string
	ref  string
	doc  any
}

// legacyBasesOf lists what a valid-or-not JSON document is checked
// against: its own schema (when given), the envelope union for messages,
// and the component schemas of its fragments.
func legacyBasesOf(name, ref string, message bool, doc any) []legacyBase {
	var out []legacyBase
	if ref != "" {
		out = append(out, legacyBase{name, ref, doc})
	}
	if message {
		out = append(out, legacyBase{name + " (envelope union)", "json-rpc-message.schema.json", doc})
	}
	for _, n := range collectNodes(doc) {
		for _, fr := range legacyFragments {
			if !fr.ptr.MatchString(n.ptr) {
				continue
			}
			if n.ptr == "" && !message {
				continue
			}
			for _, r := range fr.refs {
				out = append(out, legacyBase{name + " at " + strconv.Quote(n.ptr), r, n.value})
			}
		}
	}
	return out
}

// legacySyntheticSeeds reach members and shapes no fixture uses: a
// notification, error answers, the native wrapper, the MCP slot, session
// details, experimental capabilities and a wider registration.
var legacySyntheticSeeds = []struct {
	name    string
	ref     string
	message bool
	text    string
}{
	{"seed notification", "json-rpc-message.schema.json", true,
		`{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"0.1","event":{"id":"evt_9","type":"tool.after"}}}`},
	{"seed error answer", "json-rpc-message.schema.json", true,
		`{"jsonrpc":"2.0","id":"evt_1","error":{"code":-32001,"message":"unsupported protocol version","data":{"supported":["0.1"]}}}`},
	{"seed error answer with null id", "json-rpc-message.schema.json", true,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`},
	{"seed success answer with integer id", "intercept-no-effect-response.schema.json", true,
		`{"jsonrpc":"2.0","id":7,"result":{"protocolVersion":"0.1","effects":[],"extensions":{"com.example.trace":{"span":"a1"}}}}`},
	{"seed deny answer with extensions", "intercept-deny-response.schema.json", true,
		`{"jsonrpc":"2.0","id":"evt_2","result":{"protocolVersion":"0.1","effects":[{"type":"deny","reason":"blocked","code":"org.example.rule_9","extensions":{"org.example.policy":[1,2]}}],"extensions":{"org.example.audit":true}}}`},
	{"seed full intercept request", "intercept-request.schema.json", true,
		`{"jsonrpc":"2.0","id":"evt_full","method":"hooks/intercept","params":{"protocolVersion":"0.1",` +
			`"event":{"id":"evt_full","source":"https://harness.example/a?b=c#d","type":"tool.before","time":"2026-01-02T03:04:05.678+01:00",` +
			`"session":{"id":"s_1","cwd":"/w","workspaceRoots":["/w","/x"],"model":"m-1","agent":{"id":"a_1","type":"coder"}},` +
			`"tool":{"callId":"c_1","name":"mcp__files__read","kind":"mcp","input":{},"mcp":{"server":"files"}},` +
			`"native":{"provider":"example","eventName":"PreToolUse","payload":{"k":[1,{"x":null}]}},` +
			`"extensions":{"com.example.one":1}},` +
			`"capabilities":{"effects":["com.example.redact","deny","org.example.x-y_z"]},"extensions":{"com.example.req":{}}}}`},
	{"seed registration", "registration.schema.json", false,
		`{"protocolVersion":"0.1","hooks":[{"id":"com.example.watch","transport":{"type":"stdio","command":"watch","args":[],"lifecycle":"per_event","cwd":"/tmp"},` +
			`"subscriptions":[{"events":["tool.before","tool.after","tool.error","session.start","session.end"],"mode":"observe","includeNative":true},` +
			`{"events":["tool.before"],"mode":"intercept","timeoutMs":1,"failurePolicy":"fail-open","includeNative":false}]},` +
			`{"id":"org.example.remote","transport":{"type":"http","url":"http://127.0.0.1:8080/hooks"},"subscriptions":[{"events":["session.end"],"mode":"observe"}]}]}`},
}
