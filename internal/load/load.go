// Package load reads JSON Schema documents (a snapshot folder, or any set of
// documents), refuses anything ahpgen cannot compile into checks, and
// resolves every $ref offline. It is the generator's only reader of schema
// files. Later stages read what it produces through package model: the
// raw documents, which keep member order and exact number spellings, and
// their compiled schemas, located and with every reference resolved. The
// compiler behind those, santhosh-tekuri/jsonschema, stays inside this
// package.
package load

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/load/model"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Source is one schema document to load.
type Source struct {
	// Path names the document in messages (slash-separated, relative to the
	// schema root, e.g. "draft/effect.schema.json").
	Path string
	// URL is where the document lives when it has no $id (a file: URL).
	URL  string
	Data []byte
}

// Options tune loading. The zero value is what ahpgen uses for snapshots.
type Options struct {
	// Remotes maps URL prefixes to further documents that $refs may name
	// (the JSON-Schema-Test-Suite's http://localhost:1234/ folder). Any
	// other URL outside the set is an error: loading never uses the network.
	Remotes func(url string) ([]byte, bool)
	// AnnotateUnknown treats keywords ahpgen does not know as annotations,
	// as JSON Schema itself does. ahpgen refuses them by default, so that a
	// misspelt or unsupported keyword cannot silently drop a constraint.
	AnnotateUnknown bool
	// Translate turns an ECMA-262 pattern into RE2 syntax; nil keeps it as is.
	Translate func(pattern string) (string, error)
}

// Error is a problem in a schema document, located by file and pointer:
// one of the model's errors, which later stages report too.
type Error = model.Error

// Set is a loaded, compiled set of documents: a model.Set.
type Set struct {
	Docs      []*model.Document
	compiler  *jsonschema.Compiler
	resources map[string]resource
	byURL     map[string]*model.Document
	compiled  map[string]*jsonschema.Schema
	modeled   map[*jsonschema.Schema]*model.Schema
	opt       Options
	loading   string
	refs      []refSite
	// meta holds the JSON Schema meta-schema documents schemas of the set
	// refer to: located like documents of the set, never part of Docs.
	meta map[string]*model.Document
	// scopes maps "path#pointer" of every schema object to its resource
	// and dialect; roots marks resource roots.
	scopes  map[string]scope
	roots   map[string]bool
	anchors []model.DynamicAnchor
	// named holds every plain name a $ref fragment may use, as
	// "<resource base>#<name>": $anchor and $dynamicAnchor alike, and
	// where it is defined ("path#pointer").
	named map[string]string
	// data holds each document's bytes, by path, for line and column.
	data map[string][]byte
}

// refSite is a $ref (or $dynamicRef) as written, to report a dangling one
// where it stands.
type refSite struct {
	kw     string // "$ref" or "$dynamicRef"
	doc    *model.Document
	ptr    string
	target string // resolved URL without fragment
	frag   string // its fragment: a JSON Pointer, an anchor, or ""
}

// resource is where a schema resource (a document, or a subschema with
// its own $id) sits in its file.
type resource struct {
	doc *model.Document
	ptr string
}

// Pattern is a compiled `pattern`: the schema's ECMA-262 source and the
// RE2 translation the generated code uses.
type Pattern struct {
	Source string
	RE2    string
	re     *regexp.Regexp
}

func (p *Pattern) String() string            { return p.Source }
func (p *Pattern) MatchString(s string) bool { return p.re.MatchString(s) }

