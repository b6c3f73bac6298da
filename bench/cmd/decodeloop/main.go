// Command decodeloop decodes the messages of one corpus kind with ahpgen's
// generated decoder, a given number of times, and nothing else: a fixed
// amount of work to count instructions on (bench/icount runs it under
// valgrind's cachegrind). On a shared machine, timings of a change spread
// by ±15–40 %; instruction counts stay within about 1 %.
//
//	decodeloop [-strict] [-check | -scan | -parse] <kind> <rounds>
//
// With -check it runs the generated validator alone (CheckT): the
// difference to a decode is what building the Go values costs. With -scan
// it runs the benchmarks' floor instead (a bare jsontext scan), to put a
// count next to the scan's. With -parse it runs ahprt's parse step alone,
// as the decoders run it (ahpimpl.Begin and Release on a pooled context):
// the scanner's share of a decode.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/bench"
)

func main() {
	strict := flag.Bool("strict", false, "decode with ahprt.StrictAll")
	checkOnly := flag.Bool("check", false, "validate only (CheckT), building no values")
	scanOnly := flag.Bool("scan", false, "run the bare jsontext scan (the benchmarks' floor) instead")
	parseOnly := flag.Bool("parse", false, "run ahprt's parse step alone (Begin and Release)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: decodeloop [-strict] [-check | -scan | -parse] <kind> <rounds>")
		flag.PrintDefaults()
	}
	flag.Parse()
	// What each round does per message: "decode", or the one of -check,
	// -scan and -parse given (they exclude each other).
	mode, given := "decode", 0
	for _, m := range []struct {
		on   bool
		name string
	}{{*checkOnly, "check"}, {*scanOnly, "scan"}, {*parseOnly, "parse"}} {
		if m.on {
			mode, given = m.name, given+1
		}
	}
	if flag.NArg() != 2 || given > 1 {
		flag.Usage()
		os.Exit(2)
	}
	rounds, err := strconv.Atoi(flag.Arg(1))
	if err != nil || rounds < 0 {
		fmt.Fprintln(os.Stderr, "decodeloop: rounds must be a number ≥ 0")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), rounds, *strict, mode); err != nil {
		fmt.Fprintln(os.Stderr, "decodeloop:", err)
		os.Exit(1)
	}
}

func run(kind string, rounds int, strict bool, mode string) error {
	root, err := bench.Root()
	if err != nil {
		return err
	}
	// Only the large kind needs the large message built: building it
	// costs far more instructions than the decodes counted, and varies.
	load := bench.Fixtures
	if kind == bench.LargeKind {
		load = bench.Corpus
	}
	kinds, _, err := load(root)
	if err != nil {
		return err
	}
	var opts []ahprt.Option
	if strict {
		opts = append(opts, bench.Strict)
	}
	for _, k := range kinds {
		if k.Name != kind {
			continue
		}
		run := bench.Step(bench.Codecs[k.Name], mode, opts...)
		for range rounds {
			for i, m := range k.Msgs {
				if err := run(m); err != nil {
					return fmt.Errorf("%s: %w", k.Cases[i], err)
				}
			}
		}
		fmt.Printf("%d %s of %d %s messages\n", rounds*len(k.Msgs), mode+"s", len(k.Msgs), kind)
		return nil
	}
	return fmt.Errorf("no kind %q in the corpus", kind)
}
