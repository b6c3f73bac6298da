// Command ratios reads `go test -bench` output of the bench package and
// prints, per kind, the time ratio of each ahpgen case to each baseline
// (medians over -count runs; < 1 means ahpgen is faster), then whether the
// targets of BENCHMARKS.md are met.
//
//	ratio <kind> <ahpgen-case>/<baseline> <x>
//	sequential <kind> <ahpgen-case>/scan <x>
//	split <kind> ahpgen-strict/scan <x> = parse <p> + check <c> + build <b>
//
// The ratios to the scan come from BenchmarkPaired (the median over the
// passes of each pass's median pair ratio: the decode and the scan timed
// in interleaved slices, see bench.Pairer) when the output has it; the
// sequential line before each is then, for reference, the ratio of the
// separately timed Decode cases' medians, which the host's drift moves.
// The split lines divide the strict decode's time, in units of the scan
// (sequential), by the ahprt-parse and ahpgen-check cases.
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

type key struct{ group, kind, impl string }

type samples struct{ ns, bytesPerSec, allocs, bytes, xscan []float64 }

var lineRe = regexp.MustCompile(`^Benchmark(\w+)/kind=([^/]+)/impl=(\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

const large = "intercept-request-1MiB"

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: ratios bench.txt")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	data := map[key]*samples{}
	var kinds []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := lineRe.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		k := key{m[1], m[2], m[3]}
		if !seen[k.kind] {
			seen[k.kind] = true
			kinds = append(kinds, k.kind)
		}
		s := data[k]
		if s == nil {
			s = &samples{}
			data[k] = s
		}
		fs := strings.Fields(m[4])
		for i := 0; i+1 < len(fs); i += 2 {
			v, err := strconv.ParseFloat(fs[i], 64)
			if err != nil {
				continue
			}
			switch fs[i+1] {
			case "ns/op":
				s.ns = append(s.ns, v)
			case "MB/s":
				s.bytesPerSec = append(s.bytesPerSec, v*1e6)
			case "allocs/op":
				s.allocs = append(s.allocs, v)
			case "B/op":
				s.bytes = append(s.bytes, v)
			case "x-scan":
				s.xscan = append(s.xscan, v)
			}
		}
	}
	med := func(group, kind, impl string, pick func(*samples) []float64) float64 {
		s := data[key{group, kind, impl}]
		if s == nil || len(pick(s)) == 0 {
			return math.NaN()
		}
		return median(pick(s))
	}
	ns := func(s *samples) []float64 { return s.ns }
	xscan := func(s *samples) []float64 { return s.xscan }
	// overScan is an ahpgen decode's time in scans: BenchmarkPaired's
	// median, timed in interleaved pairs, when the run has it (see
	// bench.Pairer for why); else the ratio of the two cases' medians.
	overScan := func(kind, c string) float64 {
		if r := med("Paired", kind, c, xscan); !math.IsNaN(r) {
			return r
		}
		return med("Decode", kind, c, ns) / med("Decode", kind, "scan", ns)
	}
	allocs := func(s *samples) []float64 { return s.allocs }
	nsPerByte := func(s *samples) []float64 {
		var out []float64
		for _, v := range s.bytesPerSec {
			out = append(out, 1e9/v)
		}
		return out
	}

	worst := map[string]float64{} // target -> worst ratio over kinds
	worstKind := map[string]string{}
	missing := map[string][]string{}
	note := func(target, kind string, r float64) {
		if math.IsNaN(r) {
			missing[target] = append(missing[target], kind)
			return
		}
		if w, ok := worst[target]; !ok || r > w {
			worst[target], worstKind[target] = r, kind
		}
	}
	fmtRatio := func(r float64) string {
		if math.IsNaN(r) {
			return "n/a (case skipped: see the benchmark log)"
		}
		return strconv.FormatFloat(r, 'f', 3, 64)
	}

	for _, kind := range kinds {
		for _, c := range []string{"ahpgen-strict", "ahpgen-lenient"} {
			for _, base := range []string{"santhosh", "encoding-json", "go-jsonschema", "scan"} {
				r := med("Decode", kind, c, ns) / med("Decode", kind, base, ns)
				if p := med("Paired", kind, c, xscan); base == "scan" && !math.IsNaN(p) {
					// Paired (see overScan): the separately timed cases' ratio for reference.
					fmt.Printf("sequential %s %s/%s %s\n", kind, c, base, fmtRatio(r))
					r = p
				}
				fmt.Printf("ratio %s %s/%s %s\n", kind, c, base, fmtRatio(r))
				if c == "ahpgen-strict" {
					switch base {
					case "santhosh":
						note("santhosh", kind, r)
					case "encoding-json":
						note("encoding-json", kind, r)
					case "scan":
						note("scan", kind, r)
					}
				}
			}
		}
		for _, c := range []string{"ahpgen", "ahpgen-reuse", "ahpgen-validated"} {
			r := med("Encode", kind, c, ns) / med("Encode", kind, "encoding-json", ns)
			name := "encode" + strings.TrimPrefix(c, "ahpgen")
			fmt.Printf("ratio %s %s/encoding-json %s\n", kind, name, fmtRatio(r))
			if c == "ahpgen" {
				note("encode", kind, r)
			}
		}
		// Where the strict decode's time goes, in units of the scan: the
		// parse, the checks (check - parse) and building (decode - check).
		if sc := med("Decode", kind, "scan", ns); !math.IsNaN(sc) {
			p, k, d := med("Decode", kind, "ahprt-parse", ns), med("Decode", kind, "ahpgen-check", ns), med("Decode", kind, "ahpgen-strict", ns)
			fmt.Printf("split %s ahpgen-strict/scan %s = parse %s + check %s + build %s\n", kind,
				fmtRatio(d/sc), fmtRatio(p/sc), fmtRatio((k-p)/sc), fmtRatio((d-k)/sc))
		}
		a, e := med("Decode", kind, "ahpgen-strict", allocs), med("Decode", kind, "encoding-json", allocs)
		fmt.Printf("allocs %s ahpgen-strict %.0f encoding-json %.0f\n", kind, a, e)
		note("allocs", kind, a/e)
	}

	// Size: ns per byte of the large message over that of the small
	// intercept requests (same entry point), and over all small messages.
	var smallNs, smallBytes float64
	for _, kind := range kinds {
		if kind == large {
			continue
		}
		s := data[key{"Decode", kind, "ahpgen-strict"}]
		if s == nil || len(s.ns) == 0 || len(s.bytesPerSec) == 0 {
			continue
		}
		n := median(s.ns)
		smallNs += n
		smallBytes += n * median(s.bytesPerSec) / 1e9
	}
	for _, c := range []string{"ahpgen-strict", "ahpgen-lenient", "encoding-json", "santhosh", "scan"} {
		r := med("Decode", large, c, nsPerByte) / med("Decode", "intercept-request", c, nsPerByte)
		fmt.Printf("ratio %s %s-per-byte/intercept-request-per-byte %s\n", large, c, fmtRatio(r))
		if c == "ahpgen-strict" {
			note("size", large, r)
		}
	}
	if smallBytes > 0 {
		r := med("Decode", large, "ahpgen-strict", nsPerByte) / (smallNs / smallBytes)
		fmt.Printf("ratio %s ahpgen-strict-per-byte/all-small-per-byte %s\n", large, fmtRatio(r))
	}

	fmt.Println()
	printTable(kinds, data)
	fmt.Println()
	targets := []struct {
		id, text string
		limit    float64
	}{
		{"santhosh", "strict decode >= 10x faster than santhosh validate + decode (ratio <= 0.10)", 0.10},
		{"encoding-json", "strict decode >= 1.5x faster than encoding/json Unmarshal (ratio <= 0.667)", 1 / 1.5},
		{"allocs", "strict decode allocates less than encoding/json Unmarshal (allocs ratio < 1)", 0.999999},
		{"scan", "strict decode within 2.5x of the bare jsontext scan (ratio <= 2.5)", 2.5},
		{"encode", "encode >= 2x faster than encoding/json Marshal (ratio <= 0.5)", 0.5},
		{"size", "1 MiB message within 1.3x of the small intercept requests' per-byte cost (ratio <= 1.3)", 1.3},
	}
	for _, t := range targets {
		w, ok := worst[t.id]
		verdict := "met"
		switch {
		case !ok:
			verdict = "not measured"
		case w > t.limit:
			verdict = "MISSED"
		}
		var below []string
		for _, kind := range kinds {
			r := targetRatio(t.id, kind, med, overScan, ns, allocs, nsPerByte)
			if !math.IsNaN(r) && r > t.limit {
				below = append(below, fmt.Sprintf("%s %.3f", kind, r))
			}
		}
		extra := ""
		if ok {
			extra = fmt.Sprintf("; worst %s %.3f", worstKind[t.id], w)
		}
		if len(below) > 0 {
			extra += "; missed on " + strings.Join(below, ", ")
		}
		if m := missing[t.id]; len(m) > 0 {
			sort.Strings(m)
			extra += "; not measured on " + strings.Join(m, ", ")
		}
		fmt.Printf("target %s: %s%s\n", verdict, t.text, extra)
	}
}

func targetRatio(id, kind string, med func(string, string, string, func(*samples) []float64) float64, overScan func(kind, c string) float64, ns, allocs, nsPerByte func(*samples) []float64) float64 {
	switch id {
	case "scan":
		return overScan(kind, "ahpgen-strict")
	case "santhosh", "encoding-json":
		return med("Decode", kind, "ahpgen-strict", ns) / med("Decode", kind, id, ns)
	case "allocs":
		return med("Decode", kind, "ahpgen-strict", allocs) / med("Decode", kind, "encoding-json", allocs)
	case "encode":
		return med("Encode", kind, "ahpgen", ns) / med("Encode", kind, "encoding-json", ns)
	case "size":
		if kind != large {
			return math.NaN()
		}
		return med("Decode", kind, "ahpgen-strict", nsPerByte) / med("Decode", "intercept-request", "ahpgen-strict", nsPerByte)
	}
	return math.NaN()
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// printTable writes a Markdown table of medians: time per iteration (all the
// kind's messages), throughput and allocations, per implementation.
func printTable(kinds []string, data map[key]*samples) {
	cols := []struct{ group, impl string }{
		{"Decode", "ahpgen-strict"}, {"Decode", "ahpgen-lenient"}, {"Decode", "encoding-json"},
		{"Decode", "santhosh"}, {"Decode", "go-jsonschema"}, {"Decode", "scan"}, {"Decode", "ahprt-parse"},
		{"Decode", "ahpgen-check"}, {"Encode", "ahpgen"}, {"Encode", "ahpgen-reuse"}, {"Encode", "ahpgen-validated"}, {"Encode", "encoding-json"},
	}
	fmt.Print("| kind |")
	for _, c := range cols {
		fmt.Printf(" %s %s |", strings.ToLower(c.group), c.impl)
	}
	fmt.Print("\n|---|")
	for range cols {
		fmt.Print("---|")
	}
	fmt.Println()
	for _, kind := range kinds {
		fmt.Printf("| %s |", kind)
		for _, c := range cols {
			s := data[key{c.group, kind, c.impl}]
			if s == nil || len(s.ns) == 0 {
				fmt.Print(" skipped |")
				continue
			}
			fmt.Printf(" %s, %.0f MB/s, %.0f allocs |", dur(median(s.ns)), median(s.bytesPerSec)/1e6, median(s.allocs))
		}
		fmt.Println()
	}
}

func dur(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}
