package generate_test

import (
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/load"
)

// TestErrorsSayLine: a schema that cannot be generated names the file,
// the JSON Pointer and the line and column of the value to blame, for
// every kind of problem at a place in the file, not only syntax errors
// and meta-schema failures.
func TestErrorsSayLine(t *testing.T) {
	for _, c := range []struct {
		name, line3, want string
	}{
		{"unknown keyword", `"type": "object", "maxlength": 3`, `#/maxlength: unknown keyword "maxlength"`},
		{"dangling $ref", `"$ref": "#/$defs/nope"`, `#/$ref: $ref to `},
		{"pattern RE2 lacks", `"type": "string", "pattern": "(?<=a)b"`, `#/pattern: regular expression "(?<=a)b" cannot be compiled`},
		{"invalid pattern", `"type": "string", "pattern": "[a-"`, `#/pattern: regular expression "[a-" is invalid ECMA-262`},
		{"unknown format", `"type": "string", "format": "weird"`, `#/format: format "weird" cannot be asserted`},
	} {
		schema := "{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n  " + c.line3 + "\n}\n"
		_, err := generate.Snapshot(generate.Input{
			Key: "t", ImportPath: "example.com/t",
			Sources: []load.Source{{Path: "t/a.json", URL: "file:///t/a.json", Data: []byte(schema)}},
		}, generate.Options{Plain: true})
		if err == nil {
			t.Errorf("%s: generated", c.name)
			continue
		}
		// The value of the keyword to blame starts on line 3.
		col := 2 + strings.LastIndex(c.line3, ": ") + 3 // two spaces of indent, then ": "
		want := " (line 3, column " + itoa(col) + ")"
		if msg := err.Error(); !strings.Contains(msg, "t/a.json"+c.want) || !strings.HasSuffix(msg, want) {
			t.Errorf("%s: %s\nwant it to hold %q and end in %q", c.name, msg, c.want, want)
		}
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