// Load parses, checks and compiles srcs.
func Load(srcs []Source, opt Options) (*Set, error) {
	s := &Set{resources: map[string]resource{}, byURL: map[string]*model.Document{}, compiled: map[string]*jsonschema.Schema{},
		modeled: map[*jsonschema.Schema]*model.Schema{}, opt: opt,
		scopes: map[string]scope{}, roots: map[string]bool{}, named: map[string]string{}}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(offlineLoader{set: s, remotes: opt.Remotes})
	c.UseRegexpEngine(func(src string) (jsonschema.Regexp, error) {
		re2 := src
		if opt.Translate != nil {
			var err error
			if re2, err = opt.Translate(src); err != nil {
				return nil, err
			}
		}
		re, err := regexp.Compile(re2)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %v", src, err)
		}
		return &Pattern{Source: src, RE2: re2, re: re}, nil
	})
	s.compiler = c
	for _, src := range srcs {
		doc, err := s.add(src, opt)
		if err != nil {
			return nil, err
		}
		s.Docs = append(s.Docs, doc)
	}
	sort.Slice(s.Docs, func(i, j int) bool { return s.Docs[i].Path < s.Docs[j].Path })
	// Walking a reference's target may add references (those inside a
	// target the walk had not visited): go on until none is left.
	for i := 0; i < len(s.refs); i++ {
		r := s.refs[i]
		if res, ok := s.resources[r.target]; ok {
			// A pointer fragment must lead somewhere in that resource.
			if strings.HasPrefix(r.frag, "/") {
				frag, err := url.PathUnescape(r.frag)
				if err == nil {
					n, found := res.doc.Lookup(res.ptr + frag)
					if !found {
						return nil, &Error{File: r.doc.Path, Pointer: r.ptr, Msg: r.kw + " to " + r.target + "#" + r.frag + ": no such location in " + res.doc.Path}
					}
					if err := s.walkTarget(r, res.doc, n, res.ptr+frag, opt); err != nil {
						return nil, err
					}
				}
			} else if r.frag != "" {
				// A plain name: an $anchor or $dynamicAnchor of that resource.
				name, err := url.PathUnescape(r.frag)
				if err == nil && s.named[r.target+"#"+name] == "" {
					return nil, &Error{File: r.doc.Path, Pointer: r.ptr, Msg: r.kw + " to " + r.target + "#" + r.frag + ": no $anchor or $dynamicAnchor " + strconv.Quote(name) + " in that resource (" + res.doc.Path + "#" + res.ptr + ")"}
				}
			}
			continue
		}
		if opt.Remotes != nil {
			if _, ok := opt.Remotes(r.target); ok {
				continue
			}
		}
		if isMetaSchema(r.target) {
			continue
		}
		what := "remote references are not loaded (ahpgen works offline; add the document to the schema set)"
		if near := s.siblings(r.target); near != nil {
			// Beside the set's own documents: a misspelled name, most likely.
			what = "no such document among the schema set's (" + strings.Join(near, ", ") + ")"
			if !strings.HasPrefix(r.target, "file:") {
				what += ", and remote references are not loaded"
			}
		} else if strings.HasPrefix(r.target, "file:") {
			what = "not a document of this schema set (refs must stay inside the snapshot folder)"
		}
		if hint := s.idHint(r.target); hint != "" {
			what += "; " + hint
		}
		return nil, &Error{File: r.doc.Path, Pointer: r.ptr, Msg: r.kw + " to " + r.target + ": " + what}
	}
	// Remote documents join s.Docs while compiling: compile until none is
	// left uncompiled.
	for i := 0; i < len(s.Docs); i++ {
		if _, err := s.compile(s.Docs[i].URL); err != nil {
			return nil, err
		}
	}
	sort.Slice(s.Docs, func(i, j int) bool { return s.Docs[i].Path < s.Docs[j].Path })
	// Building the model locates schemas, which lists the dynamic anchors
	// of meta-schemas as they are met: build the roots in the documents'
	// order, the order ir walks them in (see Set.convert).
	for _, doc := range s.Docs {
		sch, err := s.compile(doc.URL)
		if err != nil {
			return nil, err
		}
		doc.Schema = s.convert(sch)
	}
	return s, nil
}

