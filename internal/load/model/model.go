// Package model is what package load produces and the generator's later
// stages read: the documents of a schema set as parsed (member order and
// exact spellings kept), and their schemas compiled: located, with every
// reference resolved. It knows no compiler. load compiles with
// santhosh-tekuri/jsonschema and converts what it compiles into Schema,
// so that nothing reading the model depends on that library.
package model

import (
	"fmt"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// Set is a loaded, compiled set of documents (a *load.Set).
type Set interface {
	// Documents lists the documents of the set, sorted by path. Compiling
	// may add remote documents a $ref names.
	Documents() []*Document
	// Compile returns the compiled schema at url (a document URL,
	// optionally with a #fragment).
	Compile(url string) (*Schema, error)
	// DynamicAnchors lists the $dynamicAnchor keywords of every document
	// located so far (documents of the set, remotes, meta-schemas), in
	// the order they were found: compiling and locating schemas adds to
	// it.
	DynamicAnchors() []DynamicAnchor
	// Pattern translates and compiles a pattern as the set's compiler
	// does, returning the RE2 form.
	Pattern(src string) (string, error)
}

// Document is one loaded schema document.
type Document struct {
	Path string
	// URL is the document's base URI: its $id, or its Source.URL.
	URL string
	// Raw is the document as parsed JSON, in member order.
	Raw *ahpimpl.Doc
	// Schema is the compiled root schema.
	Schema *Schema

	index index // Raw's large objects and arrays, for Lookup
}

// DynamicAnchor is a $dynamicAnchor of a document of the set.
type DynamicAnchor struct {
	Doc  *Document
	Ptr  string
	Name string
	// Resource is the base URI of the schema resource the anchor belongs to.
	Resource string
}

// Error is a problem in a schema document, located by file and pointer.
type Error struct {
	File    string
	Pointer string
	Msg     string
}

func (e *Error) Error() string {
	return e.File + "#" + e.Pointer + ": " + e.Msg
}

// EscapeToken spells a member name as a JSON Pointer token (RFC 6901);
// UnescapeToken turns a token back into the name it spells. Load, ir and
// release all write and read schema locations through them.
func EscapeToken(name string) string { return escapeToken.Replace(name) }

// UnescapeToken: see EscapeToken.
func UnescapeToken(tok string) string { return unescapeToken.Replace(tok) }

// The Replacers are built once: a Replacer builds its tables on first
// use, and tokens are spelt and read for every schema location.
var (
	escapeToken   = strings.NewReplacer("~", "~0", "/", "~1")
	unescapeToken = strings.NewReplacer("~1", "/", "~0", "~")
)

// Lookup follows a JSON Pointer (RFC 6901) in a raw document.
func Lookup(d *ahpimpl.Doc, ptr string) (ahpimpl.Node, bool) { return lookup(d, ptr, nil) }

// Lookup is model.Lookup in the document's Raw, with its large objects
// and arrays indexed as it meets them (see index): the generator looks
// up every schema location of a document, and without the index each
// lookup of one of N $defs or properties scanned the others.
func (doc *Document) Lookup(ptr string) (ahpimpl.Node, bool) {
	return lookup(doc.Raw, ptr, &doc.index)
}

// lookup is Lookup, through x when it is not nil.
func lookup(d *ahpimpl.Doc, ptr string, x *index) (ahpimpl.Node, bool) {
	n := d.Root()
	if ptr == "" {
		return n, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return 0, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = unescapeToken.Replace(tok)
		switch d.Kind(n) {
		case ahpimpl.KindObject:
			v, ok := x.member(d, n, tok)
			if !ok {
				return 0, false
			}
			n = v
		case ahpimpl.KindArray:
			v, ok := x.item(d, n, tok)
			if !ok {
				return 0, false
			}
			n = v
		default:
			return 0, false
		}
	}
	return n, true
}

// Fragment is the URL of the schema at JSON Pointer ptr of the document
// (or resource) at base, with the pointer escaped for a URI fragment.
func Fragment(base, ptr string) string {
	const keep = "-._~!$&'()*+,;=:@/?"
	var b strings.Builder
	b.WriteString(base)
	b.WriteByte('#')
	for i := 0; i < len(ptr); i++ {
		c := ptr[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(keep, c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
