package format

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// jstsFloor is, per format, the number of JSON-Schema-Test-Suite string
// tests (draft2020-12/optional/format/<name>.json) the checker must agree
// with. uri and date-time must agree with every test; the other floors
// record what the checkers achieve today, so a regression fails.
var jstsFloor = map[string]int{
	"uri-reference":         22, // of 22
	"iri":                   18, // of 18
	"iri-reference":         7,  // of 7
	"uri-template":          32, // of 32
	"date":                  75, // of 75
	"time":                  41, // of 41
	"duration":              46, // of 46
	"email":                 21, // of 21
	"idn-email":             12, // of 12
	"hostname":              58, // of 58
	"idn-hostname":          84, // of 84
	"ipv4":                  35, // of 35
	"ipv6":                  36, // of 36
	"uuid":                  22, // of 22
	"json-pointer":          34, // of 34
	"relative-json-pointer": 19, // of 19
	"regex":                 12, // of 12: regex.json and ecmascript-regex.json
}

// exact lists the formats that must agree with every JSTS test.
var exact = map[string]bool{"uri": true, "date-time": true}

// repoDir returns dir from env, or def relative to this package folder; it
// skips the test when the env variable is unset and def does not exist.
func repoDir(t testing.TB, env, def, what string) string {
	if d := os.Getenv(env); d != "" {
		return d
	}
	if _, err := os.Stat(def); err != nil {
		t.Skipf("%s not found at %s and %s is unset: skipping", what, def, env)
	}
	return def
}

type jstsCase struct {
	group, desc, data string
	valid             bool
}

func loadJSTS(t *testing.T, path string) []jstsCase {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var groups []struct {
		Description string
		Tests       []struct {
			Description string
			Data        any
			Valid       bool
		}
	}
	if err := json.Unmarshal(raw, &groups); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []jstsCase
	for _, g := range groups {
		for _, tc := range g.Tests {
			if s, ok := tc.Data.(string); ok { // non-strings always pass a format
				out = append(out, jstsCase{g.Description, tc.Description, s, tc.Valid})
			}
		}
	}
	return out
}

func TestJSTS(t *testing.T) {
	dir := filepath.Join(repoDir(t, "JSTS_DIR", "../../../shared/jsts", "JSON-Schema-Test-Suite"),
		"tests", "draft2020-12", "optional", "format")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no JSTS format files in %s (%v)", dir, err)
	}
	sort.Strings(files)
	agree := map[string]int{}
	total := map[string]int{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		cases := loadJSTS(t, f)
		switch name {
		case "unknown":
			if _, _, ok := Lookup(name); ok {
				t.Errorf("Lookup(%q) should not know it", name)
			}
			continue
		case "ecmascript-regex": // more regex tests, ECMA-262 dialect
			name = "regex"
		}
		check, goName, ok := Lookup(name)
		if !ok {
			t.Errorf("format %s: no checker", name)
			continue
		}
		if goName == "" {
			t.Errorf("Lookup(%q): empty Go name", name)
		}
		for _, c := range cases {
			total[name]++
			if check(c.data) == c.valid {
				agree[name]++
				continue
			}
			if exact[name] {
				t.Errorf("format %s: %q: got %v, want %v (%s: %s)", name, c.data, !c.valid, c.valid, c.group, c.desc)
			} else {
				t.Logf("format %s: disagree on %q: got %v, want %v (%s)", name, c.data, !c.valid, c.valid, c.desc)
			}
		}
	}
	names := make([]string, 0, len(total))
	for n := range total {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("format %s: %d/%d agree", n, agree[n], total[n])
		if !exact[n] && agree[n] < jstsFloor[n] {
			t.Errorf("format %s: %d/%d agree, below the recorded floor %d", n, agree[n], total[n], jstsFloor[n])
		}
	}
}

