package hostile

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// A small ordered JSON tree for mutating documents: member order, number
// spellings and (at the byte level, through dup and raw) duplicate names
// and bytes encoding/json cannot write are all under the generator's
// control.
type jv struct {
	kind byte   // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null, 'r' raw bytes
	s    string // string value; number spelling; "true"/"false"; raw bytes
	keys []string
	vals []*jv
	dup  int // objects: index+1 of a member written twice (0: none)
}

func fromDoc(d *ahpimpl.Doc, n ahpimpl.Node) *jv {
	switch d.Kind(n) {
	case ahpimpl.KindObject:
		v := &jv{kind: 'o'}
		for m := d.Members(n); m.Next(); {
			v.keys = append(v.keys, d.Text(m.Name()))
			v.vals = append(v.vals, fromDoc(d, m.Value()))
		}
		return v
	case ahpimpl.KindArray:
		v := &jv{kind: 'a'}
		for it := d.Items(n); it.Next(); {
			v.vals = append(v.vals, fromDoc(d, it.Item()))
		}
		return v
	case ahpimpl.KindString:
		return &jv{kind: 's', s: d.Text(n)}
	case ahpimpl.KindNumber:
		return &jv{kind: 'n', s: string(d.Raw(n))}
	case ahpimpl.KindBool:
		return &jv{kind: 'b', s: strconv.FormatBool(d.Bool(n))}
	}
	return &jv{kind: 'z'}
}

func (v *jv) clone() *jv {
	c := *v
	c.keys = append([]string(nil), v.keys...)
	c.vals = make([]*jv, len(v.vals))
	for i, x := range v.vals {
		c.vals[i] = x.clone()
	}
	return &c
}

func (v *jv) append(b []byte) []byte {
	switch v.kind {
	case 'o':
		b = append(b, '{')
		for i, k := range v.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = ahpimpl.AppendString(b, k)
			b = append(b, ':')
			b = v.vals[i].append(b)
			if v.dup == i+1 {
				b = append(b, ',')
				b = ahpimpl.AppendString(b, k)
				b = append(b, ':')
				b = v.vals[i].append(b)
			}
		}
		return append(b, '}')
	case 'a':
		b = append(b, '[')
		for i, x := range v.vals {
			if i > 0 {
				b = append(b, ',')
			}
			b = x.append(b)
		}
		return append(b, ']')
	case 's':
		return ahpimpl.AppendString(b, v.s)
	case 'n', 'b', 'r':
		return append(b, v.s...)
	}
	return append(b, "null"...)
}

// slot is a place in the tree: the value at parent.vals[i] (parent nil:
// the root).
type slot struct {
	parent *jv
	i      int
	name   string // the member name, for object members
}

func walk(v *jv, parent *jv, i int, name string, out *[]slot) {
	*out = append(*out, slot{parent, i, name})
	for j, x := range v.vals {
		n := ""
		if v.kind == 'o' {
			n = v.keys[j]
		}
		walk(x, v, j, n, out)
	}
}

type mutator struct {
	r *rand.Rand
	// discriminators maps member names that select a variant or carry a
	// protocol constant to every value the fixtures give them.
	discriminators map[string][]string
}

var discriminatorNames = map[string]bool{
	"type": true, "operation": true, "method": true, "kind": true, "mode": true, "action": true,
	"origin": true, "role": true, "status": true, "selection": true, "jsonrpc": true,
	"protocolVersion": true, "transport": true, "decision": true, "target": true, "outcome": true,
	"reason": true, "mediaType": true, "phase": true, "finishReason": true,
}

