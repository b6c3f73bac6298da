package hostile

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/gen/draft"
)

// request is a valid hooks/intercept request whose tool input (an open
// slot: any object) holds the member PAYLOAD, and whose event carries
// EXT as its extensions (an open slot keyed by reverse-DNS names).
const request = `{"jsonrpc":"2.0","id":"evt_1","method":"hooks/intercept","params":{"protocolVersion":"draft","event":{"id":"evt_1","source":"urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d","type":"tool.before","time":"2026-08-24T08:51:14Z","session":{"id":"sess_123","cwd":"/repo"},"tool":{"name":"Bash","kind":"shell","input":{"command":"ls","payload":PAYLOAD},"origin":"native"},"call":{"id":"call_456"},"path":"example","extensions":EXT},"capabilities":{"effects":["deny"]}}}`

func withPayload(payload, ext string) []byte {
	if ext == "" {
		ext = "{}"
	}
	return []byte(strings.Replace(strings.Replace(request, "PAYLOAD", payload, 1), "EXT", ext, 1))
}

func nested(depth int, open, close, leaf string) string {
	return strings.Repeat(open, depth) + leaf + strings.Repeat(close, depth)
}

func limitCode(t *testing.T, what string, err error, want ahprt.Code) {
	t.Helper()
	var e *ahprt.Error
	switch {
	case err == nil:
		t.Errorf("%s: accepted, want %s", what, want)
	case !errors.As(err, &e):
		t.Errorf("%s: %v is %T, not *ahprt.Error", what, err, err)
	case !errors.Is(err, ahprt.ErrLimit):
		t.Errorf("%s: %v is not of class ErrLimit", what, err)
	case e.Root().Code != want:
		t.Errorf("%s: code %s, want %s (%v)", what, e.Root().Code, want, err)
	default:
		t.Logf("%s: %s", what, clip([]byte(err.Error())))
	}
}