// TestAHPFixtures checks the upstream AHP fixtures: params.event.source (uri)
// and params.event.time (date-time) must pass in every valid case, and the
// malformed values in the named invalid cases must fail.
func TestAHPFixtures(t *testing.T) {
	root := repoDir(t, "AHP_UPSTREAM_DIR", "../../../shared/ahp-upstream", "AHP upstream reference")
	mustFail := map[string]string{
		"source-malformed.invalid.json":  "source",
		"timestamp-compact.invalid.json": "time",
	}
	seen := 0
	manifests, _ := filepath.Glob(filepath.Join(root, "fixtures", "*", "manifest.json"))
	for _, m := range manifests {
		raw, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		var man struct {
			Cases []struct {
				Path          string
				ExpectedValid bool
			}
		}
		if err := json.Unmarshal(raw, &man); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		for _, c := range man.Cases {
			raw, err := os.ReadFile(filepath.Join(root, c.Path))
			if err != nil {
				continue
			}
			var doc struct {
				Params struct {
					Event struct {
						Source any
						Time   any
					}
				}
			}
			if json.Unmarshal(raw, &doc) != nil {
				continue
			}
			src, _ := doc.Params.Event.Source.(string)
			tm, _ := doc.Params.Event.Time.(string)
			if field, ok := mustFail[filepath.Base(c.Path)]; ok && strings.Contains(c.Path, "/draft/") {
				seen++
				if field == "source" && URI(src) {
					t.Errorf("%s: URI(%q) = true, want false", c.Path, src)
				}
				if field == "time" && DateTime(tm) {
					t.Errorf("%s: DateTime(%q) = true, want false", c.Path, tm)
				}
				continue
			}
			if !c.ExpectedValid {
				continue
			}
			if src != "" && !URI(src) {
				t.Errorf("%s: URI(%q) = false in a valid fixture", c.Path, src)
			}
			if tm != "" && !DateTime(tm) {
				t.Errorf("%s: DateTime(%q) = false in a valid fixture", c.Path, tm)
			}
		}
	}
	if seen != len(mustFail) {
		t.Errorf("found %d of the %d named invalid fixtures", seen, len(mustFail))
	}
}

type tcase struct {
	in   string
	want bool
}

func runTable(t *testing.T, name string, f func(string) bool, cases []tcase) {
	t.Helper()
	for _, c := range cases {
		if got := f(c.in); got != c.want {
			t.Errorf("%s(%q) = %v, want %v", name, c.in, got, c.want)
		}
	}
}

func TestURITable(t *testing.T) {
	runTable(t, "URI", URI, []tcase{
		{"a:", true},
		{"a:b", true},
		{"A+b-c.d:x", true},
		{"http://example.com", true},
		{"http://example.com:", true}, // empty port
		{"http://example.com:8080/", true},
		{"http://user:pw@host:1/p?q#f", true},
		{"http://@host", true}, // empty userinfo
		{"http://", true},      // empty reg-name
		{"http:///path", true},
		{"file:///etc/hosts", true},
		{"http://[::1]:80/", true},
		{"http://[v7.a:b]/", true},
		{"http://[V1.fe]", true},
		{"http://[v.x]", false},
		{"http://[v1.]", false},
		{"http://[v1x]", false},
		{"http://[::1", false},
		{"http://[::1]x", false},
		{"http://[fe80::1%25eth0]", false}, // RFC 6874 zone: not RFC 3986
		{"http://[1.2.3.4]", false},
		{"http://a:b:c", false},
		{"http://a@b@c", false},
		{"http://h/%41%7e", true},
		{"http://h/%4", false},
		{"http://h/%", false},
		{"http://h?%g0", false},
		{"http://h#a#b", false},
		{"http://h#a?/:@", true},
		{"http://h?a?/:@", true},
		{"http://h/a b", false},
		{"http://h/\x00", false},
		{"http://h/\x7f", false},
		{"http://h/\xff", false},
		{"http://h/é", false},
		{"", false},
		{":", false},
		{"a", false},
		{"-a:b", false},
		{"a_b:c", false},
		{"http://h:80a", false},
		{"http://h:-1", false},
		{"mailto:a@b", true},
		{"urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d", true},
		{"https://bad host/%zz", false},
		{"a:b/[c]", false},
		{"a:?[", false},
	})
	runTable(t, "URIReference", URIReference, []tcase{
		{"", true},
		{"a", true},
		{"./a:b", true},
		{"a/b:c", true},
		{"a:b", true}, // a URI
		{"1:b", false},
		{"?", true},
		{"#", true},
		{"//", true},
		{"///", true},
		{"//h:x", false},
		{"%zz", false},
		{"é", false},
	})
	runTable(t, "IRI", IRI, []tcase{
		{"http://é.example/é?é#é", true},
		{"http://h/\u00a0", true},
		{"http://h/\u0085", false}, // C1 control is not ucschar
		{"http://h/\ue000", false}, // iprivate only in the query
		{"http://h/?\ue000", true},
		{"http://h/#\ue000", false},
		{"http://h/\ufffe", false},
		{"http://h/\U0001fffd", true},
		{"http://h/\U0001fffe", false},
		{"http://h/\U000e0001", false}, // tags are not ucschar
		{"http://h/\U000e1000", true},
		{"http://h/\xed\xa0\x80", false}, // UTF-8 encoded surrogate
		{"http://h/\xc3", false},         // truncated UTF-8
		{"é:x", false},
	})
	runTable(t, "IRIReference", IRIReference, []tcase{
		{"é", true},
		{"é:x", false}, // colon in the first segment of a relative path
		{"./é:x", true},
	})
}

