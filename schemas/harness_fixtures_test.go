package schemas_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Fixtures.

type fixtureCase struct {
	ID            string `json:"id"`
	Path          string `json:"path"`
	Binding       string `json:"binding"`
	Schema        string `json:"schema"`
	EventSchema   string `json:"eventSchema"`
	ExpectedValid bool   `json:"expectedValid"`
	SHA256        string `json:"sha256"`
}

type fixture struct {
	fixtureCase
	ref        string // Schema relative to the snapshot folder
	eventRef   string // EventSchema relative to the snapshot folder, if any
	framingOK  bool   // stdio-jsonl: one line ending in one LF, no CR; always true otherwise
	framingWhy string // why framing failed
	doc        any    // the (framed-out) text parsed; nil when it is not one JSON value
	parseErr   error
}

// frame checks stdio-jsonl framing and returns the framed-out text: the
// file without its final LF.
func frame(b []byte) (text []byte, ok bool, why string) {
	text = bytes.TrimSuffix(b, []byte("\n"))
	switch {
	case len(b) == 0:
		return b, false, "empty file"
	case bytes.IndexByte(b, '\r') >= 0:
		return text, false, "contains CR"
	case b[len(b)-1] != '\n':
		return b, false, "does not end in LF"
	case bytes.IndexByte(text, '\n') >= 0:
		return text, false, fmt.Sprintf("spans %d lines", bytes.Count(b, []byte("\n")))
	case len(bytes.TrimSpace(text)) == 0:
		return text, false, "blank line"
	}
	return text, true, ""
}

// loadFixtures reads the snapshot's fixture manifest and every case it
// lists, checking the manifest's snapshot name, the case hashes and that
// every schema named lies in the snapshot's upstream folder.
func loadFixtures(t *testing.T, sd *sides) []fixture {
	t.Helper()
	snap := sd.snap
	b, err := os.ReadFile(filepath.Join(sd.root, "fixtures", snap.key, "manifest.json"))
	if err != nil {
		t.Fatalf("reading the fixture manifest: %v", err)
	}
	var m struct {
		Cases []fixtureCase `json:"cases"`
	}
	var head map[string]any
	if err := errors.Join(json.Unmarshal(b, &m), json.Unmarshal(b, &head)); err != nil {
		t.Fatalf("parsing the fixture manifest: %v", err)
	}
	if head[snap.fixtureField] != snap.key {
		t.Errorf("fixture manifest %s is %v, want %q", snap.fixtureField, head[snap.fixtureField], snap.key)
	}
	prefix := snap.upstreamDir + "/"
	relative := func(id, schema string) string {
		t.Helper()
		if !strings.HasPrefix(schema, prefix) {
			t.Fatalf("fixture %s: schema %q is outside %s", id, schema, prefix)
		}
		return strings.TrimPrefix(schema, prefix)
	}
	var out []fixture
	for _, c := range m.Cases {
		fb, err := os.ReadFile(filepath.Join(sd.root, filepath.FromSlash(c.Path)))
		if err != nil {
			t.Fatalf("fixture %s: %v", c.ID, err)
		}
		if c.SHA256 != "" {
			sum := sha256.Sum256(fb)
			if got := hex.EncodeToString(sum[:]); got != c.SHA256 {
				t.Errorf("fixture %s: file hashes to %s, the manifest says %s", c.ID, got, c.SHA256)
			}
		}
		fx := fixture{fixtureCase: c, ref: relative(c.ID, c.Schema), framingOK: true}
		if c.EventSchema != "" {
			fx.eventRef = relative(c.ID, c.EventSchema)
		}
		text := fb
		if c.Binding == "stdio-jsonl" {
			text, fx.framingOK, fx.framingWhy = frame(fb)
		}
		fx.doc, fx.parseErr = jsonschema.UnmarshalJSON(bytes.NewReader(text))
		out = append(out, fx)
	}
	if len(out) == 0 {
		t.Fatal("the fixture manifest lists no cases")
	}
	return out
}
