package format

import (
	"encoding/json"
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
var jstsFloor = map[string]int{}

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
			t.Logf("format %s: no checker yet", name)
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