func TestDateTimeTable(t *testing.T) {
	runTable(t, "DateTime", DateTime, []tcase{
		{"2026-08-24T08:51:14Z", true},
		{"2026-08-24t08:51:14z", true},
		{"2026-08-24T08:51:14.5+05:30", true},
		{"0000-01-01T00:00:00Z", true},
		{"9999-12-31T23:59:59.999999999Z", true},
		{"2000-02-29T00:00:00Z", true},
		{"1900-02-29T00:00:00Z", false},
		{"2004-02-29T00:00:00Z", true},
		{"2003-02-29T00:00:00Z", false},
		{"2026-04-31T00:00:00Z", false},
		{"2026-00-01T00:00:00Z", false},
		{"2026-01-00T00:00:00Z", false},
		{"2026-13-01T00:00:00Z", false},
		{"2026-08-24 08:51:14Z", false}, // RFC 3339 ABNF requires T
		{"2026-08-24T08:51:14", false},
		{"2026-08-24T08:51:14.Z", false},
		{"2026-08-24T08:51:14.", false},
		{"2026-08-24T08:51Z", false},
		{"2026-08-24T08:51:14+0000", false},
		{"20260915T120000+0000", false},
		{"2026-08-24T08:51:14+00:00Z", false},
		{"2026-08-24T08:51:14-00:00", true},
		{"2026-08-24T08:51:14+23:59", true},
		{"2026-08-24T08:51:14+24:00", false},
		{"2026-08-24T08:51:14+00:60", false},
		{"2026-08-24T08:51:14+0a:00", false},
		{"2026-08-24T08:51:14 +00:00", false},
		// leap seconds: 23:59:60 in UTC once the offset is applied
		{"2016-12-31T23:59:60Z", true},
		{"2016-12-31T23:59:60.5Z", true},
		{"2017-01-01T00:59:60+01:00", true},
		{"2016-12-31T00:29:60-23:30", true},
		{"2016-12-31T23:59:60+01:00", false},
		{"2016-12-31T23:59:61Z", false},
		{"2016-12-31T12:00:60Z", false},
		{"2026-08-24T08:51:99Z", false},
		{"-026-08-24T08:51:14Z", false},
		{"2026-08-24T08:51:14Z ", false},
		{"", false},
		{"2026-08-24T", false},
		{"2026-08-24T08:51:14\u00a0Z", false},
	})
	runTable(t, "Date", Date, []tcase{
		{"2026-02-28", true}, {"2024-02-29", true}, {"2026-02-29", false}, {"2026-2-28", false},
	})
	runTable(t, "Time", Time, []tcase{
		{"23:59:60Z", true}, {"23:59:60+00:00", true}, {"00:00:00z", true}, {"00:00:00", false},
		{"00:00:00.1", false}, {"00:00:00.1Z", true}, {"00:00:00.Z", false}, {"0:00:00Z", false},
	})
	runTable(t, "Duration", Duration, []tcase{
		{"P1D", true}, {"p1d", true}, {"P1W", true}, {"P1W1D", false}, {"PT1H1M1S", true},
		{"P1DT", false}, {"P1Y1M1DT1H1M1S", true}, {"PT1M1H", false}, {"P1M1Y", false},
		{"P1Y1M1D1H", false}, {"P1.5D", false}, {"PW", false}, {"P1", false}, {"PT1", false},
	})
}

