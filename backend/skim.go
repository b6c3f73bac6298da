package backend

import (
	"bytes"
	"encoding/json"
)

// skim reads a stdio line too long to parse, a piece at a time, keeping
// a bounded state, to tell whether it is a notification: JSON text whose
// top level is an object with a method member and no id member, what
// router.Unanswered says of a message that breaks only the parse's
// limits. Such a line is skipped without an answer: JSON-RPC answers no
// notification, and a -32700 with a null id, sent while the harness has
// an intercept outstanding, reads as that intercept's reply.
//
// It checks the JSON grammar (not UTF-8, which Unanswered does not
// require either) with a stack of the containers open, up to
// maxSkimDepth: a line nested deeper is taken for no notification, and
// answered as before. A CR is whitespace only at the end of the line
// (CR LF); anywhere else it breaks the line's framing, as frame says.
type skim struct {
	state   uint8
	stack   []byte // '{' or '[' for each container open
	lit     string // the rest of a literal (true, false, null) being read
	hex     int    // hex digits left in a \u escape
	cr      bool   // a CR was read, which must end the line
	isName  bool   // the string being read is a member name
	key     bool   // of the top-level object
	name    []byte // that name as written, up to maxName bytes
	long    bool   // it was longer
	method  bool
	id      bool
	escaped bool // the name holds an escape
}

// The states of a skim.
const (
	skimValue      = iota // a value is next
	skimValueOrEnd        // after [: a value or ]
	skimNameOrEnd         // after {: a name or }
	skimName              // after , in an object: a name
	skimColon             // after a name
	skimAfter             // after a value: , or the container's end
	skimDone              // after the top-level value: whitespace only
	skimString
	skimEscape
	skimLiteral
	skimMinus // after -
	skimZero  // a 0 that begins a number
	skimInt
	skimDot // after .
	skimFrac
	skimE     // after e or E
	skimESign // after its sign
	skimExp
	skimFail // no notification
)

// maxSkimDepth bounds the containers a skim keeps (one byte each).
const maxSkimDepth = 1 << 16

// maxName is the longest member name a skim keeps: "method" with every
// character escaped (\u006d...) fits.
const maxName = 6 * len(`\u0000`)

func (s *skim) write(p []byte) {
	for i := 0; i < len(p) && s.state != skimFail; i++ {
		s.byte(p[i])
	}
}

// byte reads one byte.
func (s *skim) byte(c byte) {
	if s.cr {
		s.state = skimFail // a CR before the line's end
		return
	}
	if s.hex > 0 { // in a string, after \u
		s.keep(c)
		if !isHex(c) {
			s.state = skimFail
		}
		s.hex--
		return
	}
	switch s.state {
	case skimString:
		switch {
		case c == '"':
			s.endString()
		case c == '\\':
			s.state = skimEscape
		case c < 0x20:
			s.state = skimFail
		}
		s.keep(c)
		return
	case skimEscape:
		s.keep(c)
		s.escaped = true
		switch c {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			s.state = skimString
		case 'u':
			s.hex, s.state = 4, skimString
		default:
			s.state = skimFail
		}
		return
	}
	switch s.state {
	case skimLiteral:
		if c != s.lit[0] {
			s.state = skimFail
		} else if s.lit = s.lit[1:]; s.lit == "" {
			s.state = skimAfter
		}
		return
	case skimMinus:
		s.digitAfter(c, skimInt)
		if c == '0' {
			s.state = skimZero
		}
		return
	case skimDot:
		s.digitAfter(c, skimFrac)
		return
	case skimE:
		if c == '+' || c == '-' {
			s.state = skimESign
			return
		}
		s.digitAfter(c, skimExp)
		return
	case skimESign:
		s.digitAfter(c, skimExp)
		return
	case skimZero, skimInt, skimFrac, skimExp:
		switch {
		case c >= '0' && c <= '9' && s.state != skimZero:
			return
		case c == '.' && (s.state == skimZero || s.state == skimInt):
			s.state = skimDot
			return
		case (c == 'e' || c == 'E') && s.state != skimExp:
			s.state = skimE
			return
		}
		s.state = skimAfter // the number ended: c follows it
	}
	if c == ' ' || c == '\t' || c == '\n' {
		return
	}
	if c == '\r' {
		s.cr = true
		return
	}
	switch s.state {
	case skimValue, skimValueOrEnd:
		if c == ']' && s.state == skimValueOrEnd {
			s.close(c)
			return
		}
		s.value(c)
	case skimNameOrEnd, skimName:
		switch {
		case c == '}' && s.state == skimNameOrEnd:
			s.close(c)
		case c == '"':
			s.state, s.isName = skimString, true
			if s.key = len(s.stack) == 1; s.key {
				s.name, s.long, s.escaped = s.name[:0], false, false
			}
		default:
			s.state = skimFail
		}
	case skimColon:
		s.expect(c == ':', skimValue)
	case skimAfter:
		switch {
		case c == ',' && s.top() == '{':
			s.state = skimName
		case c == ',':
			s.state = skimValue
		case c == '}' || c == ']':
			s.close(c)
		default:
			s.state = skimFail
		}
	default: // skimDone: anything but whitespace is trailing data
		s.state = skimFail
	}
}

