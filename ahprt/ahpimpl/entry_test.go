package ahpimpl

import (
	"errors"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/format"
)

// TestFill: DecodeFill, UnmarshalFill, DecodeRoot and Entry.Decode call
// their builder, once, only for a document that parses and passes the
// check, at its root; otherwise they return the parse's or the check's
// error without calling it, and no value.
func TestFill(t *testing.T) {
	typ := &Reason{Code: ahprt.CodeType, Schema: "s.json#/type", Message: "object"}
	object := func(c *Ctx, n Node, ev *Eval) bool {
		if c.Doc.Kind(n) != KindObject {
			return c.FailTypeWith(n, typ)
		}
		return true
	}
	for _, c := range []struct {
		doc  string
		code ahprt.Code // "" when valid
	}{
		{`{"a":1}`, ""},
		{`[1]`, ahprt.CodeType},
		{`{"a":`, ahprt.CodeSyntax},
	} {
		for name, run := range map[string]func(fill func(*Ctx)) error{
			"DecodeFill":    func(fill func(*Ctx)) error { return DecodeFill([]byte(c.doc), nil, 0, object, fill) },
			"UnmarshalFill": func(fill func(*Ctx)) error { return UnmarshalFill([]byte(c.doc), 0, object, fill) },
			"DecodeRoot": func(fill func(*Ctx)) error {
				v, err := DecodeRoot([]byte(c.doc), nil, 0, object, func(ctx *Ctx) any { fill(ctx); return "built" })
				if (err == nil) != (v == "built") {
					t.Errorf("DecodeRoot(%s) = %#v, %v; want the built value exactly when there is no error", c.doc, v, err)
				}
				return err
			},
			"Entry.Decode": func(fill func(*Ctx)) error {
				e := Entry{Root: object, Build: func(ctx *Ctx) any { fill(ctx); return "built" }}
				v, err := e.Decode([]byte(c.doc))
				if (err == nil) != (v == "built") {
					t.Errorf("Entry.Decode(%s) = %#v, %v; want the built value exactly when there is no error", c.doc, v, err)
				}
				return err
			},
		} {
			calls, kind := 0, Kind(0)
			err := run(func(ctx *Ctx) { calls++; kind = ctx.Doc.Kind(0) })
			var e *ahprt.Error
			switch {
			case c.code == "" && (err != nil || calls != 1 || kind != KindObject):
				t.Errorf("%s(%s): %v, fill called %d times on a %v root; want nil, once, on the object", name, c.doc, err, calls, kind)
			case c.code != "" && (!errors.As(err, &e) || e.Code != c.code || calls != 0):
				t.Errorf("%s(%s): %v, fill called %d times; want code %s and no call", name, c.doc, err, calls, c.code)
			}
		}
	}
}

// TestStrEnum: a listed string passes, an unlisted one (escaped or not)
// is an unsupported value at the enum's location, and another kind
// fails with the enum's reason.
func TestStrEnum(t *testing.T) {
	r := &Reason{Code: ahprt.CodeEnum, Schema: "s.json#/enum", Message: `want one of "allow", "deny"`}
	values := []string{"allow", "deny"}
	check := func(c *Ctx, n Node, ev *Eval) bool { return c.StrEnum(n, r, values) }
	for _, c := range []struct {
		doc  string
		code ahprt.Code // "" when valid
	}{
		{`"allow"`, ""},
		{`"d\u0065ny"`, ""},
		{`"ask"`, ahprt.CodeUnsupported},
		{`"allo"`, ahprt.CodeUnsupported},
		{`1`, ahprt.CodeEnum},
		{`null`, ahprt.CodeEnum},
	} {
		err := Validate([]byte(c.doc), check)
		var e *ahprt.Error
		switch {
		case c.code == "" && err != nil:
			t.Errorf("%s: %v, want valid", c.doc, err)
		case c.code == "":
		case !errors.As(err, &e):
			t.Errorf("%s: %v, want an *ahprt.Error with code %s", c.doc, err, c.code)
		case e.Code != c.code || e.Schema != r.Schema:
			t.Errorf("%s: code %s at %s, want %s at %s", c.doc, e.Code, e.Schema, c.code, r.Schema)
		}
	}
}

