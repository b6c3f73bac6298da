package load

// How load explains what it refuses: a compiler error turned into one that
// names the file, the JSON Pointer and the line, a meta-schema failure at its
// first place in document order, a pattern's ECMA-262 error, a $ref to a
// document the set lacks.

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/ecmaregex"
	"github.com/ahpgen/ahpgen/internal/load/model"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// explain rewrites a compiler error so it names files, not URLs.
func (s *Set) explain(err error) error {
	if e := s.regexError(err); e != nil {
		return e
	}
	if e := s.metaError(err); e != nil {
		return e
	}
	msg := err.Error()
	var urls []string
	for u := range s.byURL {
		urls = append(urls, u)
	}
	sort.Slice(urls, func(i, j int) bool { return len(urls[i]) > len(urls[j]) })
	for _, u := range urls {
		msg = strings.ReplaceAll(msg, u, s.byURL[u].Path)
	}
	return errors.New(msg)
}

// metaFailure is the document of the set that err says fails its
// meta-schema, the JSON Pointer in it of the schema that fails (empty for
// the document; a $ref's target otherwise, which is validated on its own
// when it is no schema position of the document), and the validator's
// failure, whose instance locations are relative to that schema; nil for
// another error.
func (s *Set) metaFailure(err error) (*model.Document, string, *jsonschema.ValidationError) {
	var sve *jsonschema.SchemaValidationError
	if !errors.As(err, &sve) {
		return nil, "", nil
	}
	base, frag, _ := strings.Cut(sve.URL, "#")
	doc, ok := s.byURL[base]
	var ve *jsonschema.ValidationError
	if !ok || !errors.As(sve.Err, &ve) {
		return nil, "", nil
	}
	if frag != "" {
		// santhosh names the schema by the document's URL and a JSON
		// Pointer fragment.
		ptr, err := url.PathUnescape(frag)
		if err != nil || !strings.HasPrefix(ptr, "/") {
			return nil, "", nil
		}
		if _, found := model.Lookup(doc.Raw, ptr); !found {
			return nil, "", nil
		}
		frag = ptr
	}
	return doc, frag, ve
}

// metaError is a document failing its meta-schema, said as ahpgen's
// other schema errors are: at the place of the first failure (its JSON
// Pointer, line and column), with what the meta-schema wants there, and
// where else it fails; nil for another error. santhosh reports the whole
// tree of the meta-schema's applicators ("'allOf' failed"), of which the
// leaves alone say what is wrong.
func (s *Set) metaError(err error) error {
	doc, base, ve := s.metaFailure(err)
	if ve == nil {
		return nil
	}
	type place struct {
		ptr  string
		name bool // a member name fails (propertyNames): ptr is no place
		msgs []string
		off  int64 // in the document's bytes; -1 when not found there
	}
	var places []*place
	at := map[string]*place{}
	// name: below the meta-schema's propertyNames, where santhosh gives
	// the member name failing the empty location: said as a name, not
	// blamed on the document's root.
	var walk func(v *jsonschema.ValidationError, name bool)
	walk = func(v *jsonschema.ValidationError, name bool) {
		name = name || strings.Contains(v.SchemaURL, "/propertyNames")
		if len(v.Causes) > 0 {
			for _, c := range v.Causes {
				walk(c, name)
			}
			return
		}

		ptr := base + pointerOf(v.InstanceLocation)
		key := fmt.Sprint(name, ptr)
		p := at[key]
		if p == nil {
			p = &place{ptr: ptr, name: name}
			at[key] = p
			places = append(places, p)
		}
		if out := v.BasicOutput(); out.Error != nil {
			if msg := out.Error.String(); !slices.Contains(p.msgs, msg) {
				p.msgs = append(p.msgs, msg)
			}
		}
	}
	walk(ve, false)
	if len(places) == 0 {
		return nil
	}
	says := func(p *place) string {
		slices.Sort(p.msgs) // the leaves of one place, in a stable order
		s := p.msgs[0]
		if len(p.msgs) > 1 {
			s = "either " + strings.Join(p.msgs, "; or ")
		}
		if p.name {
			s = "a member name: " + s
		}
		return s
	}
	// santhosh walks properties, $defs and the like in map order: the
	// places are put in document order, so that the first is the same
	// on every run (a place not in the document goes last).
	data := s.data[doc.Path]
	offset := func(ptr string) int64 { return offsetOf(doc.Raw, data, ptr) }
	for _, p := range places {
		p.off = -1
		if !p.name {
			p.off = offset(p.ptr)
		}
	}
	slices.SortStableFunc(places, func(a, b *place) int {
		if (a.off < 0) != (b.off < 0) {
			return cmp.Compare(b.off, a.off) // the one in the document first
		}
		return cmp.Or(cmp.Compare(a.off, b.off), strings.Compare(a.ptr, b.ptr))
	})
	first := places[0]
	msg := "not a valid JSON Schema (its meta-schema " + ve.SchemaURL + "): " + says(first)
	ptr := first.ptr
	if first.name {
		ptr = "" // where the name is cannot be told
	} else if _, found := model.Lookup(doc.Raw, first.ptr); !found {
		// Not a place in the document (the validator's location is of
		// the value it saw): said, not claimed as the error's pointer.
		msg += " (at " + first.ptr + ", as the validator reports it)"
		ptr = ""
	} else if first.off >= 0 {
		msg += LineCol(data, first.off)
	}
	for i, p := range places[1:] {
		if i == 4 {
			msg += fmt.Sprintf("; and %d more", len(places)-5)
			break
		}
		where := cmp.Or(p.ptr, "(document)")
		if p.name {
			where = "a member name"
		}
		msg += "; also at " + where + ": " + strings.TrimPrefix(says(p), "a member name: ")
	}
	return &Error{File: doc.Path, Pointer: ptr, Msg: msg}
}

