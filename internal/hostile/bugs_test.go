package hostile

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/ahprt/format"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/internal/oracle"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/ahpgen/ahpgen/ahprt"
)

// knownStrictAllIfBug disables, in checkInput, the property "StrictAll
// never accepts what the default mode rejects" while the bug that
// TestKnownBugs/strictall-if-condition reproduces is open (it is fixed).
const knownStrictAllIfBug = false

// knownBug is a minimal reproducer of a bug found by these tests. Each
// runs as a subtest that skips with "bug: …" while the bug is open: the
// owner fixes it, deletes the skip line (known: ""), and the case must pass.
// HOSTILE_RUN_KNOWN=1 runs the open ones too (they fail).
type knownBug struct {
	name  string
	known string // the skip line; "" once fixed
	run   func(t *testing.T)
}

var knownBugs = []knownBug{{
	name: "strictall-if-condition",
	// Found by FuzzInterceptRequest's seeds; fixed in 2b09d47 ("StrictAll
	// decided once per object …"). Kept as a regression test.
	known: "",
	run: func(t *testing.T) {
		// The model.response.after capabilities allow only modify.response;
		// intercept-request.schema.json applies them through
		// allOf/…/if {event: {type: const}} then {capabilities: …}. In
		// StrictAll the `if` rejects the event's other members, so the
		// condition is false and the capability check never runs.
		doc := `{"jsonrpc":"2.0","id":"e","method":"hooks/intercept","params":{"protocolVersion":"draft",` +
			`"event":{"id":"e","source":"urn:test:harness","time":"2026-09-15T12:00:00Z","type":"model.response.after",` +
			`"model":{"id":"m","provider":"p"},"attempt":{"id":"a","number":1},"execution":{"status":"executed"},` +
			`"items":[{"id":"i","parts":[{"id":"p","kind":"text","mediaType":"text/plain","selection":"metadata"}],"role":"assistant"}],` +
			`"finishReason":"stop"},"capabilities":{"effects":["modify"],"modify":{"input":{"replace":true,"merge":false}}}}}`
		e := entry(t, "intercept-request.schema.json#")
		if _, err := e.Decode([]byte(doc)); err == nil {
			t.Fatal("the default mode accepts modify.input for model.response.after")
		}
		if _, err := e.Decode([]byte(doc), ahprt.WithMode(ahprt.StrictAll)); err == nil {
			t.Fatal("StrictAll accepts a document the default mode rejects")
		}
	},
}, {
	name: "too-many-pointer",
	// Fixed: the error names the container, not its last allowed member.
	known: "",
	run: func(t *testing.T) {
		// Only the payload exceeds 10 members (the root and the event stay
		// under it).
		var members []string
		for i := 0; i < 12; i++ {
			members = append(members, fmt.Sprintf(`"k%d":%d`, i, i))
		}
		doc := withPayload("{"+strings.Join(members, ",")+"}", "")
		_, err := draft.DecodeInterceptRequest(doc, ahprt.WithLimits(ahprt.Limits{MaxMembers: 10}))
		var e *ahprt.Error
		if !errors.As(err, &e) || e.Code != ahprt.CodeTooMany {
			t.Fatalf("got %v, want too_many", err)
		}
		const obj = "/params/event/tool/input/payload"
		if e.Pointer != obj {
			t.Fatalf("pointer %q, want %q", e.Pointer, obj)
		}
	},
}, {
	name: "explain-pass-quadratic",
	// Fixed: failures record their node, and only the returned error's
	// pointer is computed (once), so explaining stays linear.
	known: "",
	run: func(t *testing.T) {
		// capabilities.effects items are anyOf [enum, reverseDnsName]: a
		// reverse-DNS name fails the enum branch first. The request is
		// rejected (its event time is not a date), so the explaining pass
		// runs over the whole array.
		growth(t, func(mult int) func() {
			var b strings.Builder
			for i := 0; i < 1000*mult; i++ {
				fmt.Fprintf(&b, `,"com.example.e%d"`, i)
			}
			doc := string(withPayload("0", ""))
			doc = strings.Replace(doc, `"2026-08-24T08:51:14Z"`, `"2026-02-30T08:51:14Z"`, 1)
			doc = strings.Replace(doc, `,"capabilities":{"effects":["deny"]}`, "", 1)
			doc = strings.Replace(doc, `"params":{"protocolVersion":"draft",`, `"params":{"protocolVersion":"draft","capabilities":{"effects":["deny"`+b.String()+`]},`, 1)
			return func() {
				if _, err := draft.DecodeInterceptRequest([]byte(doc)); err == nil {
					t.Fatal("accepted")
				}
			}
		}, 10)
	},
}, {
	name: "uri-format-vs-santhosh",
	// Decided: an intended difference (see the package doc): ahpgen
	// follows the RFC; the oracle counts these as intended.
	known: "",
	run: func(t *testing.T) {
		for _, source := range []string{"https://例え.jp/", "x:é", "http://a/b?c#d#e",
			// brackets outside an IP literal (fuzz: "urn:te]t:harness")
			"urn:te]t:harness", "http://a/b[c]", "http://a/?x]", "http://a/#[", "http://a]b/", "http://[::1]/p]",
			// an '@' in the user information (fuzz: a registration's url)
			"https://policy.ex@mple.c@m/agent-hooks", "http://a@b@c/", "x://@@h",
			// santhosh refuses what RFC 3986 allows: an escaped ASCII
			// byte in a host (fuzz: "Qttps://harness.exuntime%42")
			"Qttps://harness.exuntime%42", "http://a%41b/", "http://u@h%7e:8/"} {
			doc := strings.Replace(string(withPayload("0", "")), "urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d", source, 1)
			c := compare(t, "intercept-request.schema.json#", []byte(doc))
			if c.Outcome != intended {
				t.Errorf("source %q: %s", source, c)
			}
		}
	},
}, {
	name: "date-time-sign-vs-santhosh",
	// Decided: an intended difference (see the package doc): ahpgen
	// follows the RFC; the oracle counts these as intended.
	known: "",
	run: func(t *testing.T) {
		for _, tm := range []string{"2026-07-22T21:+0:00Z", "2026-07-22T-0:00:00Z", "2026-07-22T21:00:+0Z"} {
			doc := strings.Replace(string(withPayload("0", "")), "2026-08-24T08:51:14Z", tm, 1)
			c := compare(t, "intercept-request.schema.json#", []byte(doc))
			if c.Outcome != intended {
				t.Errorf("time %q: %s", tm, c)
			}
		}
	},
}}