func TestBaselineAccepted(t *testing.T) {
	v, err := draft.DecodeInterceptRequest(withPayload(`{"a":[1,2]}`, `{"com.example.x":{"y":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := roundTrip("intercept-request.schema.json#", withPayload(`{"a":[1,2]}`, `{"com.example.x":{"y":1}}`), v); err != nil {
		t.Fatal(err)
	}
}

// TestDepthLimit: 10 000 levels of nesting, anywhere, in every top-level
// decoder, are refused with too_deep under the default limits (and never
// overflow the stack); raised limits accept them in an open slot.
func TestDepthLimit(t *testing.T) {
	const depth = 10000
	docs := map[string][]byte{
		"arrays at the root":              []byte(nested(depth, "[", "]", "0")),
		"objects at the root":             []byte(nested(depth, `{"a":`, "}", "0")),
		"arrays in params":                []byte(`{"jsonrpc":"2.0","id":"e","method":"hooks/intercept","params":` + nested(depth, "[", "]", "") + `}`),
		"arrays in the tool input":        withPayload(nested(depth, "[", "]", "0"), ""),
		"objects in an extension value":   withPayload("0", `{"com.example.deep":`+nested(depth, `{"a":`, "}", "0")+`}`),
		"unclosed arrays":                 []byte(strings.Repeat("[", depth)),
		"a hundred thousand unclosed":     []byte(strings.Repeat(`{"a":[`, 100000)),
		"mixed, just past the limit":      withPayload(nested(ahprt.DefaultMaxDepth, "[", "]", "0"), ""),
		"registration-shaped, deep hooks": []byte(`{"hooks":` + nested(depth, "[", "]", "") + `}`),
	}
	for _, x := range topLevel {
		e := entry(t, x.loc)
		for name, doc := range docs {
			_, err := e.Decode(doc)
			limitCode(t, x.name+", "+name, err, ahprt.CodeTooDeep)
		}
	}
	// Custom limits: a low depth refuses an ordinary message.
	_, err := draft.DecodeInterceptRequest(withPayload("0", ""), ahprt.WithLimits(ahprt.Limits{MaxDepth: 3}))
	limitCode(t, "MaxDepth 3", err, ahprt.CodeTooDeep)
	// Exactly at the limit is accepted: the request itself is 5 levels
	// deep at the tool input's members.
	doc := withPayload(nested(ahprt.DefaultMaxDepth-6, "[", "]", "0"), "")
	if _, err := draft.DecodeInterceptRequest(doc); err != nil {
		t.Errorf("nesting within the default limit: %v", err)
	}
	// Raised limits: 10 000 (and 100 000) levels inside the tool input
	// decode, re-encode and decode again.
	for _, d := range []int{depth, 10 * depth} {
		doc := withPayload(nested(d, "[", "]", "0"), "")
		opt := ahprt.WithLimits(ahprt.Limits{MaxDepth: d + 10})
		v, err := draft.DecodeInterceptRequest(doc, opt)
		if err != nil {
			t.Errorf("depth %d with raised limits: %v", d, err)
			continue
		}
		enc := v.AppendJSON(nil)
		if !ahpimpl.EqualJSON(enc, doc) {
			t.Errorf("depth %d: the encoding differs from the input", d)
		}
		if _, err := draft.DecodeInterceptRequest(enc, opt); err != nil {
			t.Errorf("depth %d: re-decode: %v", d, err)
		}
	}
}

// TestSizeLimit: documents above MaxBytes are refused before parsing.
func TestSizeLimit(t *testing.T) {
	doc := withPayload(`"`+strings.Repeat("x", 1000)+`"`, "")
	opt := func(n int) ahprt.Option { return ahprt.WithLimits(ahprt.Limits{MaxBytes: int64(n)}) }
	if _, err := draft.DecodeInterceptRequest(doc, opt(len(doc))); err != nil {
		t.Errorf("exactly MaxBytes: %v", err)
	}
	_, err := draft.DecodeInterceptRequest(doc, opt(len(doc)-1))
	limitCode(t, "MaxBytes-1", err, ahprt.CodeTooLarge)
	// The default: 64 MiB, whitespace included. Past the request's own
	// bytes the document cannot be read (on Linux: see unreadable): a
	// decoder that reads it before checking its size faults.
	prefix := withPayload(`"x"`, "")
	big, readable := unreadable(t, prefix, len(prefix)+ahprt.DefaultMaxBytes)
	if readable < len(big) {
		t.Logf("bytes past %d of %d cannot be read", readable, len(big))
	}
	for _, x := range topLevel {
		err, fault := decodeUnread(entry(t, x.loc), big)
		if fault != nil {
			t.Errorf("%s: %v, reading past the first %d bytes: the size is checked after reading the document", x.name, fault, readable)
			continue
		}
		limitCode(t, x.name+", default limit", err, ahprt.CodeTooLarge)
	}
	// A size limit counts bytes, not what they decode to: a string of
	// escapes is refused by its encoded size.
	esc := withPayload(`"`+strings.Repeat(`\u0041`, 200)+`"`, "")
	_, err = draft.DecodeInterceptRequest(esc, opt(len(esc)-1))
	limitCode(t, "escaped string", err, ahprt.CodeTooLarge)
}

// decodeUnread decodes doc with e, and returns the fault of a read of
// memory that cannot be read (see unreadable) as fault rather than
// crashing.
func decodeUnread(e ahpimpl.Entry, doc []byte) (err, fault error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if re, ok := r.(runtime.Error); ok {
			if _, ok := r.(interface{ Addr() uintptr }); ok {
				fault = re
				return
			}
		}
		panic(r)
	}()
	_, err = e.Decode(doc)
	return err, nil
}

// TestMembersLimit: containers above MaxMembers are refused with
// too_many, pointing at the container.
func TestMembersLimit(t *testing.T) {
	items := func(n int) string { return "[" + strings.TrimSuffix(strings.Repeat("0,", n), ",") + "]" }
	members := func(n int) string {
		var b strings.Builder
		b.WriteByte('{')
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"k` + strconv.Itoa(i) + `":0`)
		}
		b.WriteByte('}')
		return b.String()
	}
	lim := ahprt.WithLimits(ahprt.Limits{MaxMembers: 10})
	for _, c := range []struct {
		name string
		doc  []byte
		ok   bool
	}{
		{"10 items", withPayload(items(10), ""), true},
		{"11 items", withPayload(items(11), ""), false},
		{"10 members", withPayload(members(10), ""), true},
		{"11 members", withPayload(members(11), ""), false},
		{"11 extension members", withPayload("0", strings.ReplaceAll(members(11), `"k`, `"com.example.k`)), false},
	} {
		_, err := draft.DecodeInterceptRequest(c.doc, lim)
		if c.ok {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		limitCode(t, c.name, err, ahprt.CodeTooMany)
		var e *ahprt.Error
		if errors.As(err, &e) && !strings.HasPrefix(e.Pointer, "/params/event/") {
			t.Errorf("%s: pointer %q does not locate the container", c.name, e.Pointer)
		}
		// (Which pointer exactly: see TestKnownBugs/too-many-pointer.)
	}
	// The default: 1 << 20 items or members.
	for _, c := range []struct{ name, payload string }{
		{"default +1 items", items(ahprt.DefaultMaxMembers + 1)},
		{"default +1 members", members(ahprt.DefaultMaxMembers + 1)},
	} {
		doc := withPayload(c.payload, "")
		for _, x := range topLevel[:2] {
			_, err := entry(t, x.loc).Decode(doc)
			limitCode(t, x.name+", "+c.name, err, ahprt.CodeTooMany)
		}
	}
}

// hugeLimits lets the open-slot tests through the size and count limits.
var hugeLimits = ahprt.WithLimits(ahprt.Limits{MaxBytes: 1 << 30, MaxMembers: 1 << 24})

// openSlot builds a request whose open slot holds n units of one shape.
type openSlot struct {
	name string
	unit int // what n counts, per 1× size
	make func(n int) []byte
}

var openSlots = []openSlot{
	{"string in the tool input", 4 << 20, func(n int) []byte { return withPayload(`"`+strings.Repeat("x", n)+`"`, "") }},
	{"escaped string in the tool input", 1 << 19, func(n int) []byte { return withPayload(`"`+strings.Repeat(`\u00e9`, n)+`"`, "") }},
	{"array in the tool input", 1 << 18, func(n int) []byte {
		return withPayload("["+strings.TrimSuffix(strings.Repeat("0,", n), ",")+"]", "")
	}},
	{"object in the tool input", 1 << 16, func(n int) []byte {
		var b strings.Builder
		b.WriteByte('{')
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"k%d":%d`, i, i)
		}
		b.WriteByte('}')
		return withPayload(b.String(), "")
	}},
	{"extension members", 1 << 15, func(n int) []byte {
		var b strings.Builder
		b.WriteByte('{')
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"com.example.k%d":[%d]`, i, i)
		}
		b.WriteByte('}')
		return withPayload("0", b.String())
	}},
}

// decodeEncode is the work measured: decode with raised limits and encode.
func decodeEncode(tb testing.TB, doc []byte) int {
	v, err := draft.DecodeInterceptRequest(doc, hugeLimits)
	if err != nil {
		tb.Fatalf("rejected: %v", err)
	}
	return len(v.AppendJSON(nil))
}

// TestHugeOpenSlots: a 100 MB string, a million-item array, a
// million-member object and many extension members inside open slots
// decode and re-encode (with raised limits).
func TestHugeOpenSlots(t *testing.T) {
	if testing.Short() {
		t.Skip("hundreds of MB: skipped with -short")
	}
	for _, c := range []struct {
		name string
		doc  []byte
	}{
		{"100 MB string", openSlots[0].make(100 << 20)},
		{"1 M-item array", openSlots[2].make(1 << 20)},
		{"1 M-member object", openSlots[3].make(1 << 20)},
		{"256 K extension members", openSlots[4].make(1 << 18)},
	} {
		start := time.Now()
		n := decodeEncode(t, c.doc)
		if n != len(c.doc) {
			t.Errorf("%s: encoding is %d bytes, input %d", c.name, n, len(c.doc))
		}
		t.Logf("%s (%d bytes): decoded and encoded in %v", c.name, len(c.doc), time.Since(start).Round(time.Millisecond))
	}
}

// TestOpenSlotsLinear: decoding and encoding 1×, 2× and 4× the content of
// an open slot allocates about 1×, 2× and 4× as much (see growth). The
// check is loose: 4× the content must allocate less than 10× as much;
// quadratic growth would take 16×.
func TestOpenSlotsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing: skipped with -short")
	}
	for _, s := range openSlots {
		t.Run(s.name, func(t *testing.T) {
			growth(t, func(mult int) func() { doc := s.make(s.unit * mult); return func() { decodeEncode(t, doc) } }, 10)
		})
	}
}

