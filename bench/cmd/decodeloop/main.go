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
// as the decoders run it (ahprt.Begin and Release on a pooled context):
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
	if flag.NArg() != 2 || countTrue(*checkOnly, *scanOnly, *parseOnly) > 1 { // -check, -scan and -parse exclude each other
		flag.Usage()
		os.Exit(2)
	}
	rounds, err := strconv.Atoi(flag.Arg(1))
	if err != nil || rounds < 0 {
		fmt.Fprintln(os.Stderr, "decodeloop: rounds must be a number ≥ 0")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), rounds, *strict, *checkOnly, *scanOnly, *parseOnly); err != nil {
		fmt.Fprintln(os.Stderr, "decodeloop:", err)
		os.Exit(1)
	}
}

// countTrue is how many of bs are true.
func countTrue(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

func run(kind string, rounds int, strict, checkOnly, scanOnly, parseOnly bool) error {
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
	// run is what one message costs: a decode, or with -check the check.
	run, what := func(m []byte, codec bench.Codec) error { _, err := codec.Decode(m, opts...); return err }, "decodes"
	if checkOnly {
		run, what = func(m []byte, codec bench.Codec) error { return codec.Check(m, opts...) }, "checks"
	}
	if scanOnly {
		scan := &bench.Scanner{}
		run, what = func(m []byte, _ bench.Codec) error { return scan.Scan(m) }, "scans"
	}
	if parseOnly {
		run, what = func(m []byte, _ bench.Codec) error {
			c, err := ahprt.Begin(m, opts)
			if err == nil {
				c.Release()
			}
			return err
		}, "parses"
	}
	for _, k := range kinds {
		if k.Name != kind {
			continue
		}
		codec := bench.Codecs[k.Name]
		for range rounds {
			for i, m := range k.Msgs {
				if err := run(m, codec); err != nil {
					return fmt.Errorf("%s: %w", k.Cases[i], err)
				}
			}
		}
		fmt.Printf("%d %s of %d %s messages\n", rounds*len(k.Msgs), what, len(k.Msgs), kind)
		return nil
	}
	return fmt.Errorf("no kind %q in the corpus", kind)
}
