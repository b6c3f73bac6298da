package conformance_test

// The kits' conformance claims and their trace to the requirements, the
// source of CONFORMANCE.md (TestClaims checks them and renders it).
// Requirements are named by id and summarised in this project's words;
// their text is upstream's (spec/<snapshot>/requirements.json), and sha
// is the textSha256 of the text the entry was written against.

// claimedSnapshot is the snapshot whose conformance manifest the claims
// cite.
const claimedSnapshot = "draft"

// claim is one kit's conformance claim.
type claim struct {
	kit      string   // the package
	role     string   // harness or backend
	bindings []string // transport-binding profiles
	profiles []string // base and the capability profiles
}

// requirementTrace is one requirement: for each role a claimed profile
// selects it for, what the kit does, what stays the program's, and the
// tests that fail when the kit stops doing it.
type requirementTrace struct {
	id, level, sha string
	topic          string // a few words of this project's
	roles          []roleTrace
}

type roleTrace struct {
	role  string
	kit   string   // what the kit does to meet it; "" when the kit has no part
	host  string   // what the program using the kit must do, if anything
	tests []string // folder.TestName or folder.ExampleName: each fails when the kit stops meeting it
}

var claims = []claim{
	{kit: "github.com/ahpgen/ahpgen/backend", role: "backend", bindings: []string{"stdio", "http"}, profiles: []string{"base", "tool-interception", "lifecycle-observation"}},
	{kit: "github.com/ahpgen/ahpgen/harness", role: "harness", bindings: []string{"stdio", "http"}, profiles: []string{"base", "tool-interception", "lifecycle-observation"}},
}

const conformanceIntro = `# Conformance

The conformance claims of the two kits, package ` + "`backend`" + ` (a hook backend) and
package ` + "`harness`" + ` (the host side), under the profiles of AHP's conformance manifest
(upstream's ` + "`conformance/<snapshot>/manifest.json`" + `), and for each requirement those
profiles select: what the kit does to meet it, what it leaves to the program that uses it,
and the tests that fail when it stops. A program built on a kit makes its own claim; this
one says which parts the kit carries.

Generated from ` + "`conformance/trace_test.go`" + ` by
` + "`go test ./conformance -run TestClaims -update`" + `. ` + "`TestClaims`" + ` checks the tables against
the upstream manifest and requirements (` + "`AHP_ROOT`" + `, by default ` + "`../shared/ahp-upstream`" + `):
every claimed profile exists for the claimed role; every requirement the claimed profiles
select is traced, once per role, against the text it has now (a requirement whose
` + "`textSha256`" + ` changed fails until its entry is read again); every named test exists; and
this file is the tables' rendering. The requirements' own words are upstream's
(` + "`spec/<snapshot>/requirements.json`" + `); the summaries here are not a substitute for them.
`