func (s *Set) add(src Source, opt Options) (*model.Document, error) {
	raw, err := ahpimpl.Parse(src.Data, ahprt.Limits{})
	if err != nil {
		var e *ahprt.Error
		if errors.As(err, &e) {
			return nil, &Error{File: src.Path, Pointer: e.Pointer, Msg: "not a JSON document: " + string(e.Code) + ": " + e.Message + LineCol(src.Data, e.Offset)}
		}
		return nil, &Error{File: src.Path, Msg: err.Error()}
	}
	doc := &model.Document{Path: src.Path, URL: src.URL, Raw: raw}
	if s.data == nil {
		s.data = map[string][]byte{}
	}
	s.data[src.Path] = src.Data
	if raw.Kind(0) == ahpimpl.KindObject {
		if id, ok := raw.Member(0, "$id"); ok && raw.Kind(id) == ahpimpl.KindString {
			u, err := resolveURL(src.URL, raw.Text(id))
			if err != nil {
				return nil, &Error{File: src.Path, Pointer: "/$id", Msg: err.Error()}
			}
			doc.URL = u
		}
	}
	doc.URL = stripFragment(doc.URL)
	if prev, dup := s.byURL[doc.URL]; dup {
		return nil, &Error{File: src.Path, Pointer: "/$id", Msg: "same base URI " + doc.URL + " as " + prev.Path}
	}
	s.byURL[doc.URL] = doc
	if err := s.walk(doc, 0, "", scope{base: doc.URL}, opt); err != nil {
		return nil, err
	}
	// santhosh reads its own copy (maps, json.Number): the compiled graph.
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(src.Data))
	if err != nil {
		return nil, &Error{File: src.Path, Msg: err.Error()}
	}
	if src.URL == doc.URL && s.loading == doc.URL || s.loading == metaLoading {
		return doc, nil // the loader or the compiler has it already
	}
	if err := s.compiler.AddResource(doc.URL, v); err != nil {
		return nil, &Error{File: src.Path, Msg: err.Error()}
	}
	return doc, nil
}

// scope is where a schema object sits: its resource's base URI and the
// dialect ($schema) that resource uses ("" for the default, 2020-12).
type scope struct {
	base, dialect string
}

// walk visits every schema object of doc: it records resources ($id),
// dialects ($schema), dynamic anchors, and refuses keywords ahpgen does
// not compile.
func (s *Set) walk(doc *model.Document, n ahpimpl.Node, ptr string, sc scope, opt Options) error {
	raw := doc.Raw
	if ptr == "" {
		s.resources[sc.base] = resource{doc: doc, ptr: ""}
	}
	switch raw.Kind(n) {
	case ahpimpl.KindBool:
		s.scopes[doc.Path+"#"+ptr] = sc
		return nil
	case ahpimpl.KindObject:
	default:
		return &Error{File: doc.Path, Pointer: ptr, Msg: "a schema must be an object or a boolean, not " + raw.Kind(n).String()}
	}
	root := ptr == ""
	if id, ok := raw.Member(n, "$id"); ok && raw.Kind(id) == ahpimpl.KindString {
		u, err := resolveURL(sc.base, raw.Text(id))
		if err != nil {
			return &Error{File: doc.Path, Pointer: ptr + "/$id", Msg: err.Error()}
		}
		sc.base = stripFragment(u)
		s.resources[sc.base] = resource{doc: doc, ptr: ptr}
		root = true
	}
	if v, ok := raw.Member(n, "$schema"); ok && root && raw.Kind(v) == ahpimpl.KindString {
		sc.dialect = stripFragment(raw.Text(v))
	}
	s.scopes[doc.Path+"#"+ptr] = sc
	if root {
		s.roots[doc.Path+"#"+ptr] = true
	}
	for _, kw := range []string{"$dynamicAnchor", "$anchor"} {
		v, ok := raw.Member(n, kw)
		if !ok || raw.Kind(v) != ahpimpl.KindString {
			continue
		}
		// One name, one place in a resource: the compiler refuses a
		// second too, but says neither where nor on which line.
		key, at := sc.base+"#"+raw.Text(v), doc.Path+"#"+ptr
		if prev := s.named[key]; prev != "" && prev != at {
			return &Error{File: doc.Path, Pointer: ptr + "/" + kw, Msg: fmt.Sprintf("%s %q: %s names another schema of the resource %s so already; a plain-name fragment must name one", kw, raw.Text(v), prev, sc.base)}
		}
		s.named[key] = at
		if kw == "$dynamicAnchor" {
			s.anchors = append(s.anchors, model.DynamicAnchor{Doc: doc, Ptr: ptr, Name: raw.Text(v), Resource: sc.base})
		}
	}
	base := sc.base
	for m := raw.Members(n); m.Next(); {
		k := raw.Text(m.Name())
		kp := ptr + "/" + escape(k)
		v := m.Value()
		switch {
		case strings.HasPrefix(k, "x-"):
			// Annotations for tools: allowed, never interpreted as checks.
		case schemaMapKeywords[k]:
			for sm := raw.Members(v); sm.Next(); {
				if err := s.walk(doc, sm.Value(), kp+"/"+escape(raw.Text(sm.Name())), sc, opt); err != nil {
					return err
				}
			}
		case schemaListKeywords[k]:
			for it := raw.Items(v); it.Next(); {
				if err := s.walk(doc, it.Item(), fmt.Sprintf("%s/%d", kp, it.Index()), sc, opt); err != nil {
					return err
				}
			}
		case schemaKeywords[k]:
			if err := s.walk(doc, v, kp, sc, opt); err != nil {
				return err
			}
		case k == "$schema" && raw.Kind(v) == ahpimpl.KindString:
			if m := raw.Text(v); !isMetaSchema(m) && s.byURL[stripFragment(m)] == nil && (opt.Remotes == nil || !remoteExists(opt.Remotes, m)) {
				return &Error{File: doc.Path, Pointer: kp, Msg: "meta-schema " + m + " is not available: ahpgen works offline and knows the JSON Schema meta-schemas and the documents of the set"}
			}
		case (k == "$ref" || k == "$dynamicRef") && raw.Kind(v) == ahpimpl.KindString:
			u, err := resolveURL(base, raw.Text(v))
			if err != nil {
				return &Error{File: doc.Path, Pointer: kp, Msg: err.Error()}
			}
			_, frag, _ := strings.Cut(u, "#")
			s.refs = append(s.refs, refSite{kw: k, doc: doc, ptr: kp, target: stripFragment(u), frag: frag})
		case knownKeyword(k):
		case olderDraft(sc.dialect) != "" && !opt.AnnotateUnknown:
			// Most likely the earlier dialect's keyword (definitions,
			// dependencies, $recursiveRef): the dialect is what to fix,
			// not the keyword's name.
			return &Error{File: doc.Path, Pointer: kp, Msg: fmt.Sprintf("keyword %q under $schema %s: JSON Schema %s, and ahpgen compiles draft 2020-12 only",
				k, sc.dialect, olderDraft(sc.dialect))}
		default:
			if !opt.AnnotateUnknown {
				return &Error{File: doc.Path, Pointer: kp, Msg: fmt.Sprintf("unknown keyword %q: ahpgen compiles every JSON Schema 2020-12 validation keyword and refuses others (name annotations x-…)", k)}
			}
		}
	}
	return nil
}

