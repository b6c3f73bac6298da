package generate

import (
	"errors"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt/format"
	"github.com/ahpgen/ahpgen/internal/ecmaregex"
	"github.com/ahpgen/ahpgen/internal/emit"
	"github.com/ahpgen/ahpgen/internal/ir"
	"github.com/ahpgen/ahpgen/internal/load"
	"github.com/ahpgen/ahpgen/internal/semantic"
)

// Options are the choices one generation may make differently from
// another. The zero value is what `ahpgen generate` ships; every other
// caller (the JSON-Schema-Test-Suite harness, the fuzzers, the tests)
// states its differences here, and runs the same stages otherwise.
type Options struct {
	// Plain generates for plain JSON Schema instead of an AHP snapshot:
	// no AHP rules beyond JSON Schema (semantic.AHP) and no wire version
	// (common.schema.json need not exist).
	Plain bool
	// AnnotateFormats treats `format` as an annotation (JSON Schema's
	// default); by default formats are asserted, as AHP requires.
	AnnotateFormats bool
	// IgnoreUnknownFormats treats an asserted format the runtime cannot
	// check as an annotation instead of failing generation.
	IgnoreUnknownFormats bool
	// AnnotateUnknown treats unknown keywords as annotations instead of
	// failing generation.
	AnnotateUnknown bool
	// Remotes serves documents outside the set that $refs may name (the
	// suite's remotes); nil allows none.
	Remotes func(url string) ([]byte, bool)
}

// Input is one snapshot's documents and where its package goes.
type Input struct {
	// Key is the snapshot key ("draft", "2026-12-15"): document paths
	// start with "Key/".
	Key string
	// Sources are the snapshot's documents.
	Sources []load.Source
	// ImportPath is the generated package's import path; its last element
	// is the package name.
	ImportPath string
	// Source names the schema folder in the package's comments.
	Source string
	// StableNames fix the type names of schema locations (the snapshot
	// manifest's sdkGeneration.stableNames; see ir.BuildTypes).
	StableNames []ir.StableName
}

// Package is one generated package and the model it was printed from.
type Package struct {
	// Files maps file names to contents.
	Files map[string][]byte
	// WireVersion is the snapshot's protocolVersion ("" when Plain).
	WireVersion string
	Set         *load.Set
	Prog        *ir.Program
	Types       *ir.Types
}

// Snapshot is the generator: load → ir → semantic rules → types → memo
// analysis → dispatcher tables → check plan → shared declarations →
// builders' layout → emit, over one snapshot. `ahpgen generate`, the
// JSON-Schema-Test-Suite harness, the schema fuzzers and the tests all
// generate through it, so what they test is what ships.
func Snapshot(in Input, opt Options) (_ *Package, err error) {
	defer func() { err = located(err, in.Sources) }()
	set, err := load.Load(in.Sources, load.Options{
		Remotes: opt.Remotes, AnnotateUnknown: opt.AnnotateUnknown, Translate: ecmaregex.Translate,
	})
	if err != nil {
		return nil, err
	}
	pkg := &Package{Set: set}
	if !opt.Plain {
		if pkg.WireVersion, err = load.WireVersion(set, in.Key); err != nil {
			return nil, err
		}
	}
	if pkg.Prog, err = ir.Build(set, ir.Options{
		AnnotateFormats:      opt.AnnotateFormats,
		IgnoreUnknownFormats: opt.IgnoreUnknownFormats,
		KnownFormat:          func(name string) bool { _, _, ok := format.Lookup(name); return ok },
		StableNames:          in.StableNames,
	}); err != nil {
		return nil, err
	}
	if !opt.Plain {
		if err := semantic.Attach(pkg.Prog, in.Key, semantic.AHP); err != nil {
			return nil, err
		}
	}
	if pkg.Types, err = ir.BuildTypes(pkg.Prog); err != nil {
		return nil, err
	}
	ir.MarkMemo(pkg.Prog, pkg.Types)
	ir.PlanMessages(pkg.Types, in.Key)
	ir.PlanChecks(pkg.Prog, pkg.Types)
	ir.PlanDecls(pkg.Prog)
	ir.PlanBuilders(pkg.Types, in.Key)
	if pkg.Files, err = emit.Package(emit.Snapshot{
		Key: in.Key, WireVersion: pkg.WireVersion, ImportPath: in.ImportPath, Source: in.Source,
		Prog: pkg.Prog, Types: pkg.Types,
	}); err != nil {
		return nil, err
	}
	return pkg, nil
}

// located adds to a schema error that names a place in one of srcs, and
// does not say where in the file yet, the line and column of the value
// there: load and ir name the file and the JSON Pointer, the line is
// found here once for every kind of problem.
func located(err error, srcs []load.Source) error {
	var e *load.Error
	if !errors.As(err, &e) || e.Pointer == "" || strings.Contains(e.Msg, " (line ") {
		return err
	}
	for _, src := range srcs {
		if src.Path == e.File {
			e.Msg += load.PointerLineCol(src.Data, e.Pointer)
			break
		}
	}
	return err
}