// pointerOf is the JSON Pointer of reference tokens.
func pointerOf(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escape(t))
	}
	return b.String()
}

// regexError is a compile error that is a regular expression ahpgen
// cannot compile (a pattern, or a patternProperties name), said as such
// at the expression's place, or nil. The compiler reports it as the
// document failing its meta-schema, because the meta-schema's "regex"
// format runs the set's regexp engine, which also refuses what is valid
// ECMA-262 but has no RE2 form (backreferences, lookaround).
func (s *Set) regexError(err error) error {
	doc, _, ve := s.metaFailure(err)
	if ve == nil {
		return nil
	}
	f, re := regexFailure(ve)
	if f == nil || re == nil && f.Err == nil {
		return nil
	}
	text, _ := f.Got.(string)
	var msg string
	switch {
	case re == nil:
		msg = fmt.Sprintf("regular expression %q: %v", text, f.Err)
	case re.Unsupported:
		msg = fmt.Sprintf("regular expression %q cannot be compiled: %s (at offset %d); it is valid ECMA-262, but generated checks match patterns with RE2, which lacks that construct", re.Pattern, re.Msg, re.Offset)
	default:
		msg = fmt.Sprintf("regular expression %q is invalid ECMA-262: %s (at offset %d)", re.Pattern, re.Msg, re.Offset)
	}
	// The failure's instance location cannot say where: a name's is
	// empty, and its parents' may be garbled (santhosh v6.0.3 reuses the
	// slices). The expression is found in the document instead.
	ptr, _ := findRegex(doc.Raw, doc.Raw.Root(), "", text)
	return &Error{File: doc.Path, Pointer: ptr, Msg: msg}
}

// regexFailure finds, below ve, the failure of the "regex" format, and
// the translation's error when that is its cause.
func regexFailure(ve *jsonschema.ValidationError) (*kind.Format, *ecmaregex.Error) {
	if f, ok := ve.ErrorKind.(*kind.Format); ok && f.Want == "regex" {
		var re *ecmaregex.Error
		errors.As(f.Err, &re)
		return f, re
	}
	for _, c := range ve.Causes {
		if f, re := regexFailure(c); f != nil {
			return f, re
		}
	}
	return nil, nil
}