// walkTarget walks the target of reference r, at ptr in doc, when the
// walk of the documents did not reach it: a location that is no schema
// position (an x- annotation, an unknown keyword's value, an enum member)
// is a schema once a reference names it (the suite's
// refOfUnknownKeyword), and ahpgen compiles it as one, so its keywords
// and references are checked as everywhere else instead of ignored.
func (s *Set) walkTarget(r refSite, doc *model.Document, n ahpimpl.Node, ptr string, opt Options) error {
	if _, walked := s.scopes[doc.Path+"#"+ptr]; walked {
		return nil
	}
	if k := doc.Raw.Kind(n); k != ahpimpl.KindObject && k != ahpimpl.KindBool {
		return &Error{File: r.doc.Path, Pointer: r.ptr, Msg: r.kw + " to " + r.target + "#" + r.frag + ": not a schema: " + doc.Path + "#" + ptr + " is " + k.String() + ", and a schema is an object or a boolean"}
	}
	sc, _, _ := s.scopeOf(doc, ptr)
	return s.walk(doc, n, ptr, sc, opt)
}

// Compile returns the compiled schema at url (a document URL, optionally
// with a #fragment).
func (s *Set) Compile(u string) (*model.Schema, error) {
	sch, err := s.compile(u)
	if err != nil {
		return nil, err
	}
	return s.convert(sch), nil
}

// compile returns the compiler's schema at url.
func (s *Set) compile(u string) (*jsonschema.Schema, error) {
	if sch, ok := s.compiled[u]; ok {
		return sch, nil
	}
	sch, err := s.compiler.Compile(u)
	if err != nil {
		return nil, s.explain(err)
	}
	s.compiled[u] = sch
	return sch, nil
}

// locate returns the document and JSON Pointer (within that document)
// where sch is written.
func (s *Set) locate(sch *jsonschema.Schema) (doc *model.Document, ptr string, ok bool) {
	loc := sch.Location
	base, frag, _ := strings.Cut(loc, "#")
	r, found := s.resources[base]
	if !found && s.addMeta(base) {
		r, found = s.resources[base]
	}
	if !found {
		return nil, "", false
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return nil, "", false
	}
	return r.doc, r.ptr + frag, true
}

