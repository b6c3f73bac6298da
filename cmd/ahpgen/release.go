package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/ahpgen/ahpgen/internal/release"
)

func runPublish(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ahpgen publish", flag.ContinueOnError)
	fs.SetOutput(stderr)
	date := fs.String("date", "", "release date, YYYY-MM-DD (a real calendar date): the new snapshot's folder and wire version")
	schemas := fs.String("schemas", "schemas", "schema root holding the draft folder")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: ahpgen publish -date YYYY-MM-DD [-schemas DIR]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Freezes DIR/draft into DIR/YYYY-MM-DD: $ids move to the dated path, the")
		fmt.Fprintln(stderr, "protocolVersion constant becomes the date, titles and comments name the")
		fmt.Fprintln(stderr, "release, the manifest gets fresh hashes. Refuses an existing destination;")
		fmt.Fprintln(stderr, "stages the copy and moves it into place at once; never edits draft.")
		fmt.Fprintln(stderr, "Then run go generate ./... to get its package and dispatcher entry.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitForParse(err)
	}
	if *date == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	if err := release.Publish(*schemas, *date); err != nil {
		fmt.Fprintln(stderr, "ahpgen", err)
		return 1
	}
	fmt.Fprintf(stdout, "published %s/%s\n", *schemas, *date)
	return 0
}

func runVerify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ahpgen verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	schemas := fs.String("schemas", "schemas", "schema root")
	update := fs.Bool("update-draft", false, "rewrite the draft's manifest from its documents first")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: ahpgen verify [-schemas DIR] [-update-draft]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Checks every snapshot: folder key, manifest and wire version agree, and")
		fmt.Fprintln(stderr, "each document's sha256 is its manifest's (published snapshots never change).")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitForParse(err)
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	if *update {
		if err := release.UpdateDraft(*schemas); err != nil {
			fmt.Fprintln(stderr, "ahpgen verify:", err)
			return 1
		}
	}
	problems, err := release.Verify(*schemas)
	if err != nil {
		fmt.Fprintln(stderr, "ahpgen verify:", err)
		return 1
	}
	for _, p := range problems {
		fmt.Fprintln(stderr, p)
	}
	if len(problems) > 0 {
		return 1
	}
	fmt.Fprintln(stdout, "ok")
	return 0
}

// exitForParse: -h is not an error; bad flags are usage errors.
func exitForParse(err error) int {
	if err == flag.ErrHelp {
		return 0
	}
	return 2
}
