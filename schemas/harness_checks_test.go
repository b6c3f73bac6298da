package schemas_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Checks every snapshot's tests make.

// checkDocumentsAndPointers: same files, same $ids, every upstream $defs
// entry present at the same pointer and compiling on our side.
func checkDocumentsAndPointers(t *testing.T, snap *snapshot) {
	t.Helper()
	sd := loadSides(t, snap)
	for _, f := range sd.upstream.files {
		up, _ := sd.upstream.docs[f].(map[string]any)
		ours, ok := sd.ours.docs[f].(map[string]any)
		if !ok || up == nil {
			t.Errorf("%s: not a JSON object on one side", f)
			continue
		}
		if want := snap.idBase() + f; ours["$id"] != want || up["$id"] != want {
			t.Errorf("%s: $id is %v (upstream %v), want %s", f, ours["$id"], up["$id"], want)
		}
		for _, ptr := range defsPointers(up, "") {
			if _, ok := resolvePointer(ours, ptr); !ok {
				t.Errorf("%s: upstream defines %s, ours does not", f, ptr)
				continue
			}
			if _, err := sd.ours.schema(f + "#" + ptr); err != nil {
				t.Error(err)
			}
		}
		if _, err := sd.ours.schema(f); err != nil {
			t.Error(err)
		}
	}
}

// checkOwnWording: no title, description or $comment of ours repeats
// upstream prose, whole, up to case/spacing/punctuation, or sentence by
// sentence (ignoring case).
func checkOwnWording(t *testing.T, snap *snapshot) {
	t.Helper()
	sd := loadSides(t, snap)
	upText := map[string]string{} // text -> where
	for _, f := range sd.upstream.files {
		collectProse(sd.upstream.docs[f], f, "", func(where, s string) { upText[s] = where })
	}
	if len(upText) == 0 {
		t.Fatal("found no upstream prose to compare with")
	}
	upLoose := map[string]string{}
	var upSentences []string // lower case
	for s, where := range upText {
		upLoose[normalizeProse(s)] = where
		for _, sent := range splitSentences(s) {
			if len(sent) >= minSentenceLen {
				upSentences = append(upSentences, strings.ToLower(sent))
			}
		}
	}
	sort.Strings(upSentences)
	upSentences = slices.Compact(upSentences)
	count := 0
	for _, f := range sd.ours.files {
		collectProse(sd.ours.docs[f], f, "", func(where, s string) {
			count++
			if up, ok := upText[s]; ok {
				t.Errorf("%s repeats upstream text from %s: %q", where, up, s)
				return
			}
			if up, ok := upLoose[normalizeProse(s)]; ok {
				t.Errorf("%s differs from upstream text at %s only in case, spacing or punctuation: %q", where, up, s)
				return
			}
			lower := strings.ToLower(s)
			for _, sent := range upSentences {
				if strings.Contains(lower, sent) {
					t.Errorf("%s repeats an upstream sentence: %q", where, sent)
				}
			}
		})
	}
	t.Logf("compared %d strings of ours with %d of upstream", count, len(upText))
}

// checkAuthoringRules checks the conventions every document of the
// rendition follows: LF line ends, 2-space indentation by nesting depth,
// the head keywords first and in order, title/$comment markers, a
// description, the keyword allowlist and the wire version constant.
func checkAuthoringRules(t *testing.T, snap *snapshot) {
	t.Helper()
	files, err := documentFiles(snap.ourDir())
	if err != nil {
		t.Fatal(err)
	}
	head := []string{"$schema", "$id", "title", "description", "$comment"}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(snap.ourDir(), f))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(b, '\r') >= 0 || bytes.IndexByte(b, '\t') >= 0 {
			t.Errorf("%s: contains CR or TAB", f)
		}
		if !bytes.HasSuffix(b, []byte("}\n")) {
			t.Errorf("%s: does not end in \"}\\n\"", f)
		}
		depth := 0
		for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			trimmed := strings.TrimLeft(line, " ")
			if trimmed != "" && (trimmed[0] == '}' || trimmed[0] == ']') {
				depth--
			}
			if indent := len(line) - len(trimmed); indent != 2*depth {
				t.Errorf("%s:%d: indented by %d spaces, want %d", f, i+1, indent, 2*depth)
				break
			}
			if strings.HasSuffix(trimmed, "{") || strings.HasSuffix(trimmed, "[") {
				depth++
			}
		}
		keys, err := topLevelKeys(b)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for i, k := range head {
			if i >= len(keys) || keys[i] != k {
				t.Errorf("%s: top-level keywords begin %v, want %v before any other keyword", f, keys[:min(len(keys), len(head))], head)
				break
			}
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $schema is %v", f, doc["$schema"])
		}
		if s, _ := doc["title"].(string); !strings.HasSuffix(s, snap.titleSuffix) {
			t.Errorf("%s: title %q does not end with %q", f, s, snap.titleSuffix)
		}
		if s, _ := doc["$comment"].(string); !strings.HasPrefix(s, snap.commentPrefix) {
			t.Errorf("%s: $comment %q does not start with %q", f, s, snap.commentPrefix)
		}
		if s, _ := doc["description"].(string); strings.TrimSpace(s) == "" {
			t.Errorf("%s: no top-level description", f)
		}
		checkKeywords(t, snap, f, "", doc)
		if f == "common.schema.json" {
			pv, _ := resolvePointer(doc, "/$defs/protocolVersion")
			got, _ := json.Marshal(pv)
			if want := `{"const":` + strconv.Quote(snap.wireVersion) + `}`; string(got) != want {
				t.Errorf("common.schema.json#/$defs/protocolVersion is %s, want %s", got, want)
			}
		}
	}
}