// escape spells a name as a JSON Pointer token.
func escape(tok string) string { return model.EscapeToken(tok) }

func resolveURL(base, ref string) (string, error) {
	r, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("bad URI %q: %v", ref, err)
	}
	if base == "" {
		return r.String(), nil
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("bad base URI %q: %v", base, err)
	}
	return b.ResolveReference(r).String(), nil
}

func stripFragment(u string) string {
	base, _, _ := strings.Cut(u, "#")
	return base
}

// offlineLoader serves only the documents of the set and the remotes the
// caller allowed; everything else is an error, never a network access.
type offlineLoader struct {
	set     *Set
	remotes func(string) ([]byte, bool)
}

func (l offlineLoader) Load(u string) (any, error) {
	if l.remotes != nil {
		if data, ok := l.remotes(u); ok {
			// A remote becomes a document of the set: its keywords are
			// checked and its schemas located like any other.
			l.set.loading = u
			doc, err := l.set.add(Source{Path: u, URL: u, Data: data}, l.set.opt)
			l.set.loading = ""
			if err != nil {
				return nil, err
			}
			if doc.URL != u {
				// Retrieved at u with another $id: the compiler places
				// its schemas at u.
				l.set.resources[u] = resource{doc: doc, ptr: ""}
			}
			l.set.Docs = append(l.set.Docs, doc)
			return jsonschema.UnmarshalJSON(bytes.NewReader(data))
		}
	}
	if strings.HasPrefix(u, "file:") {
		return nil, fmt.Errorf("$ref to %s: not a document of this schema set (refs must stay inside the schema root)", path.Base(u))
	}
	return nil, fmt.Errorf("$ref to %s: remote references are not loaded (ahpgen works offline; add the document to the schema set)", u)
}

// olderDraft names the JSON Schema dialect before 2020-12 whose
// meta-schema's URI (without its fragment) dialect is, or "".
func olderDraft(dialect string) string {
	return olderDrafts[strings.TrimPrefix(strings.TrimPrefix(dialect, "http://"), "https://")]
}

var olderDrafts = map[string]string{
	"json-schema.org/draft-03/schema":      "draft 3",
	"json-schema.org/draft-04/schema":      "draft 4",
	"json-schema.org/draft-06/schema":      "draft 6",
	"json-schema.org/draft-07/schema":      "draft 7",
	"json-schema.org/draft/2019-09/schema": "draft 2019-09",
}

// isMetaSchema: the JSON Schema meta-schemas are built into the compiler.
func isMetaSchema(u string) bool {
	return strings.HasPrefix(u, "https://json-schema.org/") || strings.HasPrefix(u, "http://json-schema.org/")
}

// Pattern translates and compiles a pattern as the set's compiler does,
// returning the RE2 form.
func (s *Set) Pattern(src string) (string, error) {
	re2 := src
	if s.opt.Translate != nil {
		var err error
		if re2, err = s.opt.Translate(src); err != nil {
			return "", err
		}
	}
	if _, err := regexp.Compile(re2); err != nil {
		return "", fmt.Errorf("pattern %q: %v", src, err)
	}
	return re2, nil
}

//go:embed meta
var metaFS embed.FS

// metaLoading marks Set.add calls for meta-schemas, which the compiler
// knows already.
const metaLoading = "\x00meta"

const metaPrefix = "https://json-schema.org/draft/2020-12/"

// addMeta adds the JSON Schema 2020-12 meta-schema document at u (the
// copies in meta/ are those the compiler embeds, byte for byte, so that
// the compiler's schemas can be located in them). It reports whether u is
// one.
func (s *Set) addMeta(u string) bool {
	rest, ok := strings.CutPrefix(u, metaPrefix)
	if !ok {
		return false
	}
	data, err := metaFS.ReadFile("meta/draft/2020-12/" + rest)
	if err != nil {
		return false
	}
	if s.meta == nil {
		s.meta = map[string]*model.Document{}
	}
	if _, done := s.meta[u]; done {
		return false
	}
	prev := s.loading
	s.loading = metaLoading
	doc, err := s.add(Source{Path: strings.TrimPrefix(u, "https://"), URL: u, Data: data}, Options{})
	s.loading = prev
	if err != nil {
		panic("load: embedded meta-schema " + u + ": " + err.Error())
	}
	s.meta[u] = doc
	return true
}

