package backend

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/router"
)

// skimmed is skim's verdict on data, written in pieces of n bytes.
func skimmed(data []byte, n int) bool {
	var s skim
	for len(data) > n {
		s.write(data[:n])
		data = data[n:]
	}
	s.write(data)
	return s.notification()
}

// TestSkimAgreesWithUnanswered: skim, which reads a line too long to
// parse, says a line is a notification exactly when router.Unanswered,
// which parses it, says so of a message that broke only the parse's
// limits: on seeds and on thousands of their mutants (a fixed seed, so a
// failure repeats), written whole and in pieces.
func TestSkimAgreesWithUnanswered(t *testing.T) {
	seeds := []string{
		`{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{"a":[1,-2.5e+3,0,true,false,null,{"id":"x"}],"s":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"}}}`,
		`{"jsonrpc":"2.0","id":"n","method":"hooks/observe","params":{}}`,
		`{"\u006dethod":"m","x":{"method":1,"id":2},"y":[]}`,
		`{"method":"m","\u0069d":null}`,
		`{"method":"m","method":"m","i":0.0e0,"j":-0,"k":1E9}`,
		` { "method" : "m" , "params" : [ [ ] , { } , "" ] } `,
		`{"method":"m","native":{"deep":[[[[{"a":[{}]}]]]]}}`,
		"{\"method\":\"m\",\"u\":\"\xff\xfe\"}",
		`{"method":"m","methods":1,"idx":2,"":3}`,
	}
	alphabet := []byte(`{}[]:,"\ 0123456789.eE+-tfnulrasu` + "\t\x01\xc3")
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(data []byte) {
		t.Helper()
		want := router.Unanswered(data, &ahprt.Error{Code: ahprt.CodeTooLarge})
		for _, n := range []int{len(data) + 1, 1, 7} {
			if got := skimmed(data, n); got != want {
				t.Fatalf("%q in pieces of %d: skim says %v, Unanswered %v", data, n, got, want)
			}
		}
	}
	agreed := map[bool]int{}
	for _, s := range seeds {
		check([]byte(s))
		for range 3000 {
			b := []byte(s)
			for range 1 + rng.IntN(3) {
				i := rng.IntN(len(b) + 1)
				switch rng.IntN(4) {
				case 0:
					if i < len(b) {
						b = append(b[:i], b[i+1:]...)
					}
				case 1:
					b = append(b[:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[i:]...)...)
				case 2:
					if i < len(b) {
						b[i] = alphabet[rng.IntN(len(alphabet))]
					}
				case 3:
					j := i + rng.IntN(len(b)-i+1)
					b = append(b[:j], append(bytes.Clone(b[i:j]), b[j:]...)...)
				}
			}
			check(b)
			agreed[router.Unanswered(b, &ahprt.Error{Code: ahprt.CodeTooLarge})]++
		}
	}
	if agreed[true] < 1000 || agreed[false] < 1000 {
		t.Errorf("the mutants were too rarely one kind: %v notifications", agreed)
	}
}

// TestSkimLine: what only a stdio line has: a CR ends it or breaks it, and
// nesting beyond maxSkimDepth is taken for no notification.
func TestSkimLine(t *testing.T) {
	note := `{"method":"m","params":{}}`
	nest := func(n int) string { // the top-level object holding n arrays, one in the other
		return `{"method":"m","x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
	}
	for in, want := range map[string]bool{
		note:                                     true,
		note + "\r":                              true,
		note + " \r":                             true,
		note + "\r ":                             false,
		"\r" + note:                              false,
		`{"method":"m"` + "\r" + `,"params":{}}`: false,
		nest(maxSkimDepth - 1):                   true,
		nest(maxSkimDepth):                       false,
	} {
		if got := skimmed([]byte(in), 4096); got != want {
			t.Errorf("%.60q (%d bytes): %v, want %v", in, len(in), got, want)
		}
	}
}