func (m *mutator) learn(v *jv) {
	var slots []slot
	walk(v, nil, 0, "", &slots)
	for _, s := range slots {
		if s.parent == nil || !discriminatorNames[s.name] {
			continue
		}
		x := s.parent.vals[s.i]
		if x.kind == 's' && !contains(m.discriminators[s.name], x.s) {
			m.discriminators[s.name] = append(m.discriminators[s.name], x.s)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (m *mutator) pick(list []string) string { return list[m.r.IntN(len(list))] }

var (
	dateTimeRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT`)
	uriRE      = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	hashRE     = regexp.MustCompile(`^sha256:[0-9a-f]+$`)
)

var (
	badDateTimes = []string{
		"2026-02-30T08:51:14Z", "2026-08-24T08:51:14", "2026-08-24 08:51:14Z", "2026-08-24t08:51:14z",
		"2026-08-24T24:00:00Z", "2026-06-30T23:59:60Z", "2026-08-24T08:51:14.123456789+05:30",
		"2026-08-24T08:51:14+25:00", "2026-8-24T08:51:14Z", "2026-08-24T08:51:14.Z", "2026-08-24",
		"0000-01-01T00:00:00Z", "2026-08-24T08:51:14-00:00", "2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z",
		"2026-08-24T08:51:14,5Z", "+2026-08-24T08:51:14Z", "2026-08-24T08:51:14Z ",
	}
	badURIs = []string{
		"not a uri", "relative/path", "http://exa mple.com/", "urn:", "https://例え.jp/", "http://[::1]:80/",
		"mailto:a@b", "HTTP://X", ":nope", "a:b", "file:///tmp/x", "http://%zz/", "http://a/%zz",
		"http://[fe80::1%25eth0]/", "http://host:99999/", "urn:uuid:", "x:\u00e9", "http://a/b?c#d#e",
		"http://user@:80", "//no-scheme", "http://[::1/", "a:/b", "http:", "1http://a",
	}
	badStrings = []string{
		"", " ", "\u0000", "\ufeff", "a\nb", strings.Repeat("x", 5000), "\u00e9", "😀", "-", "0",
		"urn:test:harness", "https://example.com/x", "sha256:" + strings.Repeat("a", 64),
		"sha256:" + strings.Repeat("A", 64), "text/plain", "application/json", "image/png",
	}
	numberSpellings = []string{
		"1.0", "1e2", "1.5", "-1", "0", "-0", "1e400", "1E+2", "100000000000000000000", "0.1e1",
		"1.0e-400", "9007199254740993", "2147483648", "1e-2", "0.0", "10e-1", "-1e400", "123456789012345678901234567890",
	}
)

// mutate applies one random near-valid mutation to the tree and returns
// its description.
func (m *mutator) mutate(root *jv) (*jv, string) {
	var slots []slot
	walk(root, nil, 0, "", &slots)
	get := func(s slot) *jv {
		if s.parent == nil {
			return root
		}
		return s.parent.vals[s.i]
	}
	set := func(s slot, v *jv) {
		if s.parent == nil {
			root = v
		} else {
			s.parent.vals[s.i] = v
		}
	}
	// Slots of one kind.
	of := func(kinds string) []slot {
		var out []slot
		for _, s := range slots {
			if strings.IndexByte(kinds, get(s).kind) >= 0 {
				out = append(out, s)
			}
		}
		return out
	}
	any := func(list []slot) (slot, bool) {
		if len(list) == 0 {
			return slot{}, false
		}
		return list[m.r.IntN(len(list))], true
	}
	for tries := 0; tries < 20; tries++ {
		switch m.r.IntN(14) {
		case 0: // drop a member (required ones among them)
			s, ok := any(of("o"))
			o := get(s)
			if !ok || len(o.keys) == 0 {
				continue
			}
			i := m.r.IntN(len(o.keys))
			name := o.keys[i]
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			o.vals = append(o.vals[:i], o.vals[i+1:]...)
			return root, "drop member " + name
		case 1: // flip a type
			s, _ := any(slots)
			old := get(s)
			choices := []*jv{{kind: 's', s: "x"}, {kind: 'n', s: "1"}, {kind: 'b', s: "true"}, {kind: 'z'}, {kind: 'o'}, {kind: 'a'},
				{kind: 's', s: string(old.append(nil))}, {kind: 'a', vals: []*jv{old.clone()}}}
			nv := choices[m.r.IntN(len(choices))]
			if nv.kind == old.kind && nv.kind != 's' {
				continue
			}
			set(s, nv)
			return root, "flip type at " + s.name + " to " + string(nv.kind)
		case 2: // add an unknown member at depth
			s, ok := any(of("o"))
			if !ok {
				continue
			}
			o := get(s)
			name := m.pick([]string{"unknownMember", "x-extra", "$schema", "__proto__", "", "Type", "id ", "extensions"})
			if contains(o.keys, name) {
				continue
			}
			val := []*jv{{kind: 's', s: "v"}, {kind: 'n', s: "1"}, {kind: 'o'}, {kind: 'z'}}[m.r.IntN(4)]
			at := m.r.IntN(len(o.keys) + 1)
			o.keys = append(o.keys[:at], append([]string{name}, o.keys[at:]...)...)
			o.vals = append(o.vals[:at], append([]*jv{val}, o.vals[at:]...)...)
			return root, "add unknown member " + strconv.Quote(name)
		case 3, 4: // swap a discriminator
			var cands []slot
			for _, s := range slots {
				if s.parent != nil && discriminatorNames[s.name] && get(s).kind == 's' {
					cands = append(cands, s)
				}
			}
			s, ok := any(cands)
			if !ok {
				continue
			}
			vals := append([]string{"zz.unknown", "", "Tool.before"}, m.discriminators[s.name]...)
			nv := m.pick(vals)
			if nv == get(s).s {
				continue
			}
			set(s, &jv{kind: 's', s: nv})
			return root, "swap " + s.name + " to " + strconv.Quote(nv)
		case 5, 6: // break a format
			s, ok := any(of("s"))
			if !ok {
				continue
			}
			cur := get(s).s
			var nv string
			switch {
			case dateTimeRE.MatchString(cur):
				nv = m.pick(badDateTimes)
			case hashRE.MatchString(cur):
				nv = m.pick([]string{strings.ToUpper(cur), cur[:len(cur)-1], cur + "0", "sha512:" + cur[7:], "sha256:"})
			case uriRE.MatchString(cur):
				nv = m.pick(badURIs)
			default:
				nv = m.pick(badStrings)
			}
			if nv == cur {
				continue
			}
			set(s, &jv{kind: 's', s: nv})
			return root, "format " + s.name + " = " + strconv.Quote(clip([]byte(nv)))
		case 7: // duplicate a key (byte level)
			s, ok := any(of("o"))
			o := get(s)
			if !ok || len(o.keys) == 0 {
				continue
			}
			o.dup = 1 + m.r.IntN(len(o.keys))
			return root, "duplicate member " + o.keys[o.dup-1]
		case 8: // integer spellings
			s, ok := any(of("n"))
			if !ok {
				continue
			}
			cur := get(s).s
			nv := m.pick(append([]string{cur + ".0", cur + "e0", cur + "0e-1"}, numberSpellings...))
			set(s, &jv{kind: 'n', s: nv})
			return root, "number " + s.name + " = " + nv
		case 9: // empty string
			s, ok := any(of("s"))
			if !ok || get(s).s == "" {
				continue
			}
			set(s, &jv{kind: 's'})
			return root, "empty string at " + s.name
		case 10: // deep nesting
			s, _ := any(slots)
			depth := []int{2, 30, 200, 900}[m.r.IntN(4)]
			v := get(s)
			for i := 0; i < depth; i++ {
				if m.r.IntN(2) == 0 {
					v = &jv{kind: 'a', vals: []*jv{v}}
				} else {
					v = &jv{kind: 'o', keys: []string{"a"}, vals: []*jv{v}}
				}
			}
			set(s, v)
			return root, "nest " + strconv.Itoa(depth) + " levels at " + s.name
		case 11: // null
			s, _ := any(slots)
			if get(s).kind == 'z' {
				continue
			}
			set(s, &jv{kind: 'z'})
			return root, "null at " + s.name
		case 12: // remove or repeat an array item
			s, ok := any(of("a"))
			a := get(s)
			if !ok || len(a.vals) == 0 {
				continue
			}
			i := m.r.IntN(len(a.vals))
			if m.r.IntN(2) == 0 {
				a.vals = append(a.vals[:i], a.vals[i+1:]...)
				return root, "remove item of " + s.name
			}
			a.vals = append(a.vals[:i+1], append([]*jv{a.vals[i].clone()}, a.vals[i+1:]...)...)
			return root, "repeat item of " + s.name
		case 13: // strings at the byte level: escapes, surrogates, bad UTF-8
			s, ok := any(of("s"))
			if !ok {
				continue
			}
			raw := m.pick([]string{`"\u0000"`, `"\ud800"`, `"\udc00x"`, `"\ud83d\ude00"`, "\"\xff\"", "\"\xed\xa0\x80\"", `"\/"`, `"a\tb"`, "\"a\tb\"", `"\u00e9"`})
			set(s, &jv{kind: 'r', s: raw})
			return root, "raw string " + raw + " at " + s.name
		}
	}
	return root, "unchanged"
}