// Documents returns s.Docs.
func (s *Set) Documents() []*model.Document { return s.Docs }

// DynamicAnchors lists the $dynamicAnchor keywords of every document
// located so far (documents of the set, remotes, meta-schemas), in the
// order they were found.
func (s *Set) DynamicAnchors() []model.DynamicAnchor { return s.anchors }

// scopeOf finds the scope recorded for a schema location, or that of its
// nearest recorded ancestor (a schema inside an unknown keyword).
func (s *Set) scopeOf(doc *model.Document, ptr string) (scope, string, bool) {
	for p := ptr; ; {
		if sc, ok := s.scopes[doc.Path+"#"+p]; ok {
			return sc, p, true
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return scope{}, "", false
		}
		p = p[:i]
	}
}

// resourceOf returns the base URI of the schema resource sch belongs to,
// and whether sch is that resource's root (a document root or a schema
// with $id).
func (s *Set) resourceOf(sch *jsonschema.Schema) (base string, root bool) {
	doc, ptr, ok := s.locate(sch)
	if !ok {
		return "", false
	}
	sc, at, ok := s.scopeOf(doc, ptr)
	if !ok {
		return doc.URL, ptr == ""
	}
	return sc.base, at == ptr && s.roots[doc.Path+"#"+ptr]
}

// The vocabularies of JSON Schema 2020-12 ahpgen knows.
const vocabPrefix = "https://json-schema.org/draft/2020-12/vocab/"

var defaultVocabs = map[string]bool{
	"core": true, "applicator": true, "unevaluated": true, "validation": true,
	"meta-data": true, "format-annotation": true, "content": true,
}

// hasVocab reports whether the dialect of sch's resource uses vocabulary
// name ("validation", "applicator", "format-assertion" …). The dialect is
// the meta-schema named by $schema; its $vocabulary lists the
// vocabularies in use. Without $schema, or with a meta-schema without
// $vocabulary, the 2020-12 defaults apply.
//
// A vocabulary listed as required (true) is used. One listed as optional
// (false) is used only for format-assertion, which ahpgen implements
// itself; the compiler (and so the structure of compiled schemas) ignores
// the other optional vocabularies: optionalVocab reports them, so that
// generation can refuse a dialect it would only half apply.
func (s *Set) hasVocab(sch *jsonschema.Schema, name string) bool {
	if name == "core" {
		return true
	}
	raw, v, ok := s.vocabulary(sch)
	if !ok {
		return defaultVocabs[name]
	}
	x, listed := raw.Member(v, vocabPrefix+name)
	return listed && (name == "format-assertion" || raw.Bool(x))
}

// optionalVocab names a 2020-12 vocabulary with assertions that sch's
// dialect lists as optional ($vocabulary false), or returns "".
func (s *Set) optionalVocab(sch *jsonschema.Schema) string {
	raw, v, ok := s.vocabulary(sch)
	if !ok {
		return ""
	}
	for _, name := range []string{"applicator", "unevaluated", "validation"} {
		if x, listed := raw.Member(v, vocabPrefix+name); listed && !raw.Bool(x) {
			return name
		}
	}
	return ""
}

// vocabulary finds the $vocabulary object of sch's dialect; ok is false
// for the default dialect.
func (s *Set) vocabulary(sch *jsonschema.Schema) (raw *ahpimpl.Doc, v ahpimpl.Node, ok bool) {
	doc, ptr, ok := s.locate(sch)
	if !ok {
		return nil, 0, false
	}
	sc, _, ok := s.scopeOf(doc, ptr)
	if !ok || sc.dialect == "" || sc.dialect == metaPrefix+"schema" {
		return nil, 0, false
	}
	r, found := s.resources[sc.dialect]
	if !found && s.addMeta(sc.dialect) {
		r, found = s.resources[sc.dialect]
	}
	if !found {
		return nil, 0, false
	}
	n, ok := model.Lookup(r.doc.Raw, r.ptr)
	if !ok {
		return nil, 0, false
	}
	raw = r.doc.Raw
	v, ok = raw.Member(n, "$vocabulary")
	if !ok || raw.Kind(v) != ahpimpl.KindObject {
		return nil, 0, false
	}
	return raw, v, true
}