// growth times run at 1×, 2× and 4× and fails when 4× takes more than
// limit times 1×.
// growth checks that the work of run grows linearly with the input: it
// measures the bytes allocated by one run at 1×, 2× and 4× (deterministic,
// unlike wall time on a shared machine; quadratic behaviour here shows up
// as quadratic allocation: pointers, copies, rebuilt strings) and fails
// when 4× the input allocates more than limit times as much. Every run is
// measured with the runtime's pools empty: they keep node tables and
// encoding buffers only up to a size, which the 1× input may fit and the
// 4× one not, and a warm 1× against a cold 4× measured the pools, not the
// growth. Time is logged for reference; BenchmarkOpenSlots measures it.
func growth(t *testing.T, setup func(mult int) func(), limit float64) {
	t.Helper()
	var bytes [3]uint64
	var times [3]time.Duration
	for i, mult := range []int{1, 2, 4} {
		run := setup(mult)
		run() // warm up: the heap's size
		var before, after runtime.MemStats
		// A sync.Pool keeps what one collection finds for one more.
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		run()
		times[i] = time.Since(start)
		runtime.ReadMemStats(&after)
		bytes[i] = after.TotalAlloc - before.TotalAlloc + 1
	}
	r2, r4 := float64(bytes[1])/float64(bytes[0]), float64(bytes[2])/float64(bytes[0])
	t.Logf("allocated 1×: %d B, 2×: %d B (×%.2f), 4×: %d B (×%.2f); time %v, %v, %v",
		bytes[0], bytes[1], r2, bytes[2], r4, times[0].Round(time.Microsecond), times[1].Round(time.Microsecond), times[2].Round(time.Microsecond))
	if r4 > limit {
		t.Errorf("4× the input allocated ×%.1f as much (more than ×%.0f): not linear", r4, limit)
	}
}

// BenchmarkOpenSlots reports the decode-and-encode time of each open slot
// at 1×, 2× and 4× its base size: ns/op should double with the size.
func BenchmarkOpenSlots(b *testing.B) {
	for _, s := range openSlots {
		for _, mult := range []int{1, 2, 4} {
			doc := s.make(s.unit * mult)
			b.Run(fmt.Sprintf("%s/%dx", strings.ReplaceAll(s.name, " ", "_"), mult), func(b *testing.B) {
				b.SetBytes(int64(len(doc)))
				for b.Loop() {
					decodeEncode(b, doc)
				}
			})
		}
	}
}
