// Command pairratio measures, per corpus kind, the strict decode's time
// over the bare jsontext scan's in tightly interleaved pairs (bench.Pairer,
// as BenchmarkPaired does), outside the benchmark harness: a quick tool for
// comparing two versions of the code (run each build, compare the
// medians), with the quartiles of the pairs' ratios.
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
		if err := pair(k, *step, opts, *rounds); err != nil {
			fmt.Fprintf(os.Stderr, "pairratio: %s: %v\n", k.Name, err)
			os.Exit(1)
		}
	}
}

// pair times rounds pairs of kind k's step against its scan and prints
// the median and quartiles of their ratios.
func pair(k bench.Kind, step string, opts []ahprt.Option, rounds int) error {
	work, err := bench.Batch(k.Msgs, bench.Step(bench.Codecs[k.Name], step, opts...))
	if err != nil {
		return err
	}
	floor, err := bench.Batch(k.Msgs, bench.Step(bench.Codecs[k.Name], "scan"))
	if err != nil {
		return err
	}
	p := bench.NewPairer(work, floor)
	for range rounds {
		p.Pair()
	}
	fmt.Printf("%-22s %s/scan median %.2f  quartiles %.2f–%.2f  (%d pairs of %d rounds)\n",
		k.Name, step, p.Quantile(0.5), p.Quantile(0.25), p.Quantile(0.75), p.Pairs(), p.Reps())
	return nil
}
