package ecmaregex

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func jstsDir(t *testing.T) string {
	if d := os.Getenv("JSTS_DIR"); d != "" {
		if _, err := os.Stat(d); err != nil {
			t.Fatalf("JSTS_DIR=%s: %v", d, err)
		}
		return d
	}
	d := filepath.Join("..", "..", "..", "shared", "jsts")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("JSTS_DIR is unset and %s is absent: skipping the JSON-Schema-Test-Suite check", d)
	}
	return d
}

type suiteGroup struct {
	Description string                     `json:"description"`
	Schema      map[string]json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

func TestJSONSchemaTestSuite(t *testing.T) {
	dir := filepath.Join(jstsDir(t), "tests", "draft2020-12")
	files := []struct {
		name     string
		required bool
	}{
		{"pattern.json", true},
		{"patternProperties.json", true},
		{"optional/ecmascript-regex.json", true},
		{"optional/non-bmp-regex.json", true},
		{"optional/format/ecmascript-regex.json", false},
		{"optional/format/regex.json", false},
	}
	agree, total := 0, 0
	for _, f := range files {
		raw, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.name)))
		if err != nil {
			if f.required {
				t.Errorf("%s: %v", f.name, err)
			} else {
				t.Logf("%s: %v (skipped)", f.name, err)
			}
			continue
		}
		var groups []suiteGroup
		if err := json.Unmarshal(raw, &groups); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		for _, g := range groups {
			for _, tc := range g.Tests {
				got, ok, err := suiteOutcome(g.Schema, tc.Data)
				if !ok {
					continue
				}
				total++
				where := fmt.Sprintf("%s: %s: %s", f.name, g.Description, tc.Description)
				switch {
				case err != nil:
					t.Logf("DISAGREE %s: %v", where, err)
				case got != tc.Valid:
					t.Logf("DISAGREE %s: valid %v, suite says %v", where, got, tc.Valid)
				default:
					agree++
				}
			}
		}
	}
	t.Logf("ecmaregex: %d/%d suite tests agree", agree, total)
	if agree < suiteFloor {
		t.Errorf("ecmaregex: %d suite tests agree, below the floor of %d", agree, suiteFloor)
	}
}

// suiteOutcome decides a suite test whose outcome depends only on pattern
// matching (pattern on string data, patternProperties on object keys) or on
// regex validity (format "regex" on string data). ok is false for tests
// that depend on something else.
func suiteOutcome(schema map[string]json.RawMessage, data json.RawMessage) (valid, ok bool, err error) {
	var value any
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&value); err != nil {
		return false, false, nil
	}
	known := map[string]bool{"$schema": true, "type": true, "pattern": true,
		"patternProperties": true, "additionalProperties": true, "format": true}
	for k := range schema {
		if !known[k] {
			return false, false, nil
		}
	}
	valid = true
	if raw, has := schema["type"]; has {
		tv, tok := typeCheck(raw, value)
		if !tok {
			return false, false, nil
		}
		valid = valid && tv
	}
	if raw, has := schema["format"]; has {
		var format string
		s, isString := value.(string)
		if json.Unmarshal(raw, &format) != nil || format != "regex" || !isString {
			return false, false, nil
		}
		return valid && Valid(s), true, nil
	}
	if raw, has := schema["pattern"]; has {
		s, isString := value.(string)
		if !isString {
			return false, false, nil
		}
		var pattern string
		if err := json.Unmarshal(raw, &pattern); err != nil {
			return false, false, nil
		}
		re, err := compile(pattern)
		if err != nil {
			return false, true, err
		}
		return valid && re.MatchString(s), true, nil
	}
	raw, has := schema["patternProperties"]
	obj, isObject := value.(map[string]any)
	if !has || !isObject {
		return false, false, nil
	}
	var pp map[string]json.RawMessage
	if err := json.Unmarshal(raw, &pp); err != nil {
		return false, false, nil
	}
	additional := json.RawMessage("true")
	if a, has := schema["additionalProperties"]; has {
		additional = a
	}
	for key, v := range obj {
		matched := false
		for pattern, sub := range pp {
			re, err := compile(pattern)
			if err != nil {
				return false, true, err
			}
			if !re.MatchString(key) {
				continue
			}
			matched = true
			sv, sok := miniValidate(sub, v)
			if !sok {
				return false, false, nil
			}
			valid = valid && sv
		}
		if !matched {
			av, aok := miniValidate(additional, v)
			if !aok {
				return false, false, nil
			}
			valid = valid && av
		}
	}
	return valid, true, nil
}

func compile(pattern string) (*regexp.Regexp, error) {
	re2, err := Translate(pattern)
	if err != nil {
		return nil, err
	}
	return regexp.Compile(re2)
}

// miniValidate evaluates the small subschemas the pattern groups use:
// booleans, type and maximum. ok is false for anything else.
func miniValidate(raw json.RawMessage, v any) (valid, ok bool) {
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return b, true
	}
	var s map[string]json.RawMessage
	if json.Unmarshal(raw, &s) != nil {
		return false, false
	}
	valid = true
	for k, r := range s {
		switch k {
		case "type":
			tv, tok := typeCheck(r, v)
			if !tok {
				return false, false
			}
			valid = valid && tv
		case "maximum":
			var max float64
			if json.Unmarshal(r, &max) != nil {
				return false, false
			}
			if n, isNum := v.(json.Number); isNum {
				f, err := n.Float64()
				if err != nil {
					return false, false
				}
				valid = valid && f <= max
			}
		default:
			return false, false
		}
	}
	return valid, true
}

func typeCheck(raw json.RawMessage, v any) (valid, ok bool) {
	var typ string
	if json.Unmarshal(raw, &typ) != nil {
		return false, false
	}
	switch typ {
	case "string":
		_, valid = v.(string)
	case "object":
		_, valid = v.(map[string]any)
	case "array":
		_, valid = v.([]any)
	case "boolean":
		_, valid = v.(bool)
	case "null":
		valid = v == nil
	case "number":
		_, valid = v.(json.Number)
	case "integer":
		n, isNum := v.(json.Number)
		if isNum {
			f, err := n.Float64()
			valid = err == nil && f == float64(int64(f))
		}
	default:
		return false, false
	}
	return valid, true
}