var trace = []requirementTrace{
	{id: "AHP-CORE-001", level: "MUST", sha: "0bb239abb3b7451ae87c13c2c5c73c987d3dacb1bdc11f20ac0985fedb08c674", topic: "a conformance claim names the role, bindings and profiles", roles: []roleTrace{
		{role: "harness", kit: "This file is the kit's claim: role harness, both bindings, base with tool interception and lifecycle observation; TestClaims checks it against upstream's conformance manifest.", host: "A host built on the kit makes its own claim, naming the bindings its registrations use and the profiles it implements.", tests: []string{"conformance.TestClaims"}},
		{role: "backend", kit: "This file is the kit's claim: role backend, both bindings, base with tool interception and lifecycle observation; TestClaims checks it against upstream's conformance manifest.", host: "A backend built on the kit makes its own claim: the bindings it serves and the handlers it registers.", tests: []string{"conformance.TestClaims"}},
	}},
	{id: "AHP-CORE-002", level: "MUST", sha: "1ad023ca323f0ee0056a36d08f1af480622303e50aee9d4cdce27e9194aef842", topic: "base and at least one capability profile", roles: []roleTrace{
		{role: "harness", kit: "Implements base, tool interception (Intercept) and lifecycle observation (Observe); TestClaims holds every claim to base, a capability profile and a binding.", host: "", tests: []string{"conformance.TestClaims"}},
		{role: "backend", kit: "Implements base, tool interception (OnIntercept) and lifecycle observation (OnObserve); TestClaims holds every claim to base, a capability profile and a binding.", host: "", tests: []string{"conformance.TestClaims"}},
	}},
	{id: "AHP-RPC-001", level: "MUST", sha: "d4229b96428bcc48dcd50d517e0ccf2345fe8ebdc91fdf61fbc1dd66bcea1a58", topic: "UTF-8 JSON-RPC 2.0", roles: []roleTrace{
		{role: "harness", kit: "Requests and notifications are the generated constructors' encodings, checked by the snapshot's request check; replies are parsed strictly (UTF-8, duplicate names, trailing data) and anything but one JSON-RPC response is a malformed operational failure.", host: "", tests: []string{"harness.TestRequestsAreTheConstructors", "harness.TestFaultsHTTP", "harness.TestFaultsStdio"}},
		{role: "backend", kit: "Messages are decoded by the generated decoders (-32700, -32600 for what is not JSON or not JSON-RPC, a batch included); every reply, errors included, is a JSON-RPC 2.0 response checked before it is sent.", host: "", tests: []string{"backend.TestReplies", "backend.TestFixturesHTTP", "backend.TestFixturesStdio", "ahprt/router.TestEveryReplyIsAValidErrorResponse"}},
	}},
	{id: "AHP-RPC-002", level: "MUST", sha: "fe80bc624747441b72ff64b7a079dfe9c8835d0d7c76dce6a89104d275373386", topic: "intercept is a request, observe a notification", roles: []roleTrace{
		{role: "harness", kit: "Intercept sends hooks/intercept with the event's id as request id; Observe, and the observation after a chain settles, send hooks/observe without an id and never wait for a reply.", host: "The host calls Intercept where it needs a decision and Observe for one-way events.", tests: []string{"harness.TestRequestsAreTheConstructors", "harness.TestObserveAfterSettling", "harness.TestObserverFailures"}},
		{role: "backend", kit: "Requests go to OnIntercept handlers and notifications to OnObserve handlers; a notification is never answered, and hooks/observe sent as a request is refused.", host: "", tests: []string{"backend.TestNotificationsNeverAnswered", "backend.TestUnknownMethod", "ahprt/router.TestMethodNotInSnapshot"}},
	}},
	{id: "AHP-VER-001", level: "MUST", sha: "376d3336d8770d0dcf8aef3bd724eacc39c49e3cb1c07abfb452f82296df935c", topic: "protocolVersion on every params and result", roles: []roleTrace{
		{role: "harness", kit: "Every request and notification carries the registration's snapshot version; a result with another or no protocolVersion is an unsupported-version failure.", host: "", tests: []string{"harness.TestRequestsAreTheConstructors", "harness.TestFaultsHTTP", "harness.TestLoadRefuses"}},
		{role: "backend", kit: "Messages route by exact version (-32001 with data.supported otherwise); every result is stamped with the version of the snapshot that decoded the request.", host: "", tests: []string{"backend.TestReplyIDAndVersion", "backend.TestErrorData", "ahprt/router.TestRouting"}},
	}},
	{id: "AHP-CORE-003", level: "MUST", sha: "f9de92ae4f25a4c5f46881c3063572866d1166816e7e615344729a14ccfb7e60", topic: "unknown members ignored, recognised ones validated, effects strict", roles: []roleTrace{
		{role: "harness", kit: "Replies, registrations and capabilities decode leniently where the schema leaves objects open; an effect with an unknown member (an invalid result) or an unknown type or operation (an unknown-effect failure) refuses the whole reply, with nothing applied.", host: "", tests: []string{"harness.TestStrictReplies", "harness.TestFaultsHTTP", "conformance.TestStrictAndLenient", "offer.TestQuestions"}},
		{role: "backend", kit: "Requests decode leniently where the schema leaves objects open and are validated everywhere else; an unknown event type is unsupported semantics (-32002), not ignored.", host: "", tests: []string{"backend.TestReplies", "ahprt/router.TestUnsupportedEventByMethod", "conformance.TestStrictAndLenient"}},
	}},
	{id: "AHP-EXT-001", level: "MUST", sha: "e57db1a42e18ed24c60b2f4df5f85b46dd399f770dd1c010e19e48a3cc016079", topic: "reverse-DNS extension keys; no undeclared dependence", roles: []roleTrace{
		{role: "harness", kit: "The host's event is checked by the snapshot's request check, which refuses an extension key that is not reverse-DNS; the harness refuses to offer an experimental effect, or any modify target, operation, flow operation or delivery point it cannot apply, and a reply using one fails rather than being honoured.", host: "Any extension semantics the host adopts are its own to declare.", tests: []string{"harness.TestCallerMistakes", "harness.TestNewRefuses", "harness.TestFaultsHTTP", "ahprt/router.TestDataHoldsNoPeerNames"}},
		{role: "backend", kit: "Requests whose extension keys are not reverse-DNS are refused by the generated check; experimental effects are offered only by their exact name.", host: "A handler that acts on a request's extensions does so only for extensions its program declares.", tests: []string{"backend.TestReplies", "ahprt/router.TestDataHoldsNoPeerNames", "offer.TestCheckReply"}},
	}},
	{id: "AHP-TB-001", level: "MUST", sha: "629a842f092227f86782fab574be603bbe5336c9bfeefd2381b99244aa7c6c0e", topic: "tool.before carries the common, session and tool members", roles: []roleTrace{
		{role: "harness", kit: "The event is checked by the snapshot's intercept-request check before anything is sent; an invalid or id-less event is the caller's error.", host: "Building the event and calling Intercept once the tool's name and input are final, before any side effect.", tests: []string{"harness.TestCallerMistakes", "harness.TestRequestsAreTheConstructors"}},
		{role: "backend", kit: "An invalid tool.before is refused (-32602) before any handler runs; handlers get a typed *draft.ToolBeforeEvent.", host: "", tests: []string{"backend.TestReplies", "backend.TestFixturesHTTP"}},
	}},
	{id: "AHP-CAP-001", level: "MUST", sha: "c50eced1fde9ac1d5f727ae1b5fdffc139f6afebe073c620c30aedc43239d00b", topic: "only enforceable effects advertised, only advertised effects returned", roles: []roleTrace{
		{role: "harness", kit: "Offers are checked against the event type's capability bounds and the values the host holds; a reply with an effect, target or operation not offered is an unadvertised-effect failure under the subscription's policy.", host: "Offering (WithCapabilities, Offer) only what the host enforces, and honouring the Decision.", tests: []string{"harness.TestNewRefuses", "harness.TestTargetFromHost", "harness.TestCallerMistakes", "harness.TestFaultsHTTP"}},
		{role: "backend", kit: "A reply is checked against the request's offer before it is sent; an effect not offered is never sent (-32004). Offered(ctx) tells a handler what it may return.", host: "", tests: []string{"backend.TestReplies", "backend.TestErrorsLocally", "offer.TestCheckReply"}},
	}},
	{id: "AHP-CAP-002", level: "MUST", sha: "04602846c0ff7ada491773b0b851977c6b3f812158e551dc83fc24c1a57cda71", topic: "capabilities.effects on every request, deny for tool.before", roles: []roleTrace{
		{role: "harness", kit: "Every hooks/intercept carries the capabilities configured for its event type (deny by default where allowed); a tool.before offer without deny is refused.", host: "", tests: []string{"harness.TestNewRefuses", "harness.TestCallerMistakes", "harness.Example"}},
		{role: "backend", kit: "A request without capabilities.effects fails the generated check and is refused.", host: "", tests: []string{"backend.TestFixturesHTTP", "backend.TestFixturesStdio"}},
	}},
	{id: "AHP-DEC-001", level: "MUST", sha: "576ba0380365629b7559ac0f1d6f7162e18ac828e1feeb5853a003bb0bd1c406", topic: "an ordered effects array, all valid and advertised", roles: []roleTrace{
		{role: "harness", kit: "A reply is judged whole before anything applies: response schema, offer, conflicts, the edits staged on the event; accepted effects apply in their order.", host: "", tests: []string{"harness.TestFaultsHTTP", "harness.TestCompose", "harness.TestStage", "harness.TestEditedEventChecked"}},
		{role: "backend", kit: "The handler's effects are encoded in order and the reply is checked (response schema, offer, conflicts, the edits against the request's event); a reply that fails is not sent (-32004).", host: "", tests: []string{"backend.TestReplies", "backend.TestRepliesFitTheEvent", "backend.Example_effects"}},
	}},
	{id: "AHP-DEC-002", level: "MUST", sha: "f5841d12c4394e435a238861b4eb3f8c65e247d252e981fdaac0eac7eec40449", topic: "a denied operation does not run", roles: []roleTrace{
		{role: "harness", kit: "An accepted deny settles PermissionDeny with the backend's reason (Decision.Denied); a fail-closed failure is a synthetic denial.", host: "Not running the operation when Decision.Denied() is true.", tests: []string{"harness.TestInterceptHTTP", "harness.TestFaultsHTTP"}},
		{role: "backend", kit: "A handler's deny reaches the peer as a valid deny effect.", host: "", tests: []string{"backend.TestReplies", "backend.Example"}},
	}},
	{id: "AHP-DEC-003", level: "MUST NOT", sha: "358a67acc4e87deb921386d04e7eb1517b0f2cfba915c3f7bb59ce651debb2d7", topic: "no effects grant nothing", roles: []roleTrace{
		{role: "harness", kit: "An empty reply, or no matching subscription, leaves PermissionNone, which is not PermissionAllow.", host: "With PermissionNone, running the host's own permission, sandbox and approval flow as if no backend were configured.", tests: []string{"harness.TestCompose", "harness.TestNoMatchSendsNothing"}},
		{role: "backend", kit: "A handler returning no effects gives a result with an empty effects list, nothing more.", host: "", tests: []string{"backend.TestReplies"}},
	}},
	{id: "AHP-COMP-001", level: "MUST", sha: "60ffbc107ae4683f69bf63eed8772701e893bf360235f96cc20e978d88f0bb91", topic: "interceptors serial, in registration order, stopping where required", roles: []roleTrace{
		{role: "harness", kit: "Intercept consults the matching interceptors one at a time in document order and stops on a deny, a flow stop, an interruption or a fail-closed failure; later ones are recorded as not called.", host: "", tests: []string{"harness.TestCompose", "harness.TestObserveAfterSettling", "harness.TestFailClosedStopsChain", "harness.TestFlowAndOutput", "harness.TestInterrupted", "harness.TestInterruptEndsPersistentRun"}},
		{role: "backend", kit: "", host: "Ordering and stopping the chain are the harness's; a backend answers each request it gets (ServeStdio one at a time, in order).", tests: []string{}},
	}},
	{id: "AHP-FAIL-001", level: "MUST", sha: "0bac900c7ce4de4c3440ca9e2e241778fcf7fc3919bcc7747454dcf9d0961dab", topic: "fail-open or fail-closed, applied to operational failures", roles: []roleTrace{
		{role: "harness", kit: "Intercept subscriptions must declare a policy (observe ones may not); every operational failure applies it: fail-open goes on, fail-closed is a synthetic denial marked Synthetic in the audit.", host: "", tests: []string{"harness.TestFaultsHTTP", "harness.TestFaultsStdio", "harness.TestLaunchFailure", "harness.TestOAuthFailures", "harness.TestLoadRefuses"}},
		{role: "backend", kit: "A handler's failure is answered with a defined JSON-RPC error (-32003 unavailable, -32004 internal), which a harness treats as an operational failure.", host: "", tests: []string{"backend.TestReplies", "backend.Example_errorReply"}},
	}},
	{id: "AHP-FAIL-002", level: "MUST", sha: "ae7aaf195102958a927ba62db8c9237a91b4a9b27f89838d2790dce6b29d714f", topic: "deadlines enforced; retries within them", roles: []roleTrace{
		{role: "harness", kit: "Each call runs within its subscription's timeoutMs, from connecting to judging the reply (a reply judged after it is late); retries stop when it passes; a persistent stdio backend still at work at a deadline is terminated once it has served (one still starting is kept for three).", host: "", tests: []string{"harness.TestTimeout", "harness.TestRetries", "harness.TestReplyPastDeadline", "harness.TestQueuedDeadline", "harness.TestDeadlineEndsPersistentRun", "harness.TestSlowStartKept", "harness.TestAuthWithinDeadline"}},
		{role: "backend", kit: "Handlers run within WithHandlerTimeout; one past it is answered -32003.", host: "", tests: []string{"backend.TestHandlerTimeout", "backend.TestHandlerDeadline"}},
	}},
	{id: "AHP-CORE-004", level: "MUST", sha: "90663747e25b213f99ae76b0447e01c7236430f66573584a2800825ab884f0d2", topic: "retries keep identities; backends tolerate duplicates", roles: []roleTrace{
		{role: "harness", kit: "A retry resends the same bytes (event, request, session and call ids); a deny or an empty reply is never retried; a request a finished stdio run could not take goes once to a new run.", host: "Re-issuing an event itself, the host keeps its ids.", tests: []string{"harness.TestRetries", "harness.TestOneRequestPerRun"}},
		{role: "backend", kit: "Each message is handled on its own, with no id bookkeeping: the same request delivered again is answered again.", host: "Making handlers' side effects tolerate duplicate delivery.", tests: []string{"backend.TestStdioFraming", "backend.TestLoad"}},
	}},
	{id: "AHP-STDIO-001", level: "MUST", sha: "2b49c89fa4b45f23c1604f495db1611e33be01453dc617c8064f95bfeb040916", topic: "one JSON-RPC object per line; no diagnostics on stdout", roles: []roleTrace{
		{role: "harness", kit: "Each message is written as one line (the host's JSON compacted) and one LF; a backend's output line that is not a reply (a CR inside it, garbage, a log line) fails the request outstanding, and repeated ones end the process; a line ending with CR LF is one object (the CR is JSON whitespace), as the backend kit reads it.", host: "", tests: []string{"harness.TestPrettyEventOneLine", "harness.TestFaultsStdio", "harness.TestStdioCRLF", "harness.TestMalformedOutputTerminates", "harness.TestStrayLineAbandons"}},
		{role: "backend", kit: "ServeStdio and ServeOne write each reply as one line and nothing else; a line with a CR inside, too long, or not JSON-RPC gets a framing error reply.", host: "Keeping the program's own output, and slog's default logger (DefaultErrorLog), off standard output.", tests: []string{"backend.TestStdioFraming", "backend.TestServeOne", "backend.TestFixturesStdio", "backend.TestStdioLineEnds"}},
	}},
	{id: "AHP-HTTP-001", level: "MUST", sha: "6ef06ee239aeaccc1a6907e8406c75daeb7d9c4526c396ea3cb4678b6250ed61", topic: "one object per POST, JSON media type, at most one reply", roles: []roleTrace{
		{role: "harness", kit: "One POST per message with application/json; a request needs 200 and one JSON-RPC reply, a notification 202 or 204; any other status, media type, a batch or an unfollowed redirect is a failure.", host: "", tests: []string{"harness.TestFaultsHTTP", "harness.TestInterceptHTTP", "harness.TestHTTPObserveStatus", "harness.TestObserverFailures", "harness.TestRedirectRefused"}},
		{role: "backend", kit: "ServeHTTP takes POST with application/json only (405, 415, 413 otherwise), answers a request 200 with one reply and a notification 204 with none.", host: "Mounting the Server with an http.Server that has timeouts.", tests: []string{"backend.TestHTTPRules", "backend.TestHTTPInvalidRequest", "backend.TestFixturesHTTP"}},
	}},
	{id: "AHP-REG-001", level: "MUST", sha: "e4f7e723f67e011798febdbb015141a3219a9756e1a100aa5bea266a65cc0d0d", topic: "registration: the snapshot's version, an ordered non-empty hooks array", roles: []roleTrace{
		{role: "harness", kit: "Load picks the snapshot by exact protocolVersion and checks the document with its generated check (an empty hooks array refused); backends keep document order.", host: "", tests: []string{"harness.TestLoadFixtures", "harness.TestLoadRefuses"}},
		{role: "backend", kit: "", host: "A backend reads no registration; one it ships for hosts can be checked with draft.Check.Registration or ahpgen validate.", tests: []string{}},
	}},
	{id: "AHP-REG-002", level: "MUST", sha: "eaa3c5300eab2f858c95820e17f8be2dfa4c50a5b030d7fc4e12ea74213a55b4", topic: "events go only to matching subscriptions of the right mode", roles: []roleTrace{
		{role: "harness", kit: "Subscriptions match by exact name or supported wildcard, intercept ones for Intercept and observe ones for observation, plus the best-effort observation of intercept subscriptions a settled chain never called; nothing is sent when nothing matches.", host: "", tests: []string{"harness.TestNoMatchSendsNothing", "harness.TestObserveAfterSettling", "harness.TestObserve", "harness.TestContentSelection"}},
		{role: "backend", kit: "", host: "Choosing where to send an event is the harness's; a backend routes what it receives by method.", tests: []string{}},
	}},
	{id: "AHP-SEC-001", level: "MUST NOT", sha: "6fc2a9742a1d78b50b624b304febc588f284dbb50f354d022fbfa6d1dfc9d745", topic: "AHP weakens no host control", roles: []roleTrace{
		{role: "harness", kit: "PermissionNone is no grant; registrations may not hold literal credentials or plain http off loopback; fail-open never falls back to sending without the token, and a token never reaches the audit.", host: "Keeping its sandbox, approval and managed policy in force whatever the Decision says (Permission's doc).", tests: []string{"harness.TestCompose", "harness.TestLoadRefuses", "harness.TestBearer", "harness.TestConnectionErrorKeepsQueryOut"}},
		{role: "backend", kit: "Error replies carry pointers and codes, never the request's values or a handler's error text.", host: "", tests: []string{"backend.TestErrorData", "ahprt/router.TestRepliesQuoteNoValue", "ahprt/router.TestDataHoldsNoPeerNames"}},
	}},
	{id: "AHP-AUTH-001", level: "MUST", sha: "0ad14ee3e6886ea960de0e7b904de853ce16cc257262197de6b09bc837b81b65", topic: "portable authentication is bearer or oauth", roles: []roleTrace{
		{role: "harness", kit: "Registrations may name bearer (tokenEnv, tokenRef) or oauth client credentials only; New refuses what it cannot run; an authentication failure is an operational failure under the policy.", host: "Deployment-specific identities (client certificates, workload identity) go through WithHTTPTransport, outside the registration.", tests: []string{"harness.TestAuthTypesRefused", "harness.TestBearer", "harness.TestOAuthClientCredentials", "harness.TestOAuthFailures", "harness.TestNewRefuses"}},
		{role: "backend", kit: "", host: "Authenticating requests: the program wraps ServeHTTP in a handler that answers 401 before the Server decodes anything (ServeHTTP's doc, Example_bearer).", tests: []string{"backend.Example_bearer"}},
	}},
	{id: "AHP-CONTENT-001", level: "MUST", sha: "041ccf7a6f156cf0aea654a2ee3fe38c64862f9c8ff71d24de2941c7bf728f38", topic: "canonical roles and ordered parts; no JSON part", roles: []roleTrace{
		{role: "harness", kit: "The host's event is checked by the snapshot's request check (canonical messages, no JSON part); edits must keep message targets canonical message lists, and the edited event is checked again.", host: "Building model-visible content in canonical form.", tests: []string{"harness.TestEditedEventChecked", "harness.TestStage", "harness.TestAnswerChain", "conformance.TestProjectSchemas"}},
		{role: "backend", kit: "Requests are decoded by the generated checks; a reply's modify or return is checked against the request's event with the harness's rules (package edit) and not sent if it does not fit.", host: "", tests: []string{"backend.TestRepliesFitTheEvent", "backend.TestRepliesKeepWhatTheyWereShown", "backend.TestRepliesLeaveAValidEvent", "edit.TestEditChecksAreTheRegistrys"}},
	}},
	{id: "AHP-CONTENT-002", level: "MUST", sha: "7d379477eb24c40f4b84e3509e3d33e98f1bd0c5479e55aeca785c824ea78e27", topic: "selection applies to text and attachments alike", roles: []roleTrace{
		{role: "harness", kit: "Each subscription sees every part as its content selection gives it (body, metadata, omitted), native only when nothing is withheld; a backend cannot rewrite what it saw only as metadata, move it into another message or role, nor add an attachment not authorized.", host: "Authorizing attachments (Attachments); the kit implements no upload binding, so an upload subscription gets gaps.", tests: []string{"harness.TestContentSelection", "harness.TestNativeOnlyWhenAsked", "harness.TestNativeWithheldHoweverWritten", "harness.TestUploadGap", "harness.TestContentSelectionEdits", "harness.TestHiddenAnswerNotEdited", "edit.TestHiddenPartsStay", "edit.TestListRulesAgree", "harness.TestWithheldHiddenPartIntoInput", "harness.TestRestoreAgrees"}},
		{role: "backend", kit: "A reply is checked with the harness's rules: hidden parts kept as sent, attachments only those the request carried.", host: "", tests: []string{"backend.TestRepliesKeepWhatTheyWereShown", "edit.TestStateOf"}},
	}},
	{id: "AHP-EDIT-001", level: "MUST", sha: "68335e7380d400b594219927b935dabbeae35d0a15fbdc29bc586feb35bc495f", topic: "replace, ordered list merge, shallow object merge; atomic chains", roles: []roleTrace{
		{role: "harness", kit: "A modify is accepted only within the advertised target and operation; object merge is shallow, list merge appends in order keeping duplicates; a reply stages whole or not at all, and accepted edits reach the next interceptor.", host: "", tests: []string{"harness.TestStage", "harness.TestStageLeavesStateAlone", "harness.TestCompose", "harness.TestInstructionsChain", "conformance.TestProjectSchemas"}},
		{role: "backend", kit: "A reply's modify is checked against the offer and the request's event (package edit) and the whole reply refused if it does not fit.", host: "Applying edits is the harness's.", tests: []string{"backend.TestRepliesFitTheEvent", "backend.TestRepliesKeepWhatTheyWereShown", "backend.TestReplies", "edit.TestSkipAbsent"}},
	}},
}
