package schemas_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// JSON walking helpers.

// defsPointers lists the JSON Pointers of every $defs entry in a document.
func defsPointers(v any, ptr string) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			here := ptr + "/" + escapeToken(k)
			if defs, ok := x[k].(map[string]any); ok && k == "$defs" {
				for _, name := range sortedKeys(defs) {
					out = append(out, here+"/"+escapeToken(name))
				}
			}
			out = append(out, defsPointers(x[k], here)...)
		}
	case []any:
		for i, e := range x {
			out = append(out, defsPointers(e, ptr+"/"+strconv.Itoa(i))...)
		}
	}
	return out
}

// collectProse calls emit for every title, description and $comment string.
func collectProse(v any, file, ptr string, emit func(where, s string)) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			here := ptr + "/" + escapeToken(k)
			if s, ok := x[k].(string); ok && (k == "title" || k == "description" || k == "$comment") {
				emit(file+"#"+here, s)
				continue
			}
			collectProse(x[k], file, here, emit)
		}
	case []any:
		for i, e := range x {
			collectProse(e, file, ptr+"/"+strconv.Itoa(i), emit)
		}
	}
}

// normalizeProse lowercases s and keeps only its letters and digits.
func normalizeProse(s string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(s) {
		if ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') {
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

var sentenceEnd = regexp.MustCompile(`[.;:!?]\s+`)

func splitSentences(s string) []string {
	var out []string
	for _, p := range sentenceEnd.Split(s, -1) {
		p = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(p), ".;:!?"))
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

func topLevelKeys(b []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("document is not a JSON object")
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func anyMap[V any](m map[string]V) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func unescapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

func resolvePointer(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = unescapeToken(tok)
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[tok]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// jsonText renders v as compact JSON, shortened to n bytes when n > 0.
func jsonText(v any, n int) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if n > 0 {
		return shorten(string(b), n)
	}
	return string(b)
}

// mustJSON parses a hand-written seed (numbers as json.Number).
func mustJSON(t *testing.T, name, text string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		t.Fatalf("seed %s: %v", name, err)
	}
	return v
}

// ---------------------------------------------------------------------------
// Instance trees.

type node struct {
	ptr    string
	parent any    // map[string]any or []any, nil for the root
	key    string // member name when the parent is an object
	index  int    // item index when the parent is an array, else -1
	value  any
}

func (n node) inObject() bool { _, ok := n.parent.(map[string]any); return ok }

// collectNodes lists every node of v, depth first, members in key order.
func collectNodes(v any) []node {
	var out []node
	var walk func(ptr string, parent any, key string, index int, v any)
	walk = func(ptr string, parent any, key string, index int, v any) {
		out = append(out, node{ptr: ptr, parent: parent, key: key, index: index, value: v})
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				walk(ptr+"/"+escapeToken(k), x, k, -1, x[k])
			}
		case []any:
			for i, e := range x {
				walk(ptr+"/"+strconv.Itoa(i), x, "", i, e)
			}
		}
	}
	walk("", nil, "", -1, v)
	return out
}

// memberNameOf is the member a node belongs to: its own key, or for an
// array item the key holding the array.
func memberNameOf(n node) string {
	if n.index < 0 {
		return n.key
	}
	toks := strings.Split(n.ptr, "/")
	if len(toks) >= 2 {
		return unescapeToken(toks[len(toks)-2])
	}
	return ""
}

func filterNodes(nodes []node, keep func(node) bool) []node {
	var out []node
	for _, n := range nodes {
		if keep(n) {
			out = append(out, n)
		}
	}
	return out
}

// notBelow keeps the nodes that are not strictly below ptr.
func notBelow(ptr string) func(node) bool {
	return func(n node) bool { return !strings.HasPrefix(n.ptr, ptr+"/") }
}

// atOrBelow keeps ptr and the nodes below it.
func atOrBelow(ptr string) func(node) bool {
	return func(n node) bool { return n.ptr == ptr || strings.HasPrefix(n.ptr, ptr+"/") }
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	default:
		return v
	}
}

// edit returns a copy of doc in which the value at ptr is replaced by
// fn(old), old being the value in the copy; at the root, fn's result is
// the new document.
func edit(doc any, ptr string, fn func(old any) any) any {
	cp := deepCopy(doc)
	if ptr == "" {
		return fn(cp)
	}
	parent, last := parentIn(cp, ptr)
	switch x := parent.(type) {
	case map[string]any:
		x[last] = fn(x[last])
	case []any:
		i, _ := strconv.Atoi(last)
		x[i] = fn(x[i])
	}
	return cp
}

// parentIn resolves the container of ptr (which must not be the root) and
// the last, unescaped, token of ptr.
func parentIn(doc any, ptr string) (any, string) {
	i := strings.LastIndex(ptr, "/")
	parent, _ := resolvePointer(doc, ptr[:i])
	return parent, unescapeToken(ptr[i+1:])
}

func setValue(doc any, ptr string, val any) any {
	return edit(doc, ptr, func(any) any { return val })
}

// removeMember returns a copy of doc without the object member at ptr.
func removeMember(doc any, ptr string) any {
	cp := deepCopy(doc)
	if parent, last := parentIn(cp, ptr); parent != nil {
		delete(parent.(map[string]any), last)
	}
	return cp
}

// withMember returns a copy of doc in which the object at ptr has the
// member key = a copy of val.
func withMember(doc any, ptr, key string, val any) any {
	return edit(doc, ptr, func(old any) any {
		old.(map[string]any)[key] = deepCopy(val)
		return old
	})
}

func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case json.Number, float64, int:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	return "?"
}

func pick[T any](rng *rand.Rand, xs []T) (T, bool) {
	var zero T
	if len(xs) == 0 {
		return zero, false
	}
	return xs[rng.IntN(len(xs))], true
}