// checkKeywords walks a schema and reports keywords outside snap's
// allowlist, and upstream's own annotations in any case.
func checkKeywords(t *testing.T, snap *snapshot, file, ptr string, v any) {
	t.Helper()
	obj, ok := v.(map[string]any)
	if !ok {
		if _, isBool := v.(bool); !isBool {
			t.Errorf("%s#%s: a schema must be an object or a boolean", file, ptr)
		}
		return
	}
	for _, k := range sortedKeys(obj) {
		val := obj[k]
		here := ptr + "/" + escapeToken(k)
		switch {
		case k == "x-requirements" || k == "x-sdk-discriminator":
			t.Errorf("%s#%s: upstream annotation %s must not be carried over", file, here, k)
		case snap.annotations && strings.HasPrefix(k, "x-"):
		case !slices.Contains(snap.keywords, k):
			t.Errorf("%s#%s: keyword %q is not on the allowlist of snapshot %s", file, here, k, snap.key)
		}
		switch k {
		case "properties", "patternProperties", "$defs", "dependentSchemas":
			if m, ok := val.(map[string]any); ok {
				for _, name := range sortedKeys(m) {
					checkKeywords(t, snap, file, here+"/"+escapeToken(name), m[name])
				}
			}
		case "items", "contains", "additionalProperties", "propertyNames", "not", "if", "then", "else",
			"unevaluatedItems", "unevaluatedProperties":
			checkKeywords(t, snap, file, here, val)
		case "prefixItems", "allOf", "anyOf", "oneOf":
			if arr, ok := val.([]any); ok {
				for i, s := range arr {
					checkKeywords(t, snap, file, here+"/"+strconv.Itoa(i), s)
				}
			}
		}
	}
}

// checkManifest: the project's manifest format, the snapshot's header,
// sorted, complete, and with the ids and hashes of the current files.
func checkManifest(t *testing.T, snap *snapshot) {
	t.Helper()
	dir := snap.ourDir()
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatalf("reading manifest: %v", err)
	}
	var m struct {
		Snapshot        string `json:"snapshot"`
		ProtocolVersion string `json:"protocolVersion"`
		Status          string `json:"status"`
		Documents       []struct {
			Path   string `json:"path"`
			ID     string `json:"id"`
			SHA256 string `json:"sha256"`
		} `json:"documents"`
		SDKGeneration *struct {
			StableNames map[string]string `json:"stableNames"`
		} `json:"sdkGeneration"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("parsing manifest: %v", err)
	}
	if m.Snapshot != snap.key || m.ProtocolVersion != snap.wireVersion || m.Status != snap.status {
		t.Errorf("manifest header is snapshot=%q protocolVersion=%q status=%q; want %q, %q, %q",
			m.Snapshot, m.ProtocolVersion, m.Status, snap.key, snap.wireVersion, snap.status)
	}
	files, err := documentFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, d := range m.Documents {
		listed = append(listed, d.Path)
		fb, err := os.ReadFile(filepath.Join(dir, d.Path))
		if err != nil {
			t.Errorf("manifest lists %s: %v", d.Path, err)
			continue
		}
		sum := sha256.Sum256(fb)
		if got := hex.EncodeToString(sum[:]); got != d.SHA256 {
			t.Errorf("manifest sha256 for %s is %s; the file hashes to %s", d.Path, d.SHA256, got)
		}
		var doc struct {
			ID string `json:"$id"`
		}
		if err := json.Unmarshal(fb, &doc); err != nil {
			t.Errorf("%s: %v", d.Path, err)
		}
		if d.ID != doc.ID || d.ID != snap.idBase()+d.Path {
			t.Errorf("manifest id for %s is %q; the document's $id is %q", d.Path, d.ID, doc.ID)
		}
	}
	if !slices.IsSorted(listed) {
		t.Errorf("manifest documents are not sorted by path: %v", listed)
	}
	if !slices.Equal(listed, files) {
		t.Errorf("manifest lists %v; the folder holds %v", listed, files)
	}
	checkStableNames(t, snap, m.SDKGeneration != nil, func() map[string]string {
		if m.SDKGeneration == nil {
			return nil
		}
		return m.SDKGeneration.StableNames
	}())
}

// checkStableNames: where upstream's manifest of the snapshot gives stable
// type names (sdkGeneration.stableNames), ours gives the same names for the
// same locations, written relative to the snapshot folder.
func checkStableNames(t *testing.T, snap *snapshot, have bool, ours map[string]string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(referenceRoot(t, snap), filepath.FromSlash(snap.upstreamDir), "manifest.json"))
	if err != nil {
		t.Fatalf("reading upstream's manifest: %v", err)
	}
	var up struct {
		SDKGeneration *struct {
			StableNames map[string]string `json:"stableNames"`
		} `json:"sdkGeneration"`
	}
	if err := json.Unmarshal(b, &up); err != nil {
		t.Fatalf("parsing upstream's manifest: %v", err)
	}
	if up.SDKGeneration == nil {
		if have {
			t.Error("our manifest has sdkGeneration, upstream's has none")
		}
		return
	}
	want := map[string]string{}
	for k, v := range up.SDKGeneration.StableNames {
		want[strings.TrimPrefix(k, snap.upstreamDir+"/")] = v
	}
	if !maps.Equal(ours, want) {
		for k, v := range want {
			if ours[k] != v {
				t.Errorf("stable name of %s: ours %q, upstream's %q", k, ours[k], v)
			}
		}
		for k := range ours {
			if _, ok := want[k]; !ok {
				t.Errorf("stable name of %s: upstream's manifest has none", k)
			}
		}
	}
}