// findRegex returns the JSON Pointer, below node n at ptr, of the first
// pattern keyword whose value is re, or patternProperties name that is re,
// in document order.
func findRegex(d *ahpimpl.Doc, n ahpimpl.Node, ptr, re string) (string, bool) {
	switch d.Kind(n) {
	case ahpimpl.KindObject:
		for m := d.Members(n); m.Next(); {
			k, v := d.Text(m.Name()), m.Value()
			kp := ptr + "/" + escape(k)
			if k == "pattern" && d.Kind(v) == ahpimpl.KindString && d.Text(v) == re {
				return kp, true
			}
			if k == "patternProperties" && d.Kind(v) == ahpimpl.KindObject {
				if _, _, ok := d.MemberIndex(v, re); ok {
					return kp + "/" + escape(re), true
				}
			}
			if p, ok := findRegex(d, v, kp, re); ok {
				return p, true
			}
		}
	case ahpimpl.KindArray:
		for it := d.Items(n); it.Next(); {
			if p, ok := findRegex(d, it.Item(), fmt.Sprintf("%s/%d", ptr, it.Index()), re); ok {
				return p, true
			}
		}
	}
	return "", false
}

func remoteExists(remotes func(string) ([]byte, bool), u string) bool {
	_, ok := remotes(stripFragment(u))
	return ok
}

// idHint explains a $ref that names a file the snapshot folder holds
// under another identity: a document is found by its $id, and one whose
// $id is missing or names another file is not where its file name says.
func (s *Set) idHint(target string) string {
	name := target[strings.LastIndex(target, "/")+1:]
	for _, d := range s.Docs {
		if path.Base(d.Path) != name {
			continue
		}
		if strings.HasPrefix(d.URL, "file:") {
			return "the folder's " + name + " has no $id, and documents are found by $id"
		}
		return "the folder's " + name + " has $id " + d.URL + ", and documents are found by $id"
	}
	return ""
}

// siblings lists the names of the set's documents whose URLs share the
// folder of url (which is none of them), or nil when none do: a $ref
// there names a document the set lacks, not a remote one.
func (s *Set) siblings(u string) []string {
	dir := u[:strings.LastIndex(u, "/")+1]
	var out []string
	for _, d := range s.Docs {
		if strings.HasPrefix(d.URL, dir) && !strings.Contains(d.URL[len(dir):], "/") {
			out = append(out, d.URL[len(dir):])
		}
	}
	sort.Strings(out)
	return out
}

// offsetOf is the byte offset in data, which raw was parsed from, of the
// value at JSON Pointer ptr; -1 when there is none.
func offsetOf(raw *ahpimpl.Doc, data []byte, ptr string) int64 {
	n, found := model.Lookup(raw, ptr)
	if !found || data == nil {
		return -1
	}
	// Raw aliases the document's bytes: its capacity gives the offset.
	b := raw.Raw(n)
	if off := cap(data) - cap(b); off >= 0 && off <= len(data) && bytes.HasPrefix(data[off:], b) {
		return int64(off)
	}
	return -1
}

// PointerLineCol is LineCol of the value at JSON Pointer ptr of the JSON
// document data; "" when data does not parse or has no such value.
func PointerLineCol(data []byte, ptr string) string {
	raw, err := ahpimpl.Parse(data, ahprt.Limits{})
	if err != nil {
		return ""
	}
	if off := offsetOf(raw, data, ptr); off >= 0 {
		return LineCol(data, off)
	}
	return ""
}

// LineCol is " (line L, column C)" for byte offset off of data, both
// from 1, the column counted in bytes as editors' byte columns are; ""
// when off is not in data. A syntax error's pointer names the value it
// was in, which for a stray comma is the member before it: the line
// finds the character.
func LineCol(data []byte, off int64) string {
	if off < 0 || off > int64(len(data)) {
		return ""
	}
	before := data[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf(" (line %d, column %d)", line, col)
}
