// Package hookbackend is an example downstream module of ahpgen.
package hookbackend

// Regenerate the AHP packages in ./internal/ahp from the schema snapshots in
// ./schemas (one package per snapshot, plus a dispatcher over them).
// ahpgen is pinned by go.mod: add it with
//
//	go get -tool github.com/ahpgen/ahpgen/cmd/ahpgen
//
//go:generate go run github.com/ahpgen/ahpgen/cmd/ahpgen generate -schemas ./schemas -out ./internal/ahp
