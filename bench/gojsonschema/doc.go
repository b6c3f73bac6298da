// Package gojsonschema holds what github.com/atombender/go-jsonschema v0.24.1
// generates from the upstream AHP draft schemas (reference data at
// ../shared/ahp-upstream, commit noted in its PROVENANCE.md). It is generated
// output, committed so the benchmarks build offline; regenerate it from the
// bench folder with
//
//	S=${AHP_ROOT:-../../shared/ahp-upstream}/schema/draft
//	go tool go-jsonschema -p gojsonschema --tags json -o gojsonschema/gojsonschema_gen.go \
//	  $S/intercept-request.schema.json $S/intercept-response.schema.json \
//	  $S/observe-notification.schema.json $S/capabilities-response.schema.json \
//	  $S/registration.schema.json
//
// (go-jsonschema is a tool of bench/go.mod, pinned at v0.24.1).
//
// What it produces. The output compiles, but of the five message roots only
// registration.schema.json becomes a type (RegistrationSchemaJson). The four
// roots written as allOf [$ref envelope, {…}] — intercept-request,
// intercept-response, observe-notification, capabilities-response — produce
// no type at all (silently), and neither do the oneOf unions (event,
// effect, content items). What remains for them is the JSON-RPC envelope of
// common.schema.json: Request, Notification and SuccessResponse, whose
// params/result are map[string]interface{}. So the go-jsonschema column of
// the benchmarks decodes those kinds into the envelope only: it checks the
// envelope's required members and nothing below params/result (no event, no
// effects, no capabilities, no formats, no const jsonrpc/method/protocolVersion).
// bench's TestGoJSONSchemaAgreement counts the invalid fixtures it accepts.
package gojsonschema
