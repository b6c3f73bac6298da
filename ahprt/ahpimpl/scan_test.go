package ahpimpl

import (
	"github.com/ahpgen/ahpgen/ahprt"

	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// jsontextAccepts is the reference for the scanner: jsontext with its
// defaults (UTF-8 and duplicate names checked), one value, no trailing data.
func jsontextAccepts(data []byte) bool {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if _, err := dec.ReadValue(); err != nil {
		return false
	}
	_, err := dec.ReadToken()
	return err != nil && err.Error() == "EOF"
}

var scanCases = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `1.5e-3`, `-12E+4`, `true`, `false`, `null`, ` {"a" : [1, 2, {"b": null}] } `,
	`{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"a":{"b":1,"b":2}}`, `01`, `1.`, `.5`, `1e`, `-`, `--1`, `+1`, `tru`, `nul`, `[1,]`, `{"a":1,}`, `{,}`, `[,1]`,
	`"\ud83d\ude00"`, `"\ud83d"`, `"\ude00"`, `"\ud83dx"`, `"\u12"`, `"\x"`, "\"\x01\"", "\"\xff\"", "\"\xc3\xa9\"", "\"\xed\xa0\x80\"",
	`{"a"}`, `{"a":}`, `{1:2}`, `[1 2]`, `"abc`, `[`, `{`, ``, `  `, "\ufeff{}", `{} {}`, `[] x`, `{"a":"b"}garbage`,
	`{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k1":0}`,
}

func TestScannerAgreesWithJSONText(t *testing.T) {
	for _, c := range scanCases {
		_, err := Parse([]byte(c), ahprt.Limits{})
		if got, want := err == nil, jsontextAccepts([]byte(c)); got != want {
			t.Errorf("Parse(%q): accepted=%v (%v), jsontext accepted=%v", c, got, err, want)
		}
	}
}

// FuzzScanner: the scanner never panics and accepts exactly what jsontext
// accepts; an accepted document compacts (RawValue) to what
// encoding/json's Compact makes of it.
func FuzzScanner(f *testing.F) {
	for _, c := range scanCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data, ahprt.Limits{})
		if got, want := err == nil, jsontextAccepts(data); got != want {
			t.Fatalf("Parse(%q): accepted=%v (%v), jsontext accepted=%v", data, got, err, want)
		}
		if err == nil {
			var want bytes.Buffer
			if err := json.Compact(&want, data); err != nil {
				t.Fatalf("encoding/json cannot compact %q, which both scanners accept: %v", data, err)
			}
			if got := d.RawValue(0); !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("RawValue(%q) = %q, want %q", data, got, want.Bytes())
			}
		}
	})
}

// TestSpecialBytes: the word-at-a-time test finds the same first byte
// needing a closer look as the byte table, on every byte value in every
// position and on random words.
func TestSpecialBytes(t *testing.T) {
	check := func(w [8]byte) {
		first := 8
		for i, c := range w {
			if strFlags[c] != 0 {
				first = i
				break
			}
		}
		got := 8
		if m := specialBytes(binary.LittleEndian.Uint64(w[:])); m != 0 {
			got = bits.TrailingZeros64(m) >> 3
		}
		if got != first {
			t.Fatalf("%q: first special byte %d, want %d", w[:], got, first)
		}
	}
	for pos := 0; pos < 8; pos++ {
		for c := 0; c < 256; c++ {
			w := [8]byte{'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'}
			w[pos] = byte(c)
			check(w)
			for below := 0; below < pos; below++ { // borrows from below
				w2 := w
				w2[below] = 0
				check(w2)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], r.Uint64())
		for i := range w { // bias towards the interesting range
			if w[i]&0x40 != 0 {
				w[i] = w[i]&0x3f | 0x20
			}
		}
		check(w)
	}
}

// TestDuplicateNames: names equal after unescaping, empty names, and
// names that share their first bytes, in small (pairwise) and large (set)
// objects.
func TestDuplicateNames(t *testing.T) {
	filler := func(k int) string {
		var b strings.Builder
		for i := range k {
			fmt.Fprintf(&b, `"f%d":0,`, i)
		}
		return b.String()
	}
	for _, tc := range []struct {
		members string
		dup     bool
	}{
		{`"ab":1,"a\u0062":2`, true},
		{`"a\u0062":1,"ab":2`, true},
		{`"":1,"":2`, true},
		{`"":1,"\u0000":2`, false},
		{`"abcdefgh1":1,"abcdefgh2":2`, false},
		{`"abcdefgh1":1,"abcdefgh1":2`, true},
		{`"abcdefg":1,"abcdefgh":2`, false},
	} {
		for _, pad := range []int{0, 20} { // 20: beyond the pairwise size
			doc := "{" + filler(pad) + tc.members + "}"
			_, err := Parse([]byte(doc), ahprt.Limits{})
			var e *ahprt.Error
			got := errors.As(err, &e) && e.Code == ahprt.CodeDuplicateName
			if got != tc.dup || err != nil && !got {
				t.Errorf("%s: error %v, want duplicate %v", doc, err, tc.dup)
			}
		}
	}
}

