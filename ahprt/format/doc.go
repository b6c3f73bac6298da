// Package format holds the checkers that generated decoders call for the
// JSON Schema 2020-12 "format" keyword when format assertion is on. Each
// checker is func(string) bool, uses only the standard library, does not
// allocate and never panics. Lookup maps a format name to its checker.
//
// (The full description of every checker, its RFC and its deliberate
// deviations is being written; see the individual functions.)
package format
