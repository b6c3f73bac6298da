// Package pyjson reads JSON into values that keep member order, and writes
// them exactly as Python's json.dumps(value, indent=2, ensure_ascii=False)
// does. Upstream AHP tools rewrite the JSON files they change that way (the
// snapshot freeze, the manifest refresh), so reproducing their output byte
// for byte needs Python's formatting rules, number spellings included:
//
//   - objects keep their members in order; an empty object is {} and an
//     empty array [], otherwise every member or item is on its own line,
//     indented by two spaces per level, with ", " never used: items end
//     in "," and names are followed by ": ";
//   - strings escape only '"', '\\' and the control characters below
//     U+0020 (\b \f \n \r \t by name, the others as \u00XX in lower-case
//     hex); every other character, U+2028, U+2029 and U+007F included, is
//     written as UTF-8;
//   - a number without fraction or exponent is a Python int, written in
//     decimal ("-0" becomes "0"); Python refuses integers of more than
//     4300 digits, and so does Parse;
//   - any other number is a Python float (an IEEE double, correctly
//     rounded), written as repr writes it: the shortest digits that read
//     back to the same double, in positional notation with at least one
//     digit after the point ("100.0", "0.0001") when the decimal exponent
//     is from -4 to 15, otherwise as d.ddde±XX with at least two exponent
//     digits ("1e+16", "1e-05"); overflow is written Infinity or
//     -Infinity, as Python does.
package pyjson

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// Kind is a value's JSON kind.
type Kind uint8

// The JSON kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Value is one JSON value. Objects keep their members in document order,
// as Python's dict does.
type Value struct {
	Kind Kind
	// Bool is a boolean's value.
	Bool bool
	// Num is a number's text as written in the input (valid JSON).
	Num string
	// Str is a string's decoded text.
	Str string
	// Items are an array's items.
	Items []*Value
	// Members are an object's members, in order.
	Members []Member
}

// Member is one member of an object.
type Member struct {
	Name  string
	Value *Value
}

// MaxIntDigits is the most digits Python's int() accepts from a string
// (sys.int_info.default_max_str_digits): json.loads refuses longer
// integers.
const MaxIntDigits = 4300

// Error is a failure at a place in a document.
type Error struct {
	// Pointer is the JSON Pointer of the value concerned ("" for the root).
	Pointer string
	Msg     string
	// Offset is where in the input a syntax error is, in bytes; -1 for
	// an error of no one place.
	Offset int64
}

func (e *Error) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("#%s: %s (at byte %d)", e.Pointer, e.Msg, e.Offset)
	}
	return "#" + e.Pointer + ": " + e.Msg
}

// Parse reads one JSON document: duplicate member names, invalid UTF-8
// and lone surrogates are errors, as they are for Python's reader with
// the duplicate check upstream's tools install (a lone surrogate would
// make Python's UTF-8 writer fail instead).
func Parse(data []byte) (*Value, error) {
	d, err := ahpimpl.Parse(data, ahprt.Limits{})
	if err != nil {
		if e, ok := err.(*ahprt.Error); ok {
			return nil, &Error{Pointer: e.Pointer, Msg: e.Message, Offset: e.Offset}
		}
		return nil, &Error{Msg: err.Error(), Offset: -1}
	}
	return fromDoc(d, d.Root())
}

func fromDoc(d *ahpimpl.Doc, n ahpimpl.Node) (*Value, error) {
	switch d.Kind(n) {
	case ahpimpl.KindNull:
		return &Value{Kind: Null}, nil
	case ahpimpl.KindBool:
		return &Value{Kind: Bool, Bool: d.Bool(n)}, nil
	case ahpimpl.KindNumber:
		num := string(d.Raw(n))
		if isInt(num) && len(strings.TrimPrefix(num, "-")) > MaxIntDigits {
			return nil, &Error{Pointer: d.Pointer(n), Msg: fmt.Sprintf("an integer of %d digits: Python reads at most %d", len(strings.TrimPrefix(num, "-")), MaxIntDigits), Offset: -1}
		}
		return &Value{Kind: Number, Num: num}, nil
	case ahpimpl.KindString:
		return &Value{Kind: String, Str: d.Text(n)}, nil
	case ahpimpl.KindArray:
		v := &Value{Kind: Array, Items: []*Value{}}
		for it := d.Items(n); it.Next(); {
			x, err := fromDoc(d, it.Item())
			if err != nil {
				return nil, err
			}
			v.Items = append(v.Items, x)
		}
		return v, nil
	default:
		v := &Value{Kind: Object, Members: []Member{}}
		for m := d.Members(n); m.Next(); {
			x, err := fromDoc(d, m.Value())
			if err != nil {
				return nil, err
			}
			v.Members = append(v.Members, Member{Name: m.Key(), Value: x})
		}
		return v, nil
	}
}

// Str is a string value.
func Str(s string) *Value { return &Value{Kind: String, Str: s} }

// Get returns the value of an object's member, if the object has it.
func (v *Value) Get(name string) (*Value, bool) {
	if v == nil || v.Kind != Object {
		return nil, false
	}
	for _, m := range v.Members {
		if m.Name == name {
			return m.Value, true
		}
	}
	return nil, false
}

// Set gives an object's member a value as Python's assignment does: in
// place when the object has the member, appended otherwise.
func (v *Value) Set(name string, x *Value) {
	for i, m := range v.Members {
		if m.Name == name {
			v.Members[i].Value = x
			return
		}
	}
	v.Members = append(v.Members, Member{Name: name, Value: x})
}