// knownDisagreement names the intended format difference (see the package
// doc) that explains a decoder rejection santhosh does not share, or
// returns "". It recognises each precisely, so that other disagreements
// still fail the oracle tests.
func knownDisagreement(data []byte, err error) string {
	var e *ahprt.Error
	if !errors.As(err, &e) {
		return ""
	}
	r := e.Root()
	if r.Code != ahprt.CodeFormat || !strings.HasSuffix(r.Schema, "/format") {
		return ""
	}
	v, ok := stringAt(data, r.Pointer)
	if !ok {
		return ""
	}
	switch {
	case strings.Contains(r.Message, "valid uri") && !format.URI(v) && format.URI(encodeForbidden(v)):
		return "uri-format-vs-santhosh"
	case strings.Contains(r.Message, "valid date-time") && !format.DateTime(v) && format.DateTime(unsignFields(v)):
		return "date-time-sign-vs-santhosh"
	}
	return ""
}

// encodeForbidden percent-encodes what RFC 3986 allows nowhere in a URI
// (non-ASCII bytes, controls, space, "<>\^`{|}), every '#' after the
// first, a '%' that two hex digits do not follow, a '[' or ']' but the
// two around an IP literal host, and an '@' in the authority but the last:
// what Go's url.Parse, and so santhosh, lets through (url.Parse checks
// escapes in a path but not in an opaque part or a query: "a:%zz",
// "http://h/?%"; it takes brackets anywhere but in the user information:
// "urn:a]b", "http://h/[", "http://h]/"; and it splits the authority at
// its last '@' and allows '@' in the user information, which RFC 3986's
// userinfo does not: "https://a@b@c/", fuzz: "https://policy.ex@mple.c@m/").
func encodeForbidden(s string) string {
	var b strings.Builder
	hash := false
	open, close := oracle.IPLiteral(s)
	lastAt := -1
	if i, end := oracle.Authority(s); i >= 0 {
		if at := strings.LastIndexByte(s[i:end], '@'); at >= 0 {
			lastAt = i + at
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '@' && i < lastAt:
			b.WriteString("%40")
		case c == '#' && !hash:
			hash = true
			b.WriteByte(c)
		case (c == '[' || c == ']') && i != open && i != close:
			fmt.Fprintf(&b, "%%%02X", c)
		case c == '%' && !(i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])):
			b.WriteString("%25")
		case c == '#' || c >= 0x80 || c <= ' ' || c == 0x7f || strings.IndexByte("\"<>\\^`{|}", c) >= 0:
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// strictDisagreement names the intended format difference that explains
// a document the decoder accepts and santhosh rejects, or "". santhosh
// checks uri with Go's url.Parse, which refuses a percent-escape of an
// ASCII byte other than %25 in a host ("http://h%41/": invalid URL
// escape); RFC 3986's reg-name allows pct-encoded, and so does ahpgen
// (fuzz: an event source "Qttps://harness.exuntime%42"). It holds when
// santhosh reports a uri format error, every value it reports so is an
// RFC 3986 URI with such an escape in its host, and santhosh accepts the
// document once those escapes are respelt as three unreserved
// characters each (the length kept, for maxLength).
func strictDisagreement(tb testing.TB, loc string, data []byte, oerr error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(oerr, &ve) {
		return ""
	}
	ptrs := map[string]bool{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if f, ok := e.ErrorKind.(*kind.Format); ok && f.Want == "uri" {
			var b strings.Builder
			for _, tok := range e.InstanceLocation {
				b.WriteString("/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(tok))
			}
			ptrs[b.String()] = true
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	if len(ptrs) == 0 {
		return ""
	}
	fixed := string(data)
	for ptr := range ptrs {
		v, ok := stringAt(data, ptr)
		if !ok || !format.URI(v) {
			return ""
		}
		r := respellHostEscapes(v)
		if r == v {
			return ""
		}
		// The value as the document spells it: the decoder accepted the
		// document, so a string without escapes is spelt as it reads.
		q := strconv.Quote(v)
		if strings.Count(fixed, q) == 0 {
			return ""
		}
		fixed = strings.ReplaceAll(fixed, q, strconv.Quote(r))
	}
	if oracleValidate(tb, loc, []byte(fixed)) != nil {
		return ""
	}
	return "uri-host-escape-vs-santhosh"
}

// respellHostEscapes replaces each percent-escape of an ASCII byte but
// %25 in the host of URI s with "xxx".
func respellHostEscapes(s string) string {
	i, end := oracle.Authority(s)
	if i < 0 {
		return s
	}
	if at := strings.LastIndexByte(s[i:end], '@'); at >= 0 {
		i += at + 1
	}
	b := []byte(s)
	for j := i; j+2 < end; j++ {
		if s[j] == '%' && isHex(s[j+1]) && isHex(s[j+2]) && s[j+1] < '8' && s[j:j+3] != "%25" {
			copy(b[j:], "xxx")
			j += 2
		}
	}
	return string(b)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// unsignFields replaces a '+' or '-' inside the two-digit fields of a
// date-time's time (hh, mm, ss and the offset's hh and mm) with '0':
// santhosh reads those fields with strconv.Atoi, which takes "+0" and "-0".
func unsignFields(s string) string {
	b := []byte(s)
	fields := []int{11, 12, 14, 15, 17, 18}
	if n := len(b); n >= 26 && b[n-1] != 'Z' && b[n-1] != 'z' {
		fields = append(fields, n-5, n-4, n-2, n-1)
	}
	for _, i := range fields {
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			b[i] = '0'
		}
	}
	return string(b)
}

// stringAt returns the string at a JSON Pointer of data.
func stringAt(data []byte, ptr string) (string, bool) {
	d, err := ahpimpl.Parse(data, ahprt.Limits{})
	if err != nil {
		return "", false
	}
	n := d.Root()
	if ptr != "" {
		for _, tok := range strings.Split(ptr[1:], "/") {
			tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
			switch d.Kind(n) {
			case ahpimpl.KindObject:
				v, ok := d.Member(n, tok)
				if !ok {
					return "", false
				}
				n = v
			case ahpimpl.KindArray:
				i, err := strconv.Atoi(tok)
				found := false
				for it := d.Items(n); err == nil && it.Next(); {
					if it.Index() == i {
						n, found = it.Item(), true
						break
					}
				}
				if !found {
					return "", false
				}
			default:
				return "", false
			}
		}
	}
	if d.Kind(n) != ahpimpl.KindString {
		return "", false
	}
	return d.Text(n), true
}

func TestKnownBugs(t *testing.T) {
	for _, b := range knownBugs {
		t.Run(b.name, func(t *testing.T) {
			if b.known != "" && os.Getenv("HOSTILE_RUN_KNOWN") == "" {
				t.Skip(b.known)
			}
			b.run(t)
		})
	}
}
