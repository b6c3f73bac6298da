package ir

import (
	"strings"
)

// The JSON kinds a schema's instances can have (possible), which decide
// the kind of Go type, and the scalar facts that refine it: a string
// enum, integers within int64.

// kinds is the set of JSON kinds a schema's instances can have.
type kinds uint8

const (
	kNull kinds = 1 << iota
	kBool
	kInteger // integral numbers
	kFraction
	kString
	kObject
	kArray
	kAll    = kNull | kBool | kInteger | kFraction | kString | kObject | kArray
	kNumber = kInteger | kFraction
)

func kindsOfType(name string) kinds {
	switch name {
	case "null":
		return kNull
	case "boolean":
		return kBool
	case "integer":
		return kInteger
	case "number":
		return kNumber
	case "string":
		return kString
	case "object":
		return kObject
	case "array":
		return kArray
	}
	return 0
}

func kindsOfLiteral(l Literal) kinds {
	switch l.Kind {
	case "number":
		if strings.ContainsAny(l.JSON, ".eE") {
			return kNumber // may still be integral: stay wide
		}
		return kInteger
	}
	return kindsOfType(l.Kind)
}

// possible computes the kinds s accepts (an over-approximation: exact for
// type, const, enum and unions of those).
func possible(s *Schema, seen map[*Schema]bool) kinds {
	if s == nil {
		return kAll
	}
	if s.Bool != nil {
		if *s.Bool {
			return kAll
		}
		return 0
	}
	if seen[s] {
		return kAll
	}
	seen[s] = true
	defer delete(seen, s)
	k := kAll
	if len(s.Types) > 0 {
		var t kinds
		for _, n := range s.Types {
			t |= kindsOfType(n)
		}
		k &= t
	}
	if s.Const != nil {
		k &= kindsOfLiteral(*s.Const)
	}
	if s.Enum != nil {
		var t kinds
		for _, l := range s.Enum {
			t |= kindsOfLiteral(l)
		}
		k &= t
	}
	if s.Ref != nil {
		k &= possible(s.Ref, seen)
	}
	for _, a := range s.AllOf {
		k &= possible(a, seen)
	}
	for _, list := range [][]*Schema{s.AnyOf, s.OneOf} {
		if len(list) == 0 {
			continue
		}
		var u kinds
		for _, b := range list {
			u |= possible(b, seen)
		}
		k &= u
	}
	return k
}

// stringEnum finds the values of a string enum in the closure.
func stringEnum(cl []*Schema) ([]string, bool) {
	for _, c := range cl {
		if len(c.Enum) > 1 {
			out := enumStrings(c.Enum) // one constant per value
			return out, out != nil
		}
	}
	return nil, false
}

// fitsInt64: both bounds present and within int64.
func fitsInt64(cl []*Schema) bool {
	var lo, hi bool
	for _, c := range cl {
		for _, b := range []*string{c.Minimum, c.ExclusiveMinimum} {
			if b != nil && inInt64(*b) {
				lo = true
			}
		}
		for _, b := range []*string{c.Maximum, c.ExclusiveMaximum} {
			if b != nil && inInt64(*b) {
				hi = true
			}
		}
	}
	return lo && hi
}

func inInt64(num string) bool {
	if strings.ContainsAny(num, ".eE") {
		return false
	}
	neg := strings.HasPrefix(num, "-")
	d := strings.TrimPrefix(num, "-")
	if len(d) < 19 {
		return true
	}
	if len(d) > 19 {
		return false
	}
	if neg {
		return d <= "9223372036854775808"
	}
	return d <= "9223372036854775807"
}
