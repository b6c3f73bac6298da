package ahprt

import (
	"errors"
	"strconv"
	"strings"

	"github.com/ahpgen/ahpgen/internal/quote"
)

// Code is the machine-readable reason of an [Error]. Codes are stable:
// programs may switch on them.
type Code string

// Codes for input that is not a well-formed JSON document (class [ErrMalformed]).
const (
	CodeSyntax        Code = "syntax"
	CodeInvalidUTF8   Code = "invalid_utf8"
	CodeDuplicateName Code = "duplicate_name"
	CodeTrailingData  Code = "trailing_data"
	CodeFraming       Code = "framing"
)

// Codes for documents beyond a decoder's limits (class [ErrLimit]).
const (
	CodeTooLarge Code = "too_large"
	CodeTooDeep  Code = "too_deep"
	CodeTooMany  Code = "too_many"
)

// Codes for well-formed JSON that breaks the schema (class [ErrInvalid]).
const (
	CodeType              Code = "type"
	CodeJSONInString      Code = "json_in_string"
	CodeConst             Code = "const"
	CodeEnum              Code = "enum"
	CodeRequired          Code = "required"
	CodeUnknownMember     Code = "unknown_member"
	CodeMinLength         Code = "min_length"
	CodeMaxLength         Code = "max_length"
	CodePattern           Code = "pattern"
	CodeFormat            Code = "format"
	CodeMinimum           Code = "minimum"
	CodeMaximum           Code = "maximum"
	CodeExclusiveMinimum  Code = "exclusive_minimum"
	CodeExclusiveMaximum  Code = "exclusive_maximum"
	CodeMultipleOf        Code = "multiple_of"
	CodeMinItems          Code = "min_items"
	CodeMaxItems          Code = "max_items"
	CodeUniqueItems       Code = "unique_items"
	CodeContains          Code = "contains"
	CodeMinProperties     Code = "min_properties"
	CodeMaxProperties     Code = "max_properties"
	CodePropertyNames     Code = "property_names"
	CodeDependentRequired Code = "dependent_required"
	CodeNot               Code = "not"
	CodeAnyOf             Code = "any_of"
	CodeOneOf             Code = "one_of"
	CodeOneOfMany         Code = "one_of_many"
	CodeFalseSchema       Code = "false_schema"
	CodeUnevaluated       Code = "unevaluated"
	CodeRefCycle          Code = "ref_cycle"
	CodeSemantic          Code = "semantic"
)

// CodeUnsupported marks a value the schema does not know where it names
// protocol semantics: an unknown event type, effect type, operation or enum
// value (class [ErrUnsupported]). AHP receivers must treat these as
// unsupported, never as ordinary unknown fields.
const CodeUnsupported Code = "unsupported"

// The error classes. Every [Error] is exactly one of them; test with
// errors.Is(err, ahprt.ErrUnsupported) and so on.
var (
	// ErrMalformed: the input is not one well-formed UTF-8 JSON value.
	ErrMalformed = errors.New("malformed JSON")
	// ErrLimit: the input exceeds a decoder limit (size, depth, members).
	ErrLimit = errors.New("decoder limit exceeded")
	// ErrInvalid: well-formed JSON that the schema rejects.
	ErrInvalid = errors.New("invalid against the schema")
	// ErrUnsupported: a discriminator or enum value the schema does not
	// know: unsupported protocol semantics.
	ErrUnsupported = errors.New("unsupported value")
)

// Error describes why a document was rejected. Decoders return *Error for
// every rejection; nothing partial is ever returned alongside it.
type Error struct {
	// Pointer is the JSON Pointer (RFC 6901) of the offending value in the
	// input ("" is the whole document).
	Pointer string
	// Schema is the schema location whose keyword failed, as
	// "file.schema.json#/json/pointer" (empty for syntax errors).
	Schema string
	// Code is the machine-readable reason.
	Code Code
	// Message is a human-readable explanation.
	Message string
	// Offset is the byte offset of a syntax error, -1 when unknown.
	Offset int64
	// Cause is, for a union that no branch accepted, the error of the branch
	// that came closest.
	Cause *Error
	// Name reports that the error is about the member name that Pointer's
	// last token is, not its value: an unknown member, a duplicate name,
	// a name propertyNames refused. A peer chooses its member names, so
	// what a reply's data says of such an error stops at the object.
	Name bool
}

// Error is e for a reader, on one line: where (the pointer, with the
// characters of member names that a reader could not see or that would
// break the line escaped and a long pointer cut, as internal/quote.Pointer
// writes it; the Pointer field keeps it as it is), the code, the message,
// the schema location, and the closest branch's error.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("ahp: ")
	if e.Pointer != "" {
		b.WriteString(quote.Pointer(e.Pointer))
	} else {
		b.WriteString("(document)")
	}
	b.WriteString(": ")
	b.WriteString(string(e.Code))
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Code == CodeSyntax && e.Offset > 0 {
		b.WriteString(" (byte ")
		b.WriteString(strconv.FormatInt(e.Offset, 10))
		b.WriteString(")")
	}
	if e.Schema != "" {
		b.WriteString(" [schema ")
		b.WriteString(e.Schema)
		b.WriteString("]")
	}
	if e.Cause != nil {
		b.WriteString("; closest branch: ")
		b.WriteString(strings.TrimPrefix(e.Cause.Error(), "ahp: "))
	}
	return b.String()
}

// Class is the error class of e: one of ErrMalformed, ErrLimit, ErrInvalid
// and ErrUnsupported. A union that no branch accepted takes the class of
// its closest branch: an intercept response that fails only because of an
// unknown effect type is unsupported, whichever message union it is
// decoded through.
func (e *Error) Class() error {
	if e.Cause != nil && (e.Code == CodeAnyOf || e.Code == CodeOneOf) {
		return e.Cause.Class()
	}
	switch e.Code {
	case CodeSyntax, CodeInvalidUTF8, CodeDuplicateName, CodeTrailingData, CodeFraming:
		return ErrMalformed
	case CodeTooLarge, CodeTooDeep, CodeTooMany:
		return ErrLimit
	case CodeUnsupported:
		return ErrUnsupported
	}
	return ErrInvalid
}

// Is makes errors.Is(err, ErrUnsupported) (and the other classes) work.
func (e *Error) Is(target error) bool { return e.Class() == target }

// Root follows the closest-branch chain to the failure that explains e.
func (e *Error) Root() *Error {
	for e.Cause != nil {
		e = e.Cause
	}
	return e
}

// Unwrap exposes the closest branch's error, if any.
func (e *Error) Unwrap() error {
	if e.Cause == nil {
		return nil
	}
	return e.Cause
}
