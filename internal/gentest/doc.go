// Package gentest tests the behaviour of generated code (gen/draft) that
// the fixture-driven tests do not reach: bad input, error classes,
// integers, constructors and encoders of values built in Go, limits.
package gentest
