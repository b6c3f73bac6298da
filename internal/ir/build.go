package ir

import (
	"fmt"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/load"
	"github.com/santhosh-tekuri/jsonschema/v6"
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
	anchors   map[string]*DynamicAnchor
	resources map[string]*Resource
	set       *load.Set
	bySch     map[*jsonschema.Schema]*Schema
	// names is the generated package's one scope (see naming.go): check
	// functions and pattern variables here, then types (BuildTypes) and
	// memo bodies (MarkMemo).
	names    *names
	opt      Options
	patterns map[string]*Pattern
}

// Build converts a loaded set into checks.
func Build(set *load.Set, opt Options) (*Program, error) {
	p := &Program{
		Roots: map[string]*Schema{}, set: set, bySch: map[*jsonschema.Schema]*Schema{},
		names: newNames(packageDecls...), opt: opt, patterns: map[string]*Pattern{},
		anchors: map[string]*DynamicAnchor{}, resources: map[string]*Resource{},
	}
	for _, doc := range set.Docs {
		s, err := p.schema(doc.Schema)
		if err != nil {
			return nil, err
		}
		p.Roots[doc.Path] = s
	}
	// Every $defs entry is a check of its own even when nothing refers to
	// it: callers decode with any named definition.
	for _, doc := range set.Docs {
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
	for _, doc := range p.set.Docs {
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
	for _, doc := range p.set.Docs {
		if doc.Path != docPath {
			continue
		}
		sch, err := p.set.Compile(load.Fragment(doc.URL, ptr))
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

func (p *Program) defs(doc *load.Document) error {
	raw := doc.Raw
	if raw.Kind(0) != ahpimpl.KindObject {
		return nil
	}
	defs, ok := raw.Member(0, "$defs")
	if !ok {
		return nil
	}
	for m := raw.Members(defs); m.Next(); {
		ptr := "/$defs/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(raw.Text(m.Name()))
		if _, err := p.Lookup(doc.Path, ptr); err != nil {
			return err
		}
	}
	return nil
}

func (p *Program) schema(sch *jsonschema.Schema) (*Schema, error) {
	if s, ok := p.bySch[sch]; ok {
		return s, nil
	}
	doc, ptr, ok := p.set.Locate(sch)
	if !ok {
		return nil, fmt.Errorf("internal: cannot locate schema %s", sch.Location)
	}
	s := &Schema{Loc: doc.Path + "#" + ptr}
	s.resource, s.resRoot = p.set.Resource(sch)
	s.Func = p.names.take(checkFuncName(doc.Path, ptr))
	p.bySch[sch] = s
	p.Schemas = append(p.Schemas, s)
	if err := p.fill(s, sch, doc, ptr); err != nil {
		return nil, err
	}
	return s, nil
}

func (p *Program) fail(doc *load.Document, ptr, format string, args ...any) error {
	return &load.Error{File: doc.Path, Pointer: ptr, Msg: fmt.Sprintf(format, args...)}
}

// fill copies the keywords of sch into s. Structure comes from the
// compiled schema (refs resolved); literals come from the raw document,
// exactly as written.
func (p *Program) fill(s *Schema, sch *jsonschema.Schema, doc *load.Document, ptr string) error {
	if sch.Bool != nil {
		b := *sch.Bool
		s.Bool = &b
		return nil
	}
	if sch.DraftVersion != 0 && sch.DraftVersion < 2020 {
		// Earlier drafts spell keywords differently (items arrays,
		// definitions, $ref hiding its siblings): compiling them as
		// 2020-12 would silently change their meaning.
		return p.fail(doc, ptr, "JSON Schema draft %d: ahpgen compiles draft 2020-12 only", sch.DraftVersion)
	}
	raw := doc.Raw
	n, ok := p.rawNode(doc, ptr)
	if !ok {
		return p.fail(doc, ptr, "internal: raw schema not found")
	}
	lit := func(key string) (ahpimpl.Node, bool) { return raw.Member(n, key) }
	sub := func(x *jsonschema.Schema) (*Schema, error) {
		if x == nil {
			return nil, nil
		}
		return p.schema(x)
	}
	subs := func(xs []*jsonschema.Schema) ([]*Schema, error) {
		var out []*Schema
		for _, x := range xs {
			y, err := p.schema(x)
			if err != nil {
				return nil, err
			}
			out = append(out, y)
		}
		return out, nil
	}
	// Keywords of vocabularies the schema's dialect does not use are
	// annotations (a meta-schema's $vocabulary decides).
	if v := p.set.OptionalVocab(sch); v != "" {
		return p.fail(doc, ptr, "the dialect ($schema) lists the %s vocabulary as optional: ahpgen applies a vocabulary only when it is required, and will not half apply this one", v)
	}
	validation := p.set.HasVocab(sch, "validation")
	applicator := p.set.HasVocab(sch, "applicator")
	if !validation || !applicator {
		full := lit
		lit = func(key string) (ahpimpl.Node, bool) {
			if !validation && validationKeywords[key] || !applicator && applicatorKeywords[key] {
				return 0, false
			}
			return full(key)
		}
	}
	var err error
	if v, ok := lit("title"); ok && raw.Kind(v) == ahpimpl.KindString {
		s.Title = raw.Text(v)
	}
	if v, ok := lit("description"); ok && raw.Kind(v) == ahpimpl.KindString {
		s.Description = raw.Text(v)
	}
	if s.Ref, err = sub(sch.Ref); err != nil {
		return err
	}
	if s.Ref != nil {
		s.Ref.refd = true
	}
	if d := sch.DynamicRef; d != nil {
		st, err := sub(d.Ref)
		if err != nil {
			return err
		}
		st.refd = true
		s.DynamicRef = &DynamicRef{Static: st}
		if d.Anchor != "" && d.Ref.DynamicAnchor == d.Anchor {
			s.DynamicRef.Anchor = p.anchor(d.Anchor)
		}
	}
	if v, ok := lit("type"); ok {
		if raw.Kind(v) == ahpimpl.KindString {
			s.Types = []string{raw.Text(v)}
		} else {
			for it := raw.Items(v); it.Next(); {
				s.Types = append(s.Types, raw.Text(it.Item()))
			}
		}
	}
	if v, ok := lit("const"); ok {
		l := literal(raw, v)
		s.Const = &l
	}
	if v, ok := lit("enum"); ok {
		s.Enum = []Literal{}
		for it := raw.Items(v); it.Next(); {
			s.Enum = append(s.Enum, literal(raw, it.Item()))
		}
	}
	if s.AllOf, err = subs(sch.AllOf); err != nil {
		return err
	}
	if s.AnyOf, err = subs(sch.AnyOf); err != nil {
		return err
	}
	if s.OneOf, err = subs(sch.OneOf); err != nil {
		return err
	}
	if s.Not, err = sub(sch.Not); err != nil {
		return err
	}
	if sch.If != nil {
		if s.If, err = sub(sch.If); err != nil {
			return err
		}
		if s.Then, err = sub(sch.Then); err != nil {
			return err
		}
		if s.Else, err = sub(sch.Else); err != nil {
			return err
		}
	}
	// Objects.
	if v, ok := lit("properties"); ok {
		for m := raw.Members(v); m.Next(); {
			name := raw.Text(m.Name())
			ps, err := sub(sch.Properties[name])
			if err != nil {
				return err
			}
			s.Properties = append(s.Properties, Prop{Name: name, Schema: ps})
		}
	}
	if v, ok := lit("patternProperties"); ok {
		for m := raw.Members(v); m.Next(); {
			src := raw.Text(m.Name())
			var target *jsonschema.Schema
			for re, x := range sch.PatternProperties {
				if re.String() == src {
					target = x
				}
			}
			ps, err := sub(target)
			if err != nil {
				return err
			}
			pat, err := p.pattern(src, doc, ptr+"/patternProperties")
			if err != nil {
				return err
			}
			s.PatternProperties = append(s.PatternProperties, PatternProp{Pattern: pat, Schema: ps})
		}
	}
	if x, ok := sch.AdditionalProperties.(*jsonschema.Schema); ok {
		if s.AdditionalProperties, err = sub(x); err != nil {
			return err
		}
	} else if b, ok := sch.AdditionalProperties.(bool); ok {
		s.AdditionalProperties = &Schema{Bool: &b, Loc: s.Loc + "/additionalProperties"}
	}
	if s.PropertyNames, err = sub(sch.PropertyNames); err != nil {
		return err
	}
	if v, ok := lit("required"); ok {
		s.Required = []string{}
		for it := raw.Items(v); it.Next(); {
			s.Required = append(s.Required, raw.Text(it.Item()))
		}
	}
	if v, ok := lit("dependentRequired"); ok {
		for m := raw.Members(v); m.Next(); {
			dep := Dependency{Name: raw.Text(m.Name())}
			for it := raw.Items(m.Value()); it.Next(); {
				dep.Requires = append(dep.Requires, raw.Text(it.Item()))
			}
			s.DependentRequired = append(s.DependentRequired, dep)
		}
	}
	if v, ok := lit("dependentSchemas"); ok {
		for m := raw.Members(v); m.Next(); {
			name := raw.Text(m.Name())
			ds, err := sub(sch.DependentSchemas[name])
			if err != nil {
				return err
			}
			s.DependentSchemas = append(s.DependentSchemas, Prop{Name: name, Schema: ds})
		}
	}
	// draft-07's `dependencies`, which the compiler keeps for compatibility
	// (ahpgen's loader refuses it unless unknown keywords are annotations):
	// string arrays are dependentRequired, schemas dependentSchemas.
	if v, ok := lit("dependencies"); ok && sch.Dependencies != nil && raw.Kind(v) == ahpimpl.KindObject {
		for m := raw.Members(v); m.Next(); {
			name := raw.Text(m.Name())
			switch d := sch.Dependencies[name].(type) {
			case []string:
				s.DependentRequired = append(s.DependentRequired, Dependency{Name: name, Requires: d})
			case *jsonschema.Schema:
				ds, err := sub(d)
				if err != nil {
					return err
				}
				s.DependentSchemas = append(s.DependentSchemas, Prop{Name: name, Schema: ds})
			}
		}
	}
	s.MinProperties, s.MaxProperties = sch.MinProperties, sch.MaxProperties
	if s.UnevaluatedProperties, err = sub(sch.UnevaluatedProperties); err != nil {
		return err
	}
	if s.UnevaluatedItems, err = sub(sch.UnevaluatedItems); err != nil {
		return err
	}
	// Arrays.
	if s.PrefixItems, err = subs(sch.PrefixItems); err != nil {
		return err
	}
	if s.Items, err = sub(sch.Items2020); err != nil {
		return err
	}
	if s.Contains, err = sub(sch.Contains); err != nil {
		return err
	}
	if s.Contains != nil {
		s.MinContains, s.MaxContains = sch.MinContains, sch.MaxContains
	}
	s.MinItems, s.MaxItems, s.UniqueItems = sch.MinItems, sch.MaxItems, sch.UniqueItems
	// Strings.
	s.MinLength, s.MaxLength = sch.MinLength, sch.MaxLength
	if v, ok := lit("pattern"); ok {
		if s.Pattern, err = p.pattern(raw.Text(v), doc, ptr+"/pattern"); err != nil {
			return err
		}
	}
	if v, ok := lit("format"); ok && raw.Kind(v) == ahpimpl.KindString && (!p.opt.AnnotateFormats || p.set.HasVocab(sch, "format-assertion")) {
		name := raw.Text(v)
		switch {
		case p.opt.KnownFormat == nil || p.opt.KnownFormat(name):
			s.Format = name
		case !p.opt.IgnoreUnknownFormats:
			return p.fail(doc, ptr+"/format", "format %q cannot be asserted: the runtime has no checker for it", name)
		}
	}
	// Numbers: the exact spelling of each bound.
	num := func(key string) *string {
		if v, ok := lit(key); ok {
			t := string(raw.Raw(v))
			return &t
		}
		return nil
	}
	s.Minimum, s.Maximum = num("minimum"), num("maximum")
	s.ExclusiveMinimum, s.ExclusiveMaximum = num("exclusiveMinimum"), num("exclusiveMaximum")
	s.MultipleOf = num("multipleOf")
	return nil
}

func (p *Program) rawNode(doc *load.Document, ptr string) (ahpimpl.Node, bool) {
	return load.Lookup(doc.Raw, ptr)
}

func (p *Program) pattern(src string, doc *load.Document, ptr string) (*Pattern, error) {
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

// literal reads a JSON value of a schema, compact, with its type name.
func literal(raw *ahpimpl.Doc, n ahpimpl.Node) Literal {
	l := Literal{JSON: string(raw.RawValue(n))}
	switch raw.Kind(n) {
	case ahpimpl.KindNull:
		l.Kind = "null"
	case ahpimpl.KindBool:
		l.Kind = "boolean"
	case ahpimpl.KindString:
		l.Kind = "string"
		l.JSON = quote(raw.Text(n)) // one spelling per string, escapes normalised
	case ahpimpl.KindNumber:
		l.Kind = "number"
	case ahpimpl.KindObject:
		l.Kind = "object"
	case ahpimpl.KindArray:
		l.Kind = "array"
	}
	return l
}

func quote(s string) string { return string(ahpimpl.AppendString(nil, s)) }

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

// validationKeywords and applicatorKeywords are the keywords of the
// 2020-12 validation and applicator vocabularies.
var validationKeywords = map[string]bool{
	"type": true, "const": true, "enum": true, "multipleOf": true, "maximum": true,
	"exclusiveMaximum": true, "minimum": true, "exclusiveMinimum": true, "maxLength": true,
	"minLength": true, "pattern": true, "maxItems": true, "minItems": true, "uniqueItems": true,
	"maxContains": true, "minContains": true, "maxProperties": true, "minProperties": true,
	"required": true, "dependentRequired": true,
}

var applicatorKeywords = map[string]bool{
	"dependencies": true, "prefixItems": true, "items": true, "contains": true, "additionalProperties": true,
	"properties": true, "patternProperties": true, "dependentSchemas": true, "propertyNames": true,
	"if": true, "then": true, "else": true, "allOf": true, "anyOf": true, "oneOf": true, "not": true,
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
			sch, err := p.set.Compile(load.Fragment(a.Doc.URL, a.Ptr))
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
