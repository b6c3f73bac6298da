package ir

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/quote"
)

// Reason is why a check rejects a value: Code names an ahprt.Code
// constant, Schema is the schema location the rejection reports, Message
// says what is wrong. The generated package declares each distinct
// Reason once, as a row of its table of reasons (see PlanDecls), and a
// rejecting check passes that row's address.
//
// The functions below are the one place where a rejection's text is
// written: PlanDecls lists the rows from them, and emit looks up the row
// of each rejection it writes with the same call, so the two cannot
// spell a reason differently.
type Reason struct{ Code, Schema, Message string }

// KeywordReason is the rejection by keyword of s, for the keywords whose
// check rejects the value itself with one fixed reason (located at the
// keyword). It panics on another keyword: a generator bug.
func (s *Schema) KeywordReason(keyword string) Reason {
	at := func(code, msg string) Reason { return Reason{code, s.Loc + "/" + keyword, msg} }
	count := func(n *int64, format string) string {
		if t, ok := s.Clamped[keyword]; ok {
			return strings.Replace(format, "%d", t, 1) // the bound as written
		}
		return fmt.Sprintf(format, *n)
	}
	switch keyword {
	case "type":
		return at("CodeType", strings.Join(s.Types, " or "))
	case "const":
		want := s.Const.JSON
		if len(want) > reasonValuesMax {
			want = quote.Cut(want, reasonValuesMax) + "… (" + strconv.Itoa(len(s.Const.JSON)) + " bytes)"
		}
		return at("CodeConst", "want "+want)
	case "enum":
		var want strings.Builder
		for i, l := range s.Enum {
			if i > 0 && want.Len()+len(l.JSON) > reasonValuesMax {
				want.WriteString(", … (" + strconv.Itoa(len(s.Enum)) + " values)")
				break
			}
			if i > 0 {
				want.WriteString(", ")
			}
			want.WriteString(l.JSON)
		}
		return at("CodeEnum", "want one of "+want.String())
	case "minProperties":
		return at("CodeMinProperties", count(s.MinProperties, "want at least %d members"))
	case "maxProperties":
		return at("CodeMaxProperties", count(s.MaxProperties, "want at most %d members"))
	case "minItems":
		return at("CodeMinItems", count(s.MinItems, "want at least %d items"))
	case "maxItems":
		return at("CodeMaxItems", count(s.MaxItems, "want at most %d items"))
	case "uniqueItems":
		return at("CodeUniqueItems", "items must be unique")
	case "contains": // too few matches: the planned minimum (minContains, default 1)
		if t, ok := s.Clamped["minContains"]; ok {
			return at("CodeContains", "want at least "+t+" matching items")
		}
		return at("CodeContains", fmt.Sprintf("want at least %d matching items", s.Plan.Items.MinContains))
	case "maxContains":
		return at("CodeContains", count(s.MaxContains, "want at most %d matching items"))
	case "minLength":
		return at("CodeMinLength", count(s.MinLength, "want at least %d characters"))
	case "maxLength":
		return at("CodeMaxLength", count(s.MaxLength, "want at most %d characters"))
	case "pattern":
		return at("CodePattern", "does not match "+s.Pattern.Source)
	case "format":
		return at("CodeFormat", "not a valid "+s.Format)
	case "minimum":
		return at("CodeMinimum", "want at least "+*s.Minimum)
	case "maximum":
		return at("CodeMaximum", "want at most "+*s.Maximum)
	case "exclusiveMinimum":
		return at("CodeExclusiveMinimum", "want more than "+*s.ExclusiveMinimum)
	case "exclusiveMaximum":
		return at("CodeExclusiveMaximum", "want less than "+*s.ExclusiveMaximum)
	case "multipleOf":
		return at("CodeMultipleOf", "want a multiple of "+*s.MultipleOf)
	case "not":
		return at("CodeNot", "matches a schema it must not match")
	case "oneOf": // more than one branch passed
		return at("CodeOneOfMany", "matches more than one alternative")
	}
	panic("ir: no reason for keyword " + keyword + " of " + s.Loc)
}

// RequiredReason rejects an object of s without the member name.
func (s *Schema) RequiredReason(name string) Reason {
	return Reason{"CodeRequired", s.RequiredLoc(), ahpimpl.MissingMember(name)}
}

// RequiredLoc is the location a missing required member of s is reported
// at (RequiredReason, and ahpimpl.Ctx.FailMissing through a
// RequiredList).
func (s *Schema) RequiredLoc() string { return s.Loc + "/required" }

// DependentRequiredReason rejects an object of s that has member name
// but not member requires.
func (s *Schema) DependentRequiredReason(name, requires string) Reason {
	return Reason{"CodeDependentRequired", s.Loc + "/dependentRequired", fmt.Sprintf("member %q requires member %q", name, requires)}
}

// NotObjectReason rejects a value that is no object where the check at
// loc needs one: a dispatching anyOf or oneOf of s (keyword), or, with
// keyword "type", a schema merged into its parent's member walk.
func (s *Schema) NotObjectReason(keyword string) Reason {
	return Reason{"CodeType", s.Loc + "/" + keyword, "object"}
}

// DiscriminatorReason rejects an object that lacks member, which the
// dispatch of s's anyOf or oneOf (keyword) reads.
func (s *Schema) DiscriminatorReason(keyword, member string) Reason {
	return Reason{"CodeRequired", s.Loc + "/" + keyword, ahpimpl.MissingMember(member)}
}

// The rejections below are reported at the location of the schema they
// are called on, the subschema that rejects.

// FalseReason rejects every value: s is the schema false.
func (s *Schema) FalseReason() Reason {
	return Reason{"CodeFalseSchema", s.Loc, "no value is allowed here"}
}

// NoOtherMembersReason rejects a member that additionalProperties s, the
// schema false, allows none of.
func (s *Schema) NoOtherMembersReason() Reason {
	return Reason{"CodeUnknownMember", s.Loc, "this object allows no other members"}
}

// NoNamesReason rejects every member name: s is a propertyNames false.
func (s *Schema) NoNamesReason() Reason {
	return Reason{"CodePropertyNames", s.Loc, "no member is allowed"}
}

// NotAcceptsAllReason rejects every value: s is a `not` of a schema that
// accepts everything.
func (s *Schema) NotAcceptsAllReason() Reason {
	return Reason{"CodeNot", s.Loc, "must not match a schema that accepts everything"}
}

// UnevaluatedMemberReason rejects a member no schema evaluated where s,
// unevaluatedProperties, is false.
func (s *Schema) UnevaluatedMemberReason() Reason {
	return Reason{"CodeUnknownMember", s.Loc, "member not evaluated by any schema, and unevaluatedProperties allows none"}
}

// UnevaluatedItemReason rejects an item no schema evaluated where s,
// unevaluatedItems, is false.
func (s *Schema) UnevaluatedItemReason() Reason {
	return Reason{"CodeFalseSchema", s.Loc, "item not evaluated by any schema, and unevaluatedItems allows none"}
}

// RefCycleReason rejects a value that s, on an in-place cycle (Guard),
// is applied to again.
func (s *Schema) RefCycleReason() Reason {
	return Reason{"CodeRefCycle", s.Loc, "this schema applies itself to the same value again (an infinite loop)"}
}

// reasonValuesMax bounds the values a reason's message lists (an enum's,
// a const's), in bytes: every error that reason makes carries it, and an
// enum of 20 000 numbers made each a message of 120 KB. AHP's longest
// list, about 750 bytes, is within it.
const reasonValuesMax = 1000
