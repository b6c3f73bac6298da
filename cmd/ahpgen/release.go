package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ahpgen/ahpgen/internal/release"
)

// treeFlags adds -schemas (a schema root, the default "schemas") and
// -root (an upstream checkout) to fs; the returned function gives the
// tree to work on, or an error when both are set.
func treeFlags(fs *flag.FlagSet) func() (string, error) {
	schemas := fs.String("schemas", "schemas", "schema root: one folder per snapshot")
	root := fs.String("root", "", "an upstream AHP checkout (schema/<key>/, fixtures/<key>/, spec/<key>/, conformance/<key>/, legacy schemas/<key>/) instead of -schemas")
	return func() (string, error) {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if set["root"] && set["schemas"] {
			return "", fmt.Errorf("-root and -schemas name the same thing: give one")
		}
		if *root != "" {
			return *root, nil
		}
		return *schemas, nil
	}
}

func runPublish(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ahpgen publish", flag.ContinueOnError)
	fs.SetOutput(stderr)
	date := fs.String("date", "", "release date, YYYY-MM-DD (a real calendar date): the new snapshot's folder and wire version")
	tree := treeFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: ahpgen publish -date YYYY-MM-DD [-schemas DIR | -root TREE]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Freezes the draft into a dated release; refuses an existing date; stages the")
		fmt.Fprintln(stderr, "copy, checks it and moves it into place, leaving nothing behind on failure;")
		fmt.Fprintln(stderr, "never edits the draft.")
		fmt.Fprintln(stderr, "  -schemas: DIR/draft → DIR/YYYY-MM-DD: $ids move to the dated path, the")
		fmt.Fprintln(stderr, "  protocolVersion constant becomes the date, titles and comments name the")
		fmt.Fprintln(stderr, "  release, the manifest gets fresh hashes.")
		fmt.Fprintln(stderr, "  -root: as upstream's freeze tool does, <root>/draft → <root>/YYYY-MM-DD for")
		fmt.Fprintln(stderr, "  schema, fixtures, spec and conformance, byte for byte.")
		fmt.Fprintln(stderr, "Then run go generate ./... to get its package and dispatcher entry.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return exitForParse(err)
	}
	if *date == "" {
		return misuse(stderr, fs, "ahpgen publish", "-date is required (YYYY-MM-DD, the release's key)")
	}
	if p := argsProblem(fs); p != "" {
		return misuse(stderr, fs, "ahpgen publish", p)
	}
	dir, err := tree()
	if err != nil {
		return misuse(stderr, fs, "ahpgen publish", err.Error())
	}
	notes, err := release.Publish(dir, *date)
	if err != nil {
		fmt.Fprintln(stderr, "ahpgen", err)
		return 1
	}
	for _, n := range notes {
		fmt.Fprintln(stdout, "note:", n)
	}
	fmt.Fprintf(stdout, "published %s in %s\n", *date, dir)
	return 0
}

func runVerify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ahpgen verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tree := treeFlags(fs)
	update := fs.Bool("update-draft", false, "rewrite the draft's manifests from its files first")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: ahpgen verify [-schemas DIR | -root TREE] [-update-draft]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Checks every snapshot: folder key, manifests and wire version agree, and each")
		fmt.Fprintln(stderr, "file's sha256 is its manifest's (published snapshots never change). Reads the")
		fmt.Fprintln(stderr, "project's manifests and upstream's; on an upstream tree it checks fixtures,")
		fmt.Fprintln(stderr, "conformance and spec manifests too, as upstream's checker does.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return exitForParse(err)
	}
	if p := argsProblem(fs); p != "" {
		return misuse(stderr, fs, "ahpgen verify", p)
	}
	dir, err := tree()
	if err != nil {
		return misuse(stderr, fs, "ahpgen verify", err.Error())
	}
	if *update {
		if err := release.UpdateDraft(dir); err != nil {
			fmt.Fprintln(stderr, "ahpgen verify:", err)
			return 1
		}
	}
	problems, err := release.Verify(dir)
	if err != nil {
		fmt.Fprintln(stderr, "ahpgen verify:", err)
		return 1
	}
	for _, p := range problems {
		if p.Note {
			fmt.Fprintln(stdout, p)
		} else {
			fmt.Fprintln(stderr, p)
		}
	}
	if release.Failed(problems) {
		return 1
	}
	fmt.Fprintln(stdout, "ok")
	return 0
}

// exitForParse: -h is not an error; bad flags are usage errors.
// misuse says what is wrong with a command line (name is the command's,
// "ahpgen publish"), then prints the usage; it returns the exit status 2.
func misuse(stderr io.Writer, fs *flag.FlagSet, name, problem string) int {
	fmt.Fprintf(stderr, "%s: %s\n", name, problem)
	fs.Usage()
	return 2
}

// argsProblem is what is wrong with a command's arguments when it takes
// none, or "".
func argsProblem(fs *flag.FlagSet) string {
	if fs.NArg() > 0 {
		return fmt.Sprintf("unexpected argument %q", fs.Arg(0))
	}
	return ""
}

// parseFlags parses args with fs and refuses a flag given more than once:
// the flag package keeps the last value, so "-out a -out b" would drop
// the first unsaid. The problem goes to fs's output with the usage, as
// flag's own errors do; the error then exits 2 (exitForParse).
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	seen := map[string]bool{}
	flags := args[:len(args)-fs.NArg()]
	for i := 0; i < len(flags); i++ {
		if flags[i] == "--" {
			break
		}
		name := strings.TrimPrefix(strings.TrimPrefix(flags[i], "-"), "-")
		name, _, inline := strings.Cut(name, "=")
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if seen[name] {
			err := fmt.Errorf("-%s is given more than once: give each flag once", name)
			fmt.Fprintf(fs.Output(), "%s: %v\n", fs.Name(), err)
			fs.Usage()
			return err
		}
		seen[name] = true
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !inline && !(ok && b.IsBoolFlag()) {
			i++ // its value is the next argument
		}
	}
	return nil
}

func exitForParse(err error) int {
	if err == flag.ErrHelp {
		return 0
	}
	return 2
}