func TestIPTable(t *testing.T) {
	runTable(t, "IPv4", IPv4, []tcase{
		{"0.0.0.0", true}, {"1.2.3.4", true}, {"255.255.255.255", true},
		{"01.2.3.4", false}, {"1.2.3.04", false}, {"1.2.3.256", false}, {"1.2.3.1000", false},
		{"1.2.3", false}, {"1.2.3.4.", false}, {"1..3.4", false}, {"", false},
	})
	runTable(t, "IPv6", IPv6, []tcase{
		{"::", true}, {"::1", true}, {"1::", true}, {"1:2:3:4:5:6:7::", true}, {"::2:3:4:5:6:7:8", true},
		{"1:2:3:4:5:6:7:8", true}, {"1:2:3:4:5:6:7:8:9", false}, {"1::2:3:4:5:6:7:8", false},
		{"1:2:3:4:5:6:1.2.3.4", true}, {"::1.2.3.4", true}, {"1:2:3:4:5:6:7:1.2.3.4", false},
		{"1.2.3.4::", false}, {":::", false}, {"1:::2", false}, {":1::2", false}, {"1::2:", false},
		{"FFFF::abcd", true}, {"fffff::", false}, {"::1.2.3", false}, {"::01.2.3.4", false},
		{"1:2:3:4:5:6:7:8::", false}, {"::1:2:3:4:5:6:7:8", false}, {"", false}, {":", false},
	})
}

func TestLookup(t *testing.T) {
	names := []string{"uri", "uri-reference", "iri", "iri-reference", "uri-template", "date-time", "date",
		"time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6", "uuid",
		"json-pointer", "relative-json-pointer", "regex"}
	seen := map[string]bool{}
	for _, n := range names {
		check, goName, ok := Lookup(n)
		if !ok || check == nil || goName == "" || seen[goName] {
			t.Errorf("Lookup(%q) = %v, %q, %v", n, check != nil, goName, ok)
		}
		seen[goName] = true
	}
	for _, n := range []string{"", "unknown", "URI", "date-time ", "int32"} {
		if _, _, ok := Lookup(n); ok {
			t.Errorf("Lookup(%q) should fail", n)
		}
	}
}

