// Package hostile holds the hostile-input tests of the generated draft
// decoders (GitHub issue 6): fuzz targets for the top-level decoders, a
// differential oracle against santhosh-tekuri/jsonschema (internal/oracle),
// a mutation generator of near-valid messages, and the decoder limits.
// The package has no code of its own: everything is in its tests.
//
// # The differential oracle
//
// The generated decoders in their default mode (ahprt.Lenient, which
// enforces every schema keyword; ahprt.StrictAll additionally rejects
// undeclared members, which santhosh does not) must accept a document
// exactly when santhosh, configured like the upstream checker (formats
// asserted, duplicate member names and invalid UTF-8 refused first),
// accepts it against the same schema of schemas/draft. The only intended
// differences are:
//
//  1. AHP rules beyond JSON Schema (internal/semantic, ahprt/rules): a
//     hooks/intercept request whose id differs from params.event.id,
//     a registration that repeats a backend id, and an elicitation event
//     whose body-selected request/result text is not a valid MCP
//     elicitation message agreeing with the envelope. ahpgen rejects
//     these; santhosh, which only knows the schemas, accepts them. A
//     disagreement counts as this difference only when the decoder's
//     rejection is explained by a rule: its root error has code
//     ahprt.CodeSemantic (for the aggregate schema.json, the decoder of
//     the alternative santhosh accepts rejects with that code).
//
//  2. The formats AHP asserts, where ahpgen follows the RFCs and santhosh
//     is laxer: uri is an RFC 3986 absolute URI (santhosh, through Go's
//     url.Parse, also accepts non-ASCII characters, spaces, a second '#',
//     a malformed percent-escape outside the path, '[' or ']'
//     elsewhere than around an IP literal host, and an '@' in the user
//     information; it is stricter only in refusing a percent-escape of an
//     ASCII byte in a host, which RFC 3986's reg-name allows), and
//     date-time is RFC 3339 (santhosh reads hh, mm and ss with
//     strconv.Atoi, so "+0" passes for "00"). AHP asserts these formats as
//     RFC 3986 URIs and RFC 3339 timestamps, the JSON-Schema-Test-Suite's
//     format tests agree with ahpgen, and so ahpgen keeps them.
//     knownDisagreement recognises exactly these (the value passes once
//     the characters RFC 3986 forbids are percent-encoded, or once the
//     signs inside the time fields are zeros), strictDisagreement the
//     host escapes (santhosh accepts once they are respelt), and nothing
//     else.
//
// Any other disagreement fails. TestKnownBugs keeps the reproducers of the
// bugs these tests found, now fixed, as regression tests.
//
// Documents beyond the decoders' resource limits (class ahprt.ErrLimit:
// ahprt.DefaultMaxBytes, DefaultMaxDepth, DefaultMaxMembers) are not a
// schema difference: they are outside the domain the comparison covers,
// and the tests count them apart ("beyond limits") instead of comparing.
package hostile
