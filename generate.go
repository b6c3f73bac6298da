// Package ahpgen is a Go code generator for the Agent Hooks Protocol: it
// turns the protocol's JSON Schema snapshots (schemas/) into Go packages
// (gen/) with types, validating decoders, encoders and constructors.
//
// Run "go generate ./..." to regenerate gen/ from schemas/; see README.md.
package ahpgen

//go:generate go run -tags ahpgen_bootstrap ./cmd/ahpgen generate -schemas schemas -out gen
