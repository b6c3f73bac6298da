// Package bench compares ahpgen's generated decoders and encoders with the
// usual alternatives on real AHP messages. See BENCHMARKS.md at the repository
// root and run ./run from this folder.
package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// Kind is one group of messages decoded by the same entry point.
type Kind struct {
	Name    string   // benchmark name: intercept-request, ...
	Schema  string   // upstream schema file (relative to schema/draft/)
	Cases   []string // fixture ids (or a description of a synthesized message)
	Msgs    [][]byte // the messages, as on the wire
	Bytes   int64    // total size of Msgs
	Aliases []string // other upstream schemas whose valid fixtures belong to this kind
}

// Kinds lists the message kinds in benchmark order.
var kindOrder = []Kind{
	{Name: "intercept-request", Schema: "intercept-request.schema.json"},
	{Name: "intercept-response", Schema: "intercept-response.schema.json",
		Aliases: []string{"intercept-no-effect-response.schema.json", "intercept-deny-response.schema.json"}},
	{Name: "observe-notification", Schema: "observe-notification.schema.json"},
	{Name: "capabilities-response", Schema: "capabilities-response.schema.json"},
	{Name: "registration", Schema: "registration.schema.json"},
}

// LargeKind is the name of the synthesized ~1 MiB intercept request.
const LargeKind = "intercept-request-1MiB"

// ErrNoUpstream reports that the upstream reference data is absent.
var ErrNoUpstream = errors.New("upstream AHP reference data absent")

// Root is the upstream AHP folder: $AHP_ROOT, else ../shared/ahp-upstream
// beside the repository.
func Root() (string, error) {
	if r := os.Getenv("AHP_ROOT"); r != "" {
		return r, nil
	}
	_, file, _, _ := runtime.Caller(0)
	r := filepath.Join(filepath.Dir(file), "..", "..", "shared", "ahp-upstream")
	if _, err := os.Stat(filepath.Join(r, "fixtures", "draft", "manifest.json")); err != nil {
		return "", fmt.Errorf("%w: %s (set AHP_ROOT)", ErrNoUpstream, r)
	}
	return r, nil
}

type manifest struct {
	Cases []struct {
		ID            string `json:"id"`
		Path          string `json:"path"`
		Schema        string `json:"schema"`
		ExpectedValid bool   `json:"expectedValid"`
	} `json:"cases"`
}

// Fixtures loads the valid draft fixtures of the upstream manifest, grouped
// by kind. Fixtures validated against the aggregate schema.json are sorted
// by their method: hooks/intercept requests and hooks/observe
// notifications. Cases of no listed kind (the capabilities request, the
// error response) are returned as skipped.
func Fixtures(root string) (kinds []Kind, skipped []string, err error) {
	raw, err := os.ReadFile(filepath.Join(root, "fixtures", "draft", "manifest.json"))
	if err != nil {
		return nil, nil, err
	}
	var m manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, nil, err
	}
	kinds = append([]Kind(nil), kindOrder...)
	bySchema := map[string]int{}
	for i, k := range kinds {
		bySchema[k.Schema] = i
		for _, a := range k.Aliases {
			bySchema[a] = i
		}
	}
	for _, c := range m.Cases {
		if !c.ExpectedValid {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.Path)))
		if err != nil {
			return nil, nil, err
		}
		schema := filepath.Base(c.Schema)
		if schema == "schema.json" {
			var env struct {
				Method string `json:"method"`
			}
			_ = json.Unmarshal(data, &env)
			switch env.Method {
			case "hooks/intercept":
				schema = "intercept-request.schema.json"
			case "hooks/observe":
				schema = "observe-notification.schema.json"
			}
		}
		i, ok := bySchema[schema]
		if !ok {
			skipped = append(skipped, c.ID+" ("+schema+")")
			continue
		}
		k := &kinds[i]
		k.Cases = append(k.Cases, c.ID)
		k.Msgs = append(k.Msgs, data)
		k.Bytes += int64(len(data))
	}
	for _, k := range kinds {
		if len(k.Msgs) == 0 {
			return nil, nil, fmt.Errorf("no valid fixture of kind %s in the manifest", k.Name)
		}
	}
	return kinds, skipped, nil
}

// Corpus is Fixtures with the large message appended as the last kind.
func Corpus(root string) (kinds []Kind, skipped []string, err error) {
	if kinds, skipped, err = Fixtures(root); err != nil {
		return nil, nil, err
	}
	big, err := Large(root, 1<<20)
	if err != nil {
		return nil, nil, err
	}
	kinds = append(kinds, Kind{Name: LargeKind, Schema: "intercept-request.schema.json",
		Cases: []string{"synthesized from http.model-response-intercept-modify.valid"},
		Msgs:  [][]byte{big}, Bytes: int64(len(big))})
	return kinds, skipped, nil
}

// Large builds an intercept request of about size bytes: the upstream
// model.response.after intercept fixture whose event carries messages of
// text content items (body, metadata and omitted parts, prose with escapes
// and non-ASCII text), indented like the fixtures.
func Large(root string, size int) ([]byte, error) {
	tmpl, err := os.ReadFile(filepath.Join(root, "fixtures", "draft", "http", "model-response-intercept-modify.valid.json"))
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(tmpl))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	event := doc["params"].(map[string]any)["event"].(map[string]any)
	words := strings.Fields(`The harness asked the model to summarise the build log; it found three
		failing tests in "pkg/store" and one flaky one. Résumé: retry the flaky test,
		fix the nil map write in store.go:142, then re-run — the rest passed.
		Tabs	and "quotes" and back\slashes and emoji 🙂 appear in real transcripts.`)
	var items []any
	total := len(tmpl)
	for i := 0; total < size; i++ {
		var text strings.Builder
		for j := 0; text.Len() < 240+(i%5)*40; j++ {
			if j > 0 {
				text.WriteByte(' ')
			}
			text.WriteString(words[(i*7+j)%len(words)])
			if j%11 == 10 {
				text.WriteString("\n")
			}
		}
		id := fmt.Sprintf("msg%05d", i)
		parts := []any{
			map[string]any{"id": id + "-text", "kind": "text", "mediaType": "text/plain", "selection": "body", "text": text.String()},
			map[string]any{"id": id + "-meta", "kind": "text", "mediaType": "text/plain", "selection": "metadata"},
			map[string]any{"id": id + "-omit", "kind": "text", "mediaType": "text/plain", "selection": "omit"},
		}
		item := map[string]any{"id": id, "role": "assistant", "parts": parts}
		items = append(items, item)
		b, _ := json.MarshalIndent(item, "        ", "  ")
		total += len(b) + 10
	}
	event["items"] = items
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// SchemaFiles lists the upstream draft schema files (path → contents).
func SchemaFiles(root string) (map[string][]byte, error) {
	dir := filepath.Join(root, "schema", "draft")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	var names []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".schema.json") || e.Name() == "schema.json" {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		files[n] = b
	}
	return files, nil
}
