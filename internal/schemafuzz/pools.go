package schemafuzz

// The pools schemas and instances draw from. They are small on purpose:
// a member name or a value a schema mentions comes up again in the
// instances, so keywords meet the values they are about.

// memberNames are member names: plain ones, and Go naming hazards (names
// that differ only in case or punctuation, Go keywords, initialisms,
// names of generated methods and fields, names that are no identifier).
var memberNames = []string{
	"a", "b", "c", "a", "b", "c", "id", "type",
	"", "foo_bar", "fooBar", "FooBar", "ID", "Id", "Unknown", "func", "1st", "naïve", "a-b",
	"MarshalJSON", "UnmarshalJSON", "Validate", "String", "$ref", "a/b", "~1", "a b", "日本",
	// Names Go's encoding/json would match to another (case folded),
	// and names whose JSON or Go string form needs escapes.
	"A", "iD", "\"", "\\", "a\u0000", "\t", "😀", "%", "#", "a.b",
}

// defNames are $defs names: plain ones, and names of Go predeclared and
// runtime identifiers, generated helpers' prefixes, and the shapes of
// bug 2 of issue 17 (listFoo beside foo).
var defNames = []string{
	"foo", "listFoo", "node", "string", "error", "Error", "any", "Value", "Number", "Ctx",
	"reason0", "const0", "Registry", "Snapshot", "buildFoo", "a/b", "a~b", "1st", "",
	// names a URI fragment percent-encodes
	"a b", "ü", "a%b",
}

// numbers are JSON numbers: small integers, the same integer spelt as a
// fraction or an exponent (1, 1.0, 1e0, 10e-1, 0.1e1, 1E2, 1e+2 …),
// fractions whose binary forms are inexact (0.1, 0.3 and the double
// nearest 0.1+0.2), the edges of int64 and of 2^53, and magnitudes
// beyond float64 (1e400, 1e-400) or beyond any machine integer.
var numbers = []Num{
	"0", "1", "-1", "2", "3", "10", "1.0", "1e1", "1.5", "-1.5", "0.1", "0.3", "2.5",
	"9007199254740991", "9007199254740993", "9223372036854775807", "9223372036854775808",
	"-9223372036854775808", "-9223372036854775809", "18446744073709551616", "1e308", "1e-7", "-0",
	"1e0", "10e-1", "0.1e1", "0.0", "1E2", "1e+2", "100", "4.35", "0.07", "0.30000000000000004",
	"9007199254740992", "1e400", "-1e400", "1e-400", "123456789012345678901234567890",
}

// multiples are multipleOf values (positive): integers, decimal fractions
// (inexact in binary), and magnitudes at and beyond float64's edges.
var multiples = []Num{"1", "2", "3", "0.5", "0.1", "1e-8", "1.5", "9223372036854775807", "1e308",
	"0.01", "0.07", "1e-300", "1e400", "2.5e-1", "1E-2"}

// strs are strings: empty, short, multibyte (one code point is several
// bytes, or two UTF-16 units), a NUL and a newline, and values that
// formats accept or reject.
var strs = []string{
	"", "a", "ab", "abc", "b", "aa", "A", "日本", "😀", "😀😀", "naïve", "a\u0000b", "x\ny", "a-b", "1st",
	"2026-12-01T10:00:00Z", "2026-02-30T10:00:00Z", "2026-12-01t10:00:00.5+01:00", "2026-12-01",
	"https://example.com/a?b#c", "https://example.com/a b", "urn:x:y", "/relative", "mailto:a@b.c",
	"a@b.co", "a@@b", "192.168.0.1", "256.0.0.1", "::1", "1::2::3", "10:00:00Z", "example.com", "-bad-.com",
	"2e6f3b5c-7d52-4a6b-9c1d-3f4e5a6b7c8d", "P1D", "/a/b", "0/a", "{x}",
	// escapes in JSON text and Go literals, a byte order mark, and
	// strings of the formats json-pointer, relative-json-pointer and
	// duration near their edges (no U+2028 or CR: "." stops there in
	// ECMA-262, not in RE2, so santhosh's verdict would be no reference)
	"\"q\"", "back\\slash", "\u0001", "\ufeff", "~0a", "/~2", "0#", "PT1.5S",
}

// patterns are ECMA-262 patterns whose meaning RE2 (santhosh's engine)
// shares on every string of strs, and that match some of them.
var patterns = []string{
	"^a", "b$", "^[a-c]*$", "^a+$", "^$", "[0-9]", "^\\d+$", "^[^a]", "-", "^.{1,2}$", "日", "^(a|b)+$", "\\w", "^[A-Za-z_]",
	// Unicode properties and a class of code points beyond the BMP (one
	// code point each, not two UTF-16 units).
	"^\\p{L}+$", "^\\P{L}", "^[😀日]", "😀$",
}

// formats are the formats both ahpgen's runtime and santhosh know, but
// two that santhosh checks by another standard, so that its verdict is no
// reference: uri-template, which it checks as a URL (url.Parse rejects
// "::1", which RFC 6570 allows, and accepts a space, which it forbids),
// and regex, which it checks as Go's RE2 syntax, not ECMA-262 ("{x}" is
// RE2 but no ECMA-262 pattern in the u mode JSON Schema asks for).
// ahpgen's checkers of both are held to the suite's optional format tests.
var formats = []string{
	"uri", "date-time", "date", "time", "email", "ipv4", "ipv6", "hostname", "uuid", "uri-reference",
	"json-pointer", "relative-json-pointer", "duration",
}

// typeNames are JSON Schema type names.
var typeNames = []string{"object", "array", "string", "number", "integer", "boolean", "null"}

// annotations are texts for title and description: what the generator
// copies into Go comments (comment terminators, backquotes, newlines).
var annotations = []string{"a thing", "ends a comment */ here", "line one\nline two", "`raw` and \"quoted\"", "see the rules below", "// not code"}

// annotationKeywords are keywords that assert nothing (JSON Schema's
// annotations, and an x- extension, which ahpgen accepts as one).
var annotationKeywords = []string{
	"title", "description", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly",
	"contentMediaType", "contentEncoding", "contentSchema", "x-note",
}
