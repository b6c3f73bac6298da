package ir_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/ir"
	"github.com/ahpgen/ahpgen/internal/load"
)

func pathString(p ahpimpl.PartPath) string {
	var b strings.Builder
	for _, s := range p {
		switch {
		case s.Deep:
			b.WriteString("/**")
		case s.Each:
			b.WriteString("/*")
		default:
			b.WriteString("/" + s.Member)
		}
	}
	return b.String()
}

func partPaths(t *testing.T, ty *ir.Types, event string) []string {
	t.Helper()
	for _, ep := range ty.Messages.ContentParts {
		if ep.Event == event {
			var out []string
			for _, p := range ep.Paths {
				out = append(out, pathString(p))
			}
			return out
		}
	}
	return nil
}

// TestContentPartsDraft: the draft's events hold parts where its schemas
// put them: in the envelope's content items, in model-visible messages,
// in user messages and in file changes; the legacy snapshot has none.
func TestContentPartsDraft(t *testing.T) {
	types := draftProgramTypes(t)
	for event, want := range map[string]string{
		"tool.before":          "/items/*",
		"model.request.before": "/items/*/parts/*",
		"user.message.inbound": "/message/messages/*/parts/*",
		"tool.after":           "/fileChanges/*/before",
		"tool.progress":        "/partialOutput/parts/*",
	} {
		if got := partPaths(t, types, event); !slices.Contains(got, want) {
			t.Errorf("%s: parts at %v, want %s among them", event, got, want)
		}
	}
	if n := len(types.Messages.ContentParts); n != 32 {
		t.Errorf("%d event types hold parts; every one of the draft's 32 has the envelope's items", n)
	}
}

// TestContentPartsRecursive: a structure that reaches parts again below
// itself ends its path with Deep, and a schema first met on a cycle still
// counts as leading to parts (M is reached from N before N's own part is
// seen: a walk that memoized "no" for M there would drop /m/inner/p).
func TestContentPartsRecursive(t *testing.T) {
	event := `{
	  "oneOf": [{"$ref": "#/$defs/e"}],
	  "$defs": {
	    "e": {"properties": {"type": {"const": "e.x"}, "n": {"$ref": "#/$defs/N"}, "m": {"$ref": "#/$defs/M"}}},
	    "N": {"properties": {"next": {"$ref": "#/$defs/M"}, "p": {"$ref": "content-item.schema.json"}}},
	    "M": {"properties": {"inner": {"$ref": "#/$defs/N"}}}
	  }
	}`
	pkg, err := generate.Snapshot(generate.Input{Key: "t", ImportPath: "irtest.example/t", Sources: []load.Source{
		{Path: "t/event.schema.json", URL: "https://example.com/t/event.schema.json", Data: []byte(event)},
		{Path: "t/content-item.schema.json", URL: "https://example.com/t/content-item.schema.json", Data: []byte(`{"type": "object", "properties": {"text": {"type": "string"}}}`)},
	}}, generate.Options{Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	got := partPaths(t, pkg.Types, "e.x")
	want := []string{"/n/next/inner/**", "/n/p", "/m/inner/next/**", "/m/inner/p"}
	if !slices.Equal(got, want) {
		t.Errorf("parts of e.x at %v, want %v", got, want)
	}
}
