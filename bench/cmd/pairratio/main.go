// Command pairratio measures, per corpus kind, the strict decode's time
// over the bare jsontext scan's in tightly interleaved pairs: each round
// times a few milliseconds of one and then of the other (alternating which
// goes first), and the ratio of the pair is one sample. On a host whose
// speed drifts by up to two times within a minute, both halves of a pair
// see nearly the same machine, so the median of the pairs' ratios spreads
// far less than a ratio of separately measured medians. It is a tool for
// comparing two versions of the code (run each build, compare the
// medians); bench/run remains the benchmark of record.
//
// -step times a part of the decode instead: "parse" (ahprt's parse step
// alone) or "check" (CheckX: parse and validate, no value built).
//
//	pairratio [-rounds n] [-lenient] [-step parse|check] [kind ...]
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/bench"
)

func main() {
	rounds := flag.Int("rounds", 200, "pairs per kind")
	lenient := flag.Bool("lenient", false, "decode leniently instead of with ahprt.StrictAll")
	step := flag.String("step", "decode", "what to time against the scan: decode, check or parse")
	flag.Parse()
	if *step != "decode" && *step != "check" && *step != "parse" {
		fmt.Fprintln(os.Stderr, "pairratio: -step is decode, check or parse")
		os.Exit(2)
	}
	root, err := bench.Root()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pairratio:", err)
		os.Exit(1)
	}
	kinds, _, err := bench.Fixtures(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pairratio:", err)
		os.Exit(1)
	}
	opts := []ahprt.Option{bench.Strict}
	if *lenient {
		opts = nil
	}
	for _, k := range kinds {
		if flag.NArg() > 0 && !slices.Contains(flag.Args(), k.Name) {
			continue
		}
		run := bench.Step(bench.Codecs[k.Name], *step, opts...)
		scan := bench.Step(bench.Codecs[k.Name], "scan")
		decode := func() {
			for _, m := range k.Msgs {
				if err := run(m); err != nil {
					panic(err)
				}
			}
		}
		floor := func() {
			for _, m := range k.Msgs {
				if err := scan(m); err != nil {
					panic(err)
				}
			}
		}
		// Enough repetitions for about 2 ms of scanning per half pair.
		reps := 1
		for t := timeOf(floor, 1); t < 2*time.Millisecond; t = timeOf(floor, reps) {
			reps *= 2
		}
		ratios := make([]float64, *rounds)
		for r := range ratios {
			var d, s time.Duration
			if r%2 == 0 {
				d, s = timeOf(decode, reps), timeOf(floor, reps)
			} else {
				s, d = timeOf(floor, reps), timeOf(decode, reps)
			}
			ratios[r] = float64(d) / float64(s)
		}
		slices.Sort(ratios)
		q := func(p float64) float64 { return ratios[int(p*float64(len(ratios)-1))] }
		fmt.Printf("%-22s %s/scan median %.2f  quartiles %.2f–%.2f  (%d pairs of %d rounds)\n",
			k.Name, *step, q(0.5), q(0.25), q(0.75), len(ratios), reps)
	}
}

func timeOf(f func(), reps int) time.Duration {
	start := time.Now()
	for range reps {
		f()
	}
	return time.Since(start)
}