func TestHostnameTable(t *testing.T) {
	long63 := strings.Repeat("a", 63)
	name253 := long63 + "." + long63 + "." + long63 + "." + strings.Repeat("a", 61)
	runTable(t, "Hostname", Hostname, []tcase{
		{"example.com", true}, {"EXAMPLE.COM", true}, {"a", true}, {"1.2.3.4", true}, {"a-b.c", true},
		{"ab--cd.example", true}, // RFC 1123 LDH; IDNHostname rejects R-LDH labels
		{"xn--bcher-kva.example", true}, {"XN--BCHER-KVA.example", true},
		{"xn--bcher-kva-.example", false}, {"xn--bcher.example", false}, // bad A-labels
		{"xn--ls8h.example", false},                                // U+1F4A9 is DISALLOWED
		{"xn--4gbrim.xn----ymcbaaajlc6dj7bxne2c.xn--wgbh1c", true}, // Arabic
		{"1.xn--4db", false},                                       // Bidi domain: a label starting with a digit
		{"bücher.example", false}, {"a_b", false}, {"a.", false}, {".a", false}, {"a..b", false}, {"-a", false},
		{long63, true}, {long63 + "a", false}, {name253, true}, {name253 + "a", false}, {"", false},
	})
	runTable(t, "IDNHostname", IDNHostname, []tcase{
		{"bücher.example", true}, {"Bücher.example", true}, {"BÜCHER.example", false},
		{"ab--cd.example", false}, {"xn--bcher-kva.example", true}, {"münchen。de", true},
		{"ﬀ.example", false},             // U+FB00: not stable under NFKC
		{"a\u200db", false},              // ZWJ without a virama
		{"\u0628\u0627.example", true},   // RTL label, LTR label starting with a letter
		{"\u0628\u0627.1example", false}, // Bidi rule 1 for the second label
		{"ß.de", true}, {"\u00e0", true}, {"a\u0300", true}, {"\u0300a", false},
		{"\xff", false}, {"a\xc3", false}, {strings.Repeat("ü", 60), false}, {"😀.example", false},
		{"\U000e0001", false},
	})
}

