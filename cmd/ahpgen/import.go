package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ahpgen/ahpgen/internal/release"
)

func runImport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ahpgen import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "a local upstream AHP checkout (or another schema root) to import from")
	snapshot := fs.String("snapshot", "", "import only this snapshot (draft, YYYY-MM-DD, …); default: every snapshot of -from")
	schemas := fs.String("schemas", "schemas", "the schema root that receives the snapshots")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: ahpgen import -from TREE [-snapshot KEY] [-schemas DIR]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Copies snapshots of TREE (schema/<key>/, legacy schemas/<key>/) into DIR/<key>,")
		fmt.Fprintln(stderr, "manifest included, after checking every document against the hashes of its")
		fmt.Fprintln(stderr, "manifest. Leaves identical snapshots alone, replaces the draft, and refuses to")
		fmt.Fprintln(stderr, "overwrite any other snapshot that differs; writes nothing unless all can be")
		fmt.Fprintln(stderr, "imported. Then run go generate ./... for their packages and dispatcher.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return exitForParse(err)
	}
	if *from == "" {
		return misuse(stderr, fs, "ahpgen import", "-from is required (an upstream checkout)")
	}
	if p := argsProblem(fs); p != "" {
		return misuse(stderr, fs, "ahpgen import", p)
	}
	var keys []string
	if *snapshot != "" {
		keys = strings.Split(*snapshot, ",")
	}
	done, err := release.Import(*from, *schemas, keys)
	if err != nil {
		fmt.Fprintln(stderr, "ahpgen import:", err)
		return 1
	}
	changed := false
	for _, im := range done {
		fmt.Fprintf(stdout, "%s %s → %s (%d files)\n", im.Action, im.From, im.To, im.Files)
		changed = changed || im.Action != "unchanged"
	}
	if changed {
		fmt.Fprintln(stdout, "next: go generate ./... (a package per snapshot; the dispatcher routes every version)")
	}
	return 0
}
