package ir_test

import (
	"path/filepath"
	"testing"

	"github.com/ahpgen/ahpgen/internal/testenv"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/ir"
	"github.com/ahpgen/ahpgen/internal/load"
)

// buildMemo generates schema as plain JSON Schema and returns its
// annotated model.
func buildMemo(t *testing.T, schema string) *ir.Program {
	t.Helper()
	return generateProgram(t, schema, generate.Options{Plain: true})
}

// generateProgram runs the generator (generate.Snapshot, as `ahpgen
// generate` runs it) over one document, t/a.json, and returns its model.
func generateProgram(t *testing.T, schema string, opt generate.Options) *ir.Program {
	t.Helper()
	pkg, err := generate.Snapshot(generate.Input{
		Key: "t", ImportPath: "irtest.example/t",
		Sources: []load.Source{{Path: "t/a.json", URL: "file:///t/a.json", Data: []byte(schema)}},
	}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return pkg.Prog
}

// TestMemoRecursiveRepeat: a type every level of a recursive document
// checks twice on one node (through two union branches) is memoized, or
// the check would take 2^depth runs; checked once per node, it is not.
func TestMemoRecursiveRepeat(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {
			"node": {"oneOf": [
				{"allOf": [{"$ref": "#/$defs/inner"}, {"required": ["a"]}]},
				{"allOf": [{"$ref": "#/$defs/inner"}, {"required": ["b"]}]}
			]},
			"inner": {"type": "object", "properties": {"child": {"$ref": "#/$defs/node"}, "a": {}, "b": {}}},
			"once": {"type": "object", "properties": {"x": {"type": "string"}}}
		},
		"type": "object",
		"properties": {"root": {"$ref": "#/$defs/node"}, "o": {"$ref": "#/$defs/once"}, "single": {"$ref": "#/$defs/inner"}}
	}`)
	inner := find(t, p, "/$defs/inner")
	if inner.MemoID == 0 {
		t.Errorf("%s runs twice per node at every depth and is not memoized", inner.Loc)
	}
	// The calls: each branch's $ref meets the other's on the same node,
	// so both go through the memo; the root's member "single" is checked
	// against inner once, so that call may skip it.
	for _, ptr := range []string{"/$defs/node/oneOf/0", "/$defs/node/oneOf/1"} {
		if from := find(t, p, ptr); from.RunsOnce[inner] {
			t.Errorf("%s: its call of inner may skip the memo, though the other branch checks inner on the same node", from.Loc)
		}
	}
	if root := find(t, p, ""); !root.MembersRunOnce[inner] {
		t.Errorf("the root's member single meets no other check of inner, yet its call goes through the memo")
	}
	if s := find(t, p, "/$defs/once"); s.MemoID != 0 {
		t.Errorf("%s runs once per node and is memoized", s.Loc)
	}
}

// TestMemoDispatchForks: branches a discriminator selects between never
// run together, so a type two of them apply is checked once per node and
// not memoized; a type two allOf entries apply is run twice.
func TestMemoDispatchForks(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {
			"big": {"type": "object", "properties": {"deep": {"$ref": "#/$defs/big"}}},
			"twice": {"type": "object", "properties": {"deep": {"$ref": "#/$defs/twice"}}}
		},
		"type": "object",
		"properties": {
			"u": {"oneOf": [
				{"properties": {"kind": {"const": "a"}}, "required": ["kind"], "allOf": [{"$ref": "#/$defs/big"}]},
				{"properties": {"kind": {"const": "b"}}, "required": ["kind"], "allOf": [{"$ref": "#/$defs/big"}]}
			]},
			"v": {"allOf": [{"$ref": "#/$defs/twice"}, {"$ref": "#/$defs/twice"}]}
		}
	}`)
	if u := find(t, p, "/properties/u"); u.Dispatch == nil {
		t.Fatalf("%s: no dispatch (the test needs one)", u.Loc)
	}
	if s := find(t, p, "/$defs/big"); s.MemoID != 0 {
		t.Errorf("%s: only one discriminated branch runs, yet it is memoized", s.Loc)
	}
	if s := find(t, p, "/$defs/twice"); s.MemoID == 0 {
		t.Errorf("%s: two allOf entries apply it, yet it is not memoized", s.Loc)
	}
}

