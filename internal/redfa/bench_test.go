package redfa

import (
	"regexp"
	"strings"
	"testing"
)

// BenchmarkMatch compares the DFA with regexp on patterns of the draft
// package, on inputs that match and that do not.
func BenchmarkMatch(b *testing.B) {
	const reverseDNS = `^(?:[A-Za-z][\-0-9A-Z_a-z]*\.)+[A-Za-z][\-0-9A-Z_a-z]*$`
	cases := []struct{ name, re, in string }{
		{"reverseDNS", reverseDNS, "com.example.hooks.backend"},
		{"reverseDNS/nomatch", reverseDNS, "com.example.hooks.backend-"},
		{"sha256", `^[0-9a-f]{64}$`, strings.Repeat("0123456789abcdef", 4)},
		{"https", `^https?://`, "https://example.com/hooks"},
		{"ident", `^[A-Z_a-z][0-9A-Z_a-z]*$`, "toolName_2"},
	}
	for _, c := range cases {
		d, err := Build(c.re)
		if err != nil {
			b.Fatal(err)
		}
		re := regexp.MustCompile(c.re)
		in := []byte(c.in)
		if d.Match(in) != re.Match(in) {
			b.Fatalf("%s: DFA and regexp disagree", c.name)
		}
		b.Run(c.name+"/DFA", func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				d.Match(in)
			}
		})
		b.Run(c.name+"/regexp", func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				re.Match(in)
			}
		})
	}
}
