package ir

import (
	"fmt"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/load/model"
)

// Options tune how schemas become checks.
type Options struct {
	// AnnotateFormats treats `format` as an annotation (JSON Schema's
	// default). By default formats are asserted, as AHP requires for uri
	// and date-time; an unknown format is then a generation error.
	AnnotateFormats bool
	// KnownFormat reports whether the runtime can check a format.
	KnownFormat func(name string) bool
	// IgnoreUnknownFormats treats an asserted format the runtime cannot
	// check as an annotation instead of failing generation (the
	// JSON-Schema-Test-Suite's optional format tests expect that).
	IgnoreUnknownFormats bool
	// StableNames fix the Go type names of schema locations (a snapshot
	// manifest's sdkGeneration.stableNames: the names upstream's SDKs
	// use). See BuildTypes.
	StableNames []StableName
}

// StableName asks for the type of a schema location to be called Name.
type StableName struct {
	// Location is the schema's location relative to the snapshot folder:
	// "common.schema.json#/$defs/errorResponse".
	Location string
	// Name is the name as written ("JsonRpcErrorResponse"); the Go type
	// spells it in Go's initialisms (JSONRPCErrorResponse).
	Name string
	// Source names the entry in messages: its manifest and JSON Pointer.
	Source string
}

// Program is everything generated for one schema set: its checks in a
// deterministic order, and the document roots.
type Program struct {
	Schemas []*Schema
	// Roots maps each document path to its root schema.
	Roots map[string]*Schema
	// Patterns lists every regular expression, in order of first use.
	Patterns []*Pattern
	// Anchors lists the dynamic anchors $dynamicRefs resolve through, in
	// order of first use; Resources the schema resources declaring them.
	Anchors   []*DynamicAnchor
	Resources []*Resource
	// MemoMasks lists the distinct Schema.Unrepeated values, each a
	// constant of the package (MarkMemo).
	MemoMasks []*MemoMask
	anchors   map[string]*DynamicAnchor
	resources map[string]*Resource
	set       model.Set
	bySch     map[*model.Schema]*Schema
	// names is the generated package's one scope (see naming.go): check
	// functions and pattern variables here, then types (BuildTypes) and
	// memo bodies (MarkMemo).
	names    *names
	opt      Options
	patterns map[string]*Pattern
	planned  bool // PlanChecks ran
	// Decls are the package-level declarations the checks share, set by
	// PlanDecls.
	Decls *Decls
}

// Planned reports whether PlanChecks has decided how the program's checks
// are written: emit reads those decisions and makes none of its own.
func (p *Program) Planned() bool { return p.planned }

// Build converts a loaded set into checks.
func Build(set model.Set, opt Options) (*Program, error) {
	p := &Program{
		Roots: map[string]*Schema{}, set: set, bySch: map[*model.Schema]*Schema{},
		names: newNames(packageDecls...), opt: opt, patterns: map[string]*Pattern{},
		anchors: map[string]*DynamicAnchor{}, resources: map[string]*Resource{},
	}
	for _, doc := range set.Documents() {
		s, err := p.schema(doc.Schema)
		if err != nil {
			return nil, err
		}
		p.Roots[doc.Path] = s
	}
	// Every $defs entry is a check of its own even when nothing refers to
	// it: callers decode with any named definition.
	for _, doc := range set.Documents() {
		if err := p.defs(doc); err != nil {
			return nil, err
		}
	}
	if err := p.dynamic(); err != nil {
		return nil, err
	}
	p.markCycles()
	for _, s := range p.Schemas {
		if s.Scope != nil || s.Guard != 0 || s.UnevaluatedProperties != nil || s.UnevaluatedItems != nil {
			s.Inner = p.names.take(s.Func + "_keywords")
		}
	}
	for _, s := range p.Schemas {
		if len(s.OneOf) > 0 {
			s.Dispatch = dispatch(s.OneOf, allIndexes(len(s.OneOf)), nil)
			s.OneOfDisjoint = disjoint(s.OneOf, allIndexes(len(s.OneOf)))
			markDisjoint(s.Dispatch, s.OneOf)
		} else if len(s.AnyOf) > 0 {
			s.Dispatch = dispatch(s.AnyOf, allIndexes(len(s.AnyOf)), nil)
		}
	}
	return p, nil
}

// Find returns the schema at a document path and pointer, if the program
// has that document and location.
func (p *Program) Find(docPath, ptr string) (*Schema, bool) {
	for _, doc := range p.set.Documents() {
		if doc.Path == docPath {
			if _, ok := p.rawNode(doc, ptr); !ok {
				return nil, false
			}
			s, err := p.Lookup(docPath, ptr)
			return s, err == nil
		}
	}
	return nil, false
}

// Lookup returns the check of the schema at a document path and pointer.
func (p *Program) Lookup(docPath, ptr string) (*Schema, error) {
	for _, doc := range p.set.Documents() {
		if doc.Path != docPath {
			continue
		}
		sch, err := p.set.Compile(model.Fragment(doc.URL, ptr))
		if err != nil {
			return nil, err
		}
		return p.schema(sch)
	}
	return nil, fmt.Errorf("no document %s", docPath)
}