// TestMinRunes: a string of at least min code points passes (counted in
// code points, not bytes or escapes); a shorter one fails with the
// minLength reason, another kind with the type reason.
func TestMinRunes(t *testing.T) {
	typ := &Reason{Code: ahprt.CodeType, Schema: "s.json#/type", Message: "string"}
	short := &Reason{Code: ahprt.CodeMinLength, Schema: "s.json#/minLength", Message: "at least 2 characters"}
	check := func(c *Ctx, n Node, ev *Eval) bool { return c.MinRunes(n, 2, typ, short) }
	for _, c := range []struct {
		doc  string
		want *Reason // nil when valid
	}{
		{`"ab"`, nil},
		{`"\u00e9\u00e9"`, nil},
		{`"é"`, short},
		{`"\u00e9"`, short},
		{`""`, short},
		{`12`, typ},
		{`["ab"]`, typ},
	} {
		wantVerdict(t, c.doc, Validate([]byte(c.doc), check), c.want)
	}
}

// wantVerdict fails t unless err, doc's validation, is nil where want
// is, and otherwise an *ahprt.Error of want's code at want's location.
func wantVerdict(t *testing.T, doc string, err error, want *Reason) {
	t.Helper()
	var e *ahprt.Error
	switch {
	case want == nil && err != nil:
		t.Errorf("%s: %v, want valid", doc, err)
	case want == nil:
	case !errors.As(err, &e):
		t.Errorf("%s: %v, want an *ahprt.Error at %s", doc, err, want.Schema)
	case e.Code != want.Code || e.Schema != want.Schema:
		t.Errorf("%s: code %s at %s, want %s at %s", doc, e.Code, e.Schema, want.Code, want.Schema)
	}
}

// TestStrFormat: a string the format accepts passes (escaped or not), a
// string it rejects fails with the format's reason, another kind with
// the type's.
func TestStrFormat(t *testing.T) {
	typ := &Reason{Code: ahprt.CodeType, Schema: "s.json#/type", Message: "string"}
	bad := &Reason{Code: ahprt.CodeFormat, Schema: "s.json#/format", Message: "not a valid date-time"}
	check := func(c *Ctx, n Node, ev *Eval) bool { return c.StrFormat(n, format.DateTime, typ, bad) }
	for _, c := range []struct {
		doc  string
		want *Reason // nil when valid
	}{
		{`"2026-12-02T05:00:00Z"`, nil},
		{`"2026-12-02T05:00:00\u005a"`, nil},
		{`"2026-12-02"`, bad},
		{`""`, bad},
		{`1733115600`, typ},
		{`null`, typ},
	} {
		wantVerdict(t, c.doc, Validate([]byte(c.doc), check), c.want)
	}
}

// TestItemHelpers: ChildItems and StrEnumItems fail a value that is no
// array with the type reason, and an array at its first bad item with
// that item's check, and pass an array whose items all pass, even empty.
func TestItemHelpers(t *testing.T) {
	typ := &Reason{Code: ahprt.CodeType, Schema: "s.json#/type", Message: "array"}
	enum := &Reason{Code: ahprt.CodeEnum, Schema: "s.json#/items/enum", Message: `want one of "a", "b"`}
	values := []string{"a", "b"}
	str := &Reason{Code: ahprt.CodeType, Schema: "s.json#/items/type", Message: "string"}
	item := func(c *Ctx, n Node, ev *Eval) bool {
		if c.Doc.Kind(n) != KindString {
			return c.FailTypeWith(n, str)
		}
		return true
	}
	checks := map[string]CheckFunc{
		"ChildItems":   func(c *Ctx, n Node, ev *Eval) bool { return c.ChildItems(n, typ, item) },
		"StrEnumItems": func(c *Ctx, n Node, ev *Eval) bool { return c.StrEnumItems(n, typ, enum, values) },
	}
	for name, check := range checks {
		for _, c := range []struct {
			doc  string
			want map[string]string // code by helper; absent: valid
		}{
			{`[]`, nil},
			{`["a","b","a"]`, nil},
			{`{"a":1}`, map[string]string{"ChildItems": "type", "StrEnumItems": "type"}},
			{`["a",1]`, map[string]string{"ChildItems": "type", "StrEnumItems": "enum"}},
			{`["a","c"]`, map[string]string{"StrEnumItems": "unsupported"}},
		} {
			err := Validate([]byte(c.doc), check)
			want := c.want[name]
			var e *ahprt.Error
			switch {
			case want == "" && err != nil:
				t.Errorf("%s %s: %v, want valid", name, c.doc, err)
			case want == "":
			case !errors.As(err, &e):
				t.Errorf("%s %s: %v, want a %s error", name, c.doc, err, want)
			case string(e.Code) != want:
				t.Errorf("%s %s: code %s, want %s", name, c.doc, e.Code, want)
			}
		}
	}
}