// TestDuplicateNamePointer: the error points at the repeated member, in
// small objects (checked as names are read) and large ones (at the end).
func TestDuplicateNamePointer(t *testing.T) {
	var large strings.Builder
	for i := range 20 {
		fmt.Fprintf(&large, `"f%d":0,`, i)
	}
	for _, tc := range []struct{ doc, ptr string }{
		{`{"a":[{"x":1,"y":2,"x":3}]}`, "/a/0/x"},
		{`{"a":{"b":{}},"c":{"d~/":1,"d~/":2}}`, "/c/d~0~1"},
		{`{"a":[0,{` + large.String() + `"f3":1}]}`, "/a/1/f3"},
	} {
		_, err := Parse([]byte(tc.doc), ahprt.Limits{})
		var e *ahprt.Error
		if !errors.As(err, &e) || e.Code != ahprt.CodeDuplicateName || e.Pointer != tc.ptr {
			t.Errorf("%s: %v, want a duplicate name at %s", tc.doc, err, tc.ptr)
		}
	}
}

// TestNameFastPath: plain names are read eight bytes at a time with their
// print taken from the loaded word. Every length around the word size,
// names sharing their first seven bytes, a name ending where the input
// ends, and escaped or non-ASCII spellings of the same name must give
// the same nodes and duplicate verdicts as the slow path.
func TestNameFastPath(t *testing.T) {
	names := []string{""}
	for l := 1; l <= 20; l++ {
		names = append(names, strings.Repeat("n", l), strings.Repeat("n", l-1)+"m")
	}
	spellings := func(name string) []string {
		out := []string{`"` + name + `"`}
		if name != "" { // the first byte escaped
			out = append(out, `"\u006`+fmt.Sprintf("%x", name[0]-0x60)+name[1:]+`"`)
		}
		return out
	}
	for _, a := range names {
		for _, b := range names {
			for _, sa := range spellings(a) {
				for _, sb := range spellings(b) {
					doc := "{" + sa + ":1," + sb + ":2}"
					d, err := Parse([]byte(doc), ahprt.Limits{})
					var e *ahprt.Error
					isDup := errors.As(err, &e) && e.Code == ahprt.CodeDuplicateName
					if isDup != (a == b) || err != nil && !isDup {
						t.Fatalf("%s: error %v, want duplicate %v", doc, err, a == b)
					}
					if err == nil && (d.Key(1) != a || d.Key(3) != b) {
						t.Fatalf("%s: names %q, %q", doc, d.Key(1), d.Key(3))
					}
				}
			}
		}
	}
	// A name with a non-ASCII byte, and names whose closing quote is
	// among the input's last eight bytes.
	for _, doc := range []string{`{"é":1,"é":2}`, `{"aé":1,"a":2}`, `{"abcdefghij":1}`, `{"a":{"bcdefgh":1}}`} {
		if _, err := Parse([]byte(doc), ahprt.Limits{}); (err != nil) != (doc == `{"é":1,"é":2}`) {
			t.Errorf("%s: error %v", doc, err)
		}
	}
}

// TestNameCounts: however a name is read (name's common case or
// nameSlow: space before the colon, escapes, an earlier name of the same
// print), every member is counted once and kept in order, and the member
// limit holds on both paths.
func TestNameCounts(t *testing.T) {
	for k := 1; k <= 40; k++ {
		var b strings.Builder
		var want []string
		b.WriteString("{")
		for i := range k {
			name := fmt.Sprintf("member%d", i)
			spelled := `"` + name + `"`
			switch i % 4 {
			case 1:
				spelled += " \n\t"
			case 2:
				spelled = `"\u006d` + name[1:] + `"`
			case 3:
				name = fmt.Sprintf("%07d", i) // a print shared with no other, in a crowded filter
				spelled = `"` + name + `"`
			}
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "%s:%d", spelled, i)
			want = append(want, name)
		}
		b.WriteString("}")
		doc := []byte(b.String())
		d, err := Parse(doc, ahprt.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if d.Len(0) != k {
			t.Fatalf("%s: %d members, want %d", doc, d.Len(0), k)
		}
		var got []string
		for m := d.Members(0); m.Next(); {
			got = append(got, m.Key())
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: names %q, want %q", doc, got, want)
		}
		_, err = Parse(doc, ahprt.Limits{MaxMembers: k - 1})
		var e *ahprt.Error
		if k > 1 && (!errors.As(err, &e) || e.Code != ahprt.CodeTooMany) {
			t.Fatalf("%s with at most %d members: %v, want the member limit", doc, k-1, err)
		}
	}
}