// synthetic registers a schema the type builder made up (the allOf of
// every schema a member must satisfy): it gets a check like any other.
func (p *Program) synthetic(s *Schema) *Schema {
	s.Func = p.names.take(checkFuncName(strings.SplitN(s.Loc, "#", 2)[0], "") + "_merged")
	p.Schemas = append(p.Schemas, s)
	return s
}

func (p *Program) defs(doc *model.Document) error {
	raw := doc.Raw
	if raw.Kind(0) != ahpimpl.KindObject {
		return nil
	}
	defs, ok := raw.Member(0, "$defs")
	if !ok {
		return nil
	}
	for m := raw.Members(defs); m.Next(); {
		ptr := "/$defs/" + model.EscapeToken(raw.Text(m.Name()))
		if _, err := p.Lookup(doc.Path, ptr); err != nil {
			return err
		}
	}
	return nil
}

func (p *Program) schema(sch *model.Schema) (*Schema, error) {
	if s, ok := p.bySch[sch]; ok {
		return s, nil
	}
	doc, ptr := sch.Doc, sch.Ptr
	if doc == nil {
		return nil, fmt.Errorf("internal: cannot locate schema %s", sch.Location)
	}
	s := &Schema{Loc: doc.Path + "#" + ptr}
	s.resource, s.resRoot = sch.Resource, sch.ResourceRoot
	s.Func = p.names.take(checkFuncName(doc.Path, ptr))
	p.bySch[sch] = s
	p.Schemas = append(p.Schemas, s)
	if err := p.fill(s, sch, doc, ptr); err != nil {
		return nil, err
	}
	return s, nil
}

func (p *Program) fail(doc *model.Document, ptr, format string, args ...any) error {
	return &model.Error{File: doc.Path, Pointer: ptr, Msg: fmt.Sprintf(format, args...)}
}

func (p *Program) rawNode(doc *model.Document, ptr string) (ahpimpl.Node, bool) {
	return doc.Lookup(ptr)
}

func (p *Program) pattern(src string, doc *model.Document, ptr string) (*Pattern, error) {
	if pat, ok := p.patterns[src]; ok {
		return pat, nil
	}
	re, err := p.set.Pattern(src)
	if err != nil {
		return nil, p.fail(doc, ptr, "%v", err)
	}
	pat := &Pattern{Source: src, RE2: re, Var: p.names.take("re" + itoa(len(p.Patterns)))}
	p.patterns[src] = pat
	p.Patterns = append(p.Patterns, pat)
	return pat, nil
}

// Str returns the string a string literal holds.
func (l Literal) Str() string {
	d, err := ahpimpl.Parse([]byte(l.JSON), ahprt.Limits{})
	if err != nil || d.Kind(0) != ahpimpl.KindString {
		return ""
	}
	return d.Text(0)
}

func allIndexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// anchor returns the dynamic anchor called name, creating it.
func (p *Program) anchor(name string) *DynamicAnchor {
	a, ok := p.anchors[name]
	if !ok {
		a = &DynamicAnchor{Name: name, Func: p.names.take("dynamic_" + identPart(name))}
		p.anchors[name] = a
		p.Anchors = append(p.Anchors, a)
	}
	return a
}

// dynamic resolves what $dynamicRefs may reach at run time: for every
// anchor a dynamic reference resolves through, each schema resource that
// declares it and the schema it declares it on. Those resources are
// tracked in the dynamic scope: their roots, and every schema of theirs
// a reference can enter, push them while they run.
func (p *Program) dynamic() error {
	done := map[int]bool{}
	for progress := true; progress; {
		progress = false
		all := p.set.DynamicAnchors()
		for i := 0; i < len(all); i++ {
			a := all[i]
			da, used := p.anchors[a.Name]
			if done[i] || !used {
				continue
			}
			done[i], progress = true, true
			sch, err := p.set.Compile(model.Fragment(a.Doc.URL, a.Ptr))
			if err != nil {
				return err
			}
			s, err := p.schema(sch)
			if err != nil {
				return err
			}
			s.refd = true
			r, ok := p.resources[a.Resource]
			if !ok {
				r = &Resource{ID: len(p.Resources), URL: a.Resource}
				p.resources[a.Resource] = r
				p.Resources = append(p.Resources, r)
			}
			dup := false
			for _, t := range da.Targets {
				if t.Resource == r {
					dup = true
				}
			}
			if !dup {
				da.Targets = append(da.Targets, DynamicTarget{Resource: r, Schema: s})
			}
			all = p.set.DynamicAnchors()
		}
	}
	if len(p.Resources) == 0 {
		return nil
	}
	for _, s := range p.Schemas {
		if r, ok := p.resources[s.resource]; ok && (s.resRoot || s.refd) {
			s.Scope = r
		}
	}
	return nil
}