// TestChoiceIDs: a union whose builder picks among several candidates
// gets a choice id (its check records the branch); one a discriminator
// resolves to single candidates does not.
func TestChoiceIDs(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {
			"plain": {"oneOf": [
				{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
				{"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]}
			]},
			"tagged": {"oneOf": [
				{"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]},
				{"type": "object", "properties": {"kind": {"const": "b"}}, "required": ["kind"]}
			]}
		},
		"type": "object",
		"properties": {"p": {"$ref": "#/$defs/plain"}, "t": {"$ref": "#/$defs/tagged"}}
	}`)
	if s := find(t, p, "/$defs/plain"); s.ChoiceID == 0 {
		t.Errorf("%s: no choice id", s.Loc)
	}
	if s := find(t, p, "/$defs/tagged"); s.ChoiceID != 0 {
		t.Errorf("%s: a choice id, though the discriminator decides", s.Loc)
	}
}

// TestUnrepeated: a union of whole documents (an aggregate root) checks
// the shared part twice on one node, so that check is memoized; a
// document of one kind checks it once, so its decoders may skip those
// lookups, unless something below that root repeats the check itself.
func TestUnrepeated(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {
			"part": {"type": "object", "properties": {"deep": {"$ref": "#/$defs/part"}, "x": {"type": "string"}}},
			"a": {"type": "object", "properties": {"p": {"$ref": "#/$defs/part"}, "a": {"type": "string"}}},
			"b": {"type": "object", "properties": {"p": {"$ref": "#/$defs/part"}, "b": {"type": "string"}}},
			"c": {"type": "object", "properties": {"p": {"allOf": [{"$ref": "#/$defs/part"}, {"$ref": "#/$defs/part"}]}}}
		},
		"anyOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}]
	}`)
	part := find(t, p, "/$defs/part")
	if part.MemoID == 0 || part.MemoID >= 64 {
		t.Fatalf("%s: memo id %d; the test needs one below 64", part.Loc, part.MemoID)
	}
	bit := uint64(1) << part.MemoID
	if root := find(t, p, ""); root.Unrepeated&bit != 0 {
		t.Errorf("the aggregate root checks part twice on one node, yet its lookups are skipped")
	}
	for _, ptr := range []string{"/$defs/a", "/$defs/b"} {
		if s := find(t, p, ptr); s.Unrepeated&bit == 0 {
			t.Errorf("%s: a document of this kind checks part once per node, yet its lookups are kept", s.Loc)
		}
	}
	if s := find(t, p, "/$defs/c"); s.Unrepeated&bit != 0 {
		t.Errorf("%s: its member p checks part twice, yet its lookups are skipped", s.Loc)
	}
}

// TestMemoMasks: over the draft snapshot (what ships), every schema that
// skips memo lookups at a document's root names the constant holding its
// mask, one constant per distinct mask, and each constant's lists of
// skipped and kept checks are exactly the memoized checks below 64 whose
// bits the mask sets and leaves clear.
func TestMemoMasks(t *testing.T) {
	p := draftProgram(t)
	if len(p.MemoMasks) == 0 {
		t.Fatal("the draft names no memo mask; its decoders skipped lookups before")
	}
	byMask := map[uint64]*ir.MemoMask{}
	for _, m := range p.MemoMasks {
		if prev := byMask[m.Mask]; prev != nil {
			t.Errorf("mask %#x is both %s and %s", m.Mask, prev.Const, m.Const)
		}
		byMask[m.Mask] = m
		listed := map[uint32]bool{}
		for _, s := range m.Skipped {
			listed[s.MemoID] = true
			if m.Mask&(1<<s.MemoID) == 0 {
				t.Errorf("%s lists %s (memo %d) as skipped; its bit is clear", m.Const, s.Func, s.MemoID)
			}
		}
		for _, s := range m.Kept {
			listed[s.MemoID] = true
			if m.Mask&(1<<s.MemoID) != 0 {
				t.Errorf("%s lists %s (memo %d) as kept; its bit is set", m.Const, s.Func, s.MemoID)
			}
		}
		for _, s := range p.Schemas {
			if s.MemoID != 0 && s.MemoID < 64 && !listed[s.MemoID] {
				t.Errorf("%s lists neither as skipped nor as kept %s (memo %d)", m.Const, s.Func, s.MemoID)
			}
		}
	}
	roots := 0
	for _, s := range p.Schemas {
		switch {
		case s.Unrepeated == 0 && s.UnrepeatedMask != nil:
			t.Errorf("%s: no mask, but the constant %s", s.Loc, s.UnrepeatedMask.Const)
		case s.Unrepeated != 0 && (s.UnrepeatedMask == nil || s.UnrepeatedMask.Mask != s.Unrepeated || byMask[s.Unrepeated] != s.UnrepeatedMask):
			t.Errorf("%s: mask %#x has no constant of the program's list", s.Loc, s.Unrepeated)
		case s.Unrepeated != 0:
			roots++
		}
	}
	if roots < len(p.MemoMasks) {
		t.Errorf("%d masks for %d schemas", len(p.MemoMasks), roots)
	}
}

// draftProgram generates the draft snapshot as `ahpgen generate` does and
// returns its model.
func draftProgram(t *testing.T) *ir.Program {
	t.Helper()
	return draftPackage(t).Prog
}

// draftProgramTypes is draftProgram's Go types.
func draftProgramTypes(t *testing.T) *ir.Types {
	t.Helper()
	return draftPackage(t).Types
}

func draftPackage(t *testing.T) *generate.Package {
	t.Helper()
	dir, srcs, err := load.ReadSnapshot(filepath.Join(testenv.ModuleRoot(), "schemas"), "draft")
	if err != nil {
		t.Fatal(err)
	}
	stable, err := generate.StableNames(dir, "draft", "schemas/draft/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := generate.Snapshot(generate.Input{Key: "draft", Sources: srcs, ImportPath: "irtest.example/draft", StableNames: stable}, generate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}