func TestEmailTable(t *testing.T) {
	runTable(t, "Email", Email, []tcase{
		{"a@b", true}, {"a.b@c.d", true}, {"!#$%&'*+-/=?^_`{|}~@x.y", true},
		{`"a\"b"@c`, true}, {`"a\\b"@c`, true}, {`""@c`, true}, {`"a"b"@c`, false}, {`"a\`, false},
		{"\"a\x01\"@c", false}, {"a@[IPv6:::1]", true}, {"a@[ipv6:::1]", true}, {"a@[1.2.3.4]", true},
		{"a@[1.2.3]", false}, {"a@[::1]", false}, {"a@[tag:x]", false}, {"a..b@c", false}, {"a.@c", false},
		{strings.Repeat("a", 64) + "@c", true}, {strings.Repeat("a", 65) + "@c", false},
		{"é@x.com", false}, {"a@x.com.", false}, {"a@-x.com", false}, {"a@b@c", false}, {"a", false}, {"", false},
	})
	runTable(t, "IDNEmail", IDNEmail, []tcase{
		{"é@x.com", true}, {"a@bücher.example", true}, {`"é"@x`, true}, {"a@BÜCHER.example", false},
		{"\xff@x.com", false}, {"a\u3002b@x", true}, {"a@x\u3002com", true},
	})
}

func TestMiscTable(t *testing.T) {
	runTable(t, "UUID", UUID, []tcase{
		{"5b7de29e-a9e0-41a8-bf26-d94b05f0656d", true}, {"{5b7de29e-a9e0-41a8-bf26-d94b05f0656d}", false},
		{"5b7de29e-a9e0-41a8-bf26-d94b05f0656", false}, {"5b7de29e-a9e0-41a8-bf26_d94b05f0656d", false},
	})
	runTable(t, "JSONPointer", JSONPointer, []tcase{
		{"", true}, {"/", true}, {"/~0~1", true}, {"/~", false}, {"/~2", false}, {"a", false}, {"/\xff", false},
	})
	runTable(t, "RelativeJSONPointer", RelativeJSONPointer, []tcase{
		{"0", true}, {"0#", true}, {"10/a", true}, {"0+1/a", true}, {"2-10#", true}, {"0+0#", false},
		{"0+#", false}, {"0-01", false}, {"00", false}, {"#", false}, {"0/~", false}, {"", false},
	})
	runTable(t, "URITemplate", URITemplate, []tcase{
		{"", true}, {"{a}", true}, {"{a,b*,c:3}", true}, {"{+a}{#a}{.a}{/a}{;a}{?a}{&a}", true},
		{"{=a}", false}, {"{,a}", false}, {"{!a}", false}, {"{@a}", false}, {"{|a}", false},
		{"{a:0}", false}, {"{a:9999}", true}, {"{a*:3}", false}, {"{a.}", false}, {"{.a.b_c%20}", true},
		{"{a%2}", false}, {"%", false}, {"%2", false}, {"%20", true}, {"{", false}, {"{a", false},
		{"é\ue000", true}, {"\u0085", false}, {"a<b", false}, {"a\"b", false}, {"a{b}}", false},
	})
	runTable(t, "Regex", Regex, []tcase{
		{"", true}, {"a|", true}, {"()", true}, {"(?:a)*", true}, {"a{2,3}?", true}, {"a{3,2}", false},
		{"a{", false}, {"a}", false}, {"]", false}, {"*", false}, {"a**", false}, {"(?=a)*", false},
		{"(?<=a)?", false}, {"\\b+", false}, {"^*", false}, {"(", false}, {")", false}, {"[a-", false},
		{"[z-a]", false}, {"[\\d-z]", false}, {"[\\b\\-]", true}, {"\\-", false}, {"\\1(a)", true},
		{"\\2(a)", false}, {"\\0", true}, {"\\01", false}, {"[\\1]", false}, {"\\k<a>(?<a>.)", true},
		{"(?<a>.)(?<a>.)", false}, {"(?<a\\u0062>.)\\k<ab>", true}, {"\\k<b>(?<a>.)", false}, {"\\k", false},
		{"(?<1a>.)", false}, {"(?<$é>.)", true}, {"\\u{10FFFF}", true}, {"\\u{110000}", false},
		{"[\\uD83D\\uDE00-\\u{1F601}]", true}, {"\\p{Script=Greek}", true}, {"\\p{sc=Grek}", true},
		{"\\p{Greek}", false}, {"\\p{L}", true}, {"\\P{Any}", true}, {"\\p{Basic_Emoji}", false},
		{"\\p{gc=Alpha}", false}, {"\\p{L", false}, {"\\p", false}, {"(?i:a)", true}, {"(?-i:a)", true},
		{"(?i-i:a)", false}, {"(?-:a)", false}, {"(?x:a)", false}, {"(?P<n>a)", false}, {"\\cJ", true},
		{"\\c", false}, {"\\x4", false}, {"\\/", true}, {"\\a", false}, {"\\\\", true}, {"\\", false},
		{"\\xff\\xfe", true}, {"\xff", false}, {strings.Repeat("(", 10000) + strings.Repeat(")", 10000), true},
		// ES2025: a name may repeat in different alternatives.
		{"(?<a>.)|(?<a>.)", true}, {"(?:(?<a>x)|y)|(?<a>z)", true}, {"((?<a>x)|(?<a>y))\\k<a>", true},
		{"(?<a>[)|])|(?<a>y)", true}, {"(?<a>x)(?:|(?<a>y))", false}, {"(?<a>x|(?<a>y))", false},
		{"(?:(?<a>x)|y)(?<a>z)", false}, {"(?<a>\\|)(?<a>y)", false}, {"(?<a>[|])(?<a>y)", false},
		{"(?<a>x)|(?<a>y)|(?<a>z)", true}, {"(?<a>x)|(?<a>y)(?<a>z)", false},
		{manyNames + "|(?<n0>y)", true}, {manyNames + "(?<n0>y)", false},
	})
}

// manyNames has more group names than Regex compares without a map.
var manyNames = func() string {
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "(?<n%d>x)", i)
	}
	return b.String()
}()

func TestNoAllocs(t *testing.T) {
	inputs := map[string]string{
		"uri":                   "http://user:pw@[2001:db8::7]:8080/a/b%20c?x=1&y=2#frag",
		"uri-reference":         "../a/b?c#d",
		"iri":                   "http://é.example/é?\ue000#é",
		"iri-reference":         "é/é",
		"uri-template":          "http://h/{+a}/{b,c:3}{?d*}",
		"date-time":             "1998-12-31T15:59:60.123-08:00",
		"date":                  "2024-02-29",
		"time":                  "23:59:60Z",
		"duration":              "P1Y2M3DT4H5M6S",
		"email":                 "a.b@xn--bcher-kva.example",
		"idn-email":             "é@bücher.example",
		"hostname":              "xn--4gbrim.xn----ymcbaaajlc6dj7bxne2c.xn--wgbh1c",
		"idn-hostname":          "\u0915\u094d\u200d\u0937.bücher。example",
		"ipv4":                  "192.168.0.1",
		"ipv6":                  "1:2::192.168.0.1",
		"uuid":                  "5b7de29e-a9e0-41a8-bf26-d94b05f0656d",
		"json-pointer":          "/a~0/b~1/é",
		"relative-json-pointer": "1+2/a",
		"regex":                 "^(?<y>\\d{4})-(?<m>\\d{2})\\k<y>[\\p{L}a-z]+(?=x)$",
	}
	for name, in := range inputs {
		check, _, _ := Lookup(name)
		if !check(in) {
			t.Errorf("%s: %q should pass", name, in)
		}
		if n := testing.AllocsPerRun(100, func() { check(in) }); n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
}

func FuzzURI(f *testing.F) {
	for _, s := range []string{"http://a/b?c#d", "https://[::1]:8/%41", "urn:x:y", "a:[v1.x]", "http://é/", "%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u := URI(s)
		r := URIReference(s)
		i := IRI(s)
		ir := IRIReference(s)
		if u && !r || u && !i || i && !ir || r && !ir {
			t.Errorf("inconsistent on %q: uri=%v ref=%v iri=%v iriref=%v", s, u, r, i, ir)
		}
	})
}

func FuzzDateTime(f *testing.F) {
	for _, s := range []string{"2026-08-24T08:51:14Z", "1998-12-31T15:59:60.123-08:00", "2020-02-29t00:00:00.0z", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if DateTime(s) && !(Date(s[:10]) && Time(s[11:])) {
			t.Errorf("DateTime(%q) but its parts fail", s)
		}
		_ = Duration(s)
	})
}

var sink bool

func BenchmarkURI(b *testing.B) {
	inputs := []string{
		"https://harness.example/runtime/42",
		"http://user:pw@[2001:db8::7]:8080/a/b%20c?x=1&y=2#frag",
		"urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d",
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sink = URI(inputs[i%len(inputs)])
	}
}

func BenchmarkDateTime(b *testing.B) {
	inputs := []string{"2026-08-24T08:51:14Z", "1998-12-31T15:59:60.123-08:00", "1937-01-01T12:00:27.87+00:20"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sink = DateTime(inputs[i%len(inputs)])
	}
}

// FuzzAll runs every checker on arbitrary input: none may panic.
func FuzzAll(f *testing.F) {
	for _, s := range []string{"xn--bcher-kva.example", "bücher.example", "a@[IPv6:::1]", "(?<a>x)\\k<a>",
		"{+a,b:3}", "0+1/a~0", "\u0628\u200c\u0628", "P1Y2M3DT4H5M6S", "xn--", "xn--a-", "[\\u{10ffff}-\\uD800]"} {
		f.Add(s)
	}
	names := []string{"uri", "uri-reference", "iri", "iri-reference", "uri-template", "date-time", "date",
		"time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6", "uuid",
		"json-pointer", "relative-json-pointer", "regex"}
	f.Fuzz(func(t *testing.T, s string) {
		for _, n := range names {
			check, _, _ := Lookup(n)
			check(s)
		}
		if Hostname(s) && !IDNHostname(s) && !strings.Contains(s, "--") {
			t.Errorf("Hostname(%q) but not IDNHostname", s)
		}
		if Email(s) && !IDNEmail(s) && !strings.Contains(s, "--") {
			t.Errorf("Email(%q) but not IDNEmail", s)
		}
	})
}