// Text is a string value's text, and whether v is a string.
func (v *Value) Text() (string, bool) {
	if v == nil || v.Kind != String {
		return "", false
	}
	return v.Str, true
}

// Dumps writes v as json.dumps(v, indent=2, ensure_ascii=False) does
// (without a final newline).
func Dumps(v *Value) ([]byte, error) {
	return appendValue(nil, v, 0)
}

// File is the text Python's tools write for v: Dumps and a newline.
func File(v *Value) ([]byte, error) {
	b, err := Dumps(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func appendIndent(b []byte, level int) []byte {
	b = append(b, '\n')
	for i := 0; i < level; i++ {
		b = append(b, ' ', ' ')
	}
	return b
}

func appendValue(b []byte, v *Value, level int) ([]byte, error) {
	switch v.Kind {
	case Null:
		return append(b, "null"...), nil
	case Bool:
		if v.Bool {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case Number:
		s, err := FormatNumber(v.Num)
		if err != nil {
			return nil, err
		}
		return append(b, s...), nil
	case String:
		return AppendString(b, v.Str)
	case Array:
		if len(v.Items) == 0 {
			return append(b, "[]"...), nil
		}
		b = append(b, '[')
		for i, x := range v.Items {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendIndent(b, level+1)
			var err error
			if b, err = appendValue(b, x, level+1); err != nil {
				return nil, err
			}
		}
		b = appendIndent(b, level)
		return append(b, ']'), nil
	case Object:
		if len(v.Members) == 0 {
			return append(b, "{}"...), nil
		}
		b = append(b, '{')
		for i, m := range v.Members {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendIndent(b, level+1)
			var err error
			if b, err = AppendString(b, m.Name); err != nil {
				return nil, err
			}
			b = append(b, ':', ' ')
			if b, err = appendValue(b, m.Value, level+1); err != nil {
				return nil, err
			}
		}
		b = appendIndent(b, level)
		return append(b, '}'), nil
	}
	return nil, fmt.Errorf("pyjson: value of unknown kind %d", v.Kind)
}

// AppendString appends s as a JSON string with Python's escapes for
// ensure_ascii=False. s must be valid UTF-8 (Python cannot write a lone
// surrogate as UTF-8 either).
func AppendString(b []byte, s string) ([]byte, error) {
	if !utf8.ValidString(s) {
		return nil, fmt.Errorf("pyjson: string %q is not valid UTF-8", s)
	}
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b = append(b, '\\', '"')
		case c == '\\':
			b = append(b, '\\', '\\')
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"'), nil
}

func isInt(num string) bool { return !strings.ContainsAny(num, ".eE") }

// FormatNumber spells a JSON number as Python writes the value json.loads reads
// from it: an int in decimal, a float as repr.
func FormatNumber(num string) (string, error) {
	if isInt(num) {
		digits := strings.TrimPrefix(num, "-")
		if digits == "" || len(digits) > 1 && digits[0] == '0' || strings.Trim(digits, "0123456789") != "" {
			return "", fmt.Errorf("pyjson: %q is not a JSON integer", num)
		}
		if len(digits) > MaxIntDigits {
			return "", fmt.Errorf("pyjson: an integer of %d digits: Python writes at most %d", len(digits), MaxIntDigits)
		}
		if digits == "0" {
			return "0", nil // int("-0") is 0
		}
		return num, nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil && !isRange(err) {
		return "", fmt.Errorf("pyjson: %q is not a JSON number", num)
	}
	return Repr(f), nil
}

func isRange(err error) bool {
	e, ok := err.(*strconv.NumError)
	return ok && e.Err == strconv.ErrRange
}

// Repr is Python's repr of a float (json.dumps spells floats so, and
// infinities as Infinity and -Infinity).
func Repr(f float64) string {
	switch {
	case f != f:
		return "NaN"
	case f > 1.7976931348623157e308:
		return "Infinity"
	case f < -1.7976931348623157e308:
		return "-Infinity"
	}
	sign := ""
	if f < 0 || f == 0 && 1/f < 0 {
		sign = "-"
		f = -f
	}
	if f == 0 {
		return sign + "0.0"
	}
	// The shortest digits that read back to f, and the exponent of the
	// first: f = d.ddd × 10^exp.
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expText, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expText)
	// Python's rule (float_repr_style "short"): with the point after
	// decpt digits, positional when -4 < decpt <= 16.
	decpt := exp + 1
	if decpt > -4 && decpt <= 16 {
		switch {
		case decpt <= 0:
			return sign + "0." + strings.Repeat("0", -decpt) + digits
		case decpt < len(digits):
			return sign + digits[:decpt] + "." + digits[decpt:]
		default:
			return sign + digits + strings.Repeat("0", decpt-len(digits)) + ".0"
		}
	}
	out := sign + digits[:1]
	if len(digits) > 1 {
		out += "." + digits[1:]
	}
	x := decpt - 1
	es := "+"
	if x < 0 {
		es = "-"
		x = -x
	}
	xs := strconv.Itoa(x)
	if len(xs) < 2 {
		xs = "0" + xs
	}
	return out + "e" + es + xs
}

// Text is how Python's pathlib reads a text file (read_text with
// encoding="utf-8"): the bytes must be UTF-8, and universal newlines turn
// every CR LF and every lone CR into LF. Writing the text back (on a
// POSIX system) writes these bytes.
func Text(data []byte) (string, error) {
	if !utf8.Valid(data) {
		return "", fmt.Errorf("not valid UTF-8")
	}
	s := string(data)
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	return s, nil
}
