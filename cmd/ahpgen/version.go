package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/ahpgen/ahpgen/internal/generate"
)

func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ahpgen version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: ahpgen version")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Prints the ahpgen version (the generator version ahpgen.lock records).")
	}
	if err := parseFlags(fs, args); err != nil {
		return exitForParse(err)
	}
	if p := argsProblem(fs); p != "" {
		return misuse(stderr, fs, "ahpgen version", p)
	}
	fmt.Fprintln(stdout, "ahpgen", generate.Version())
	return 0
}