// value starts a value with c.
func (s *skim) value(c byte) {
	if len(s.stack) == 0 && c != '{' {
		s.state = skimFail // the top level is no object
		return
	}
	switch c {
	case '{', '[':
		if len(s.stack) == maxSkimDepth {
			s.state = skimFail
			return
		}
		s.stack = append(s.stack, c)
		s.state = skimValueOrEnd
		if c == '{' {
			s.state = skimNameOrEnd
		}
	case '"':
		s.state, s.isName, s.key = skimString, false, false
	case 't':
		s.state, s.lit = skimLiteral, "rue"
	case 'f':
		s.state, s.lit = skimLiteral, "alse"
	case 'n':
		s.state, s.lit = skimLiteral, "ull"
	case '-':
		s.state = skimMinus
	case '0':
		s.state = skimZero
	default:
		s.expect(c >= '1' && c <= '9', skimInt)
	}
}

// close ends the container open with c's counterpart.
func (s *skim) close(c byte) {
	if open := s.top(); open == '{' && c != '}' || open == '[' && c != ']' {
		s.state = skimFail
		return
	}
	s.stack = s.stack[:len(s.stack)-1]
	s.state = skimAfter
	if len(s.stack) == 0 {
		s.state = skimDone
	}
}

func (s *skim) top() byte {
	if len(s.stack) == 0 {
		return 0
	}
	return s.stack[len(s.stack)-1]
}

func (s *skim) expect(ok bool, next uint8) {
	s.state = skimFail
	if ok {
		s.state = next
	}
}

func (s *skim) digitAfter(c byte, next uint8) { s.expect(c >= '0' && c <= '9', next) }

// keep adds c to the member name being read, or, at its closing quote
// (the state is no longer skimString), leaves it as it is.
func (s *skim) keep(c byte) {
	if !s.key || s.state != skimString && s.state != skimEscape {
		return
	}
	if len(s.name) == maxName {
		s.long = true
		return
	}
	s.name = append(s.name, c)
}

// endString ends a string; a member name of the top-level object is
// compared with method and id, as decoded.
func (s *skim) endString() {
	s.state = skimAfter
	if s.isName {
		s.state = skimColon
	}
	if !s.key {
		return
	}
	s.key = false
	if s.long {
		return
	}
	name := s.name
	if s.escaped {
		var v string
		if json.Unmarshal(append(append([]byte{'"'}, name...), '"'), &v) != nil {
			return // an escape of a lone surrogate: neither name
		}
		name = []byte(v)
	}
	switch {
	case bytes.Equal(name, []byte("method")):
		s.method = true
	case bytes.Equal(name, []byte("id")):
		s.id = true
	}
}

// notification reports whether the text read is one: a whole JSON
// object, with a method member and no id member.
func (s *skim) notification() bool {
	return s.state == skimDone && s.method && !s.id
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
