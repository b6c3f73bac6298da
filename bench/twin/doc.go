// Package twin holds method-free twins of the gen/draft types: plain structs
// with json tags, member for member, so that encoding/json is measured on the
// shapes ahpgen decodes into without calling the generated UnmarshalJSON.
// bench/run regenerates them before each run; see internal/twingen for the
// mapping (unions become flattened structs, as is usual with encoding/json).
package twin

//go:generate go run ../internal/twingen -in ../../gen/draft/types.go -out twin_gen.go
