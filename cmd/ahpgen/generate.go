package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"

	"github.com/ahpgen/ahpgen/internal/generate"
)

func runGenerate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ahpgen generate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	schemas := fs.String("schemas", "schemas", "schema root: one folder per snapshot (draft, YYYY-MM-DD, …)")
	out := fs.String("out", "gen", "output folder: receives one package folder per snapshot")
	importPath := fs.String("import", "", "Go import path of the output folder (default: derived from the enclosing go.mod); must be a valid import path")
	check := fs.Bool("check", false, "write nothing; exit 1, naming the files, if the output folder is not what generation would write")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: ahpgen generate [-schemas DIR] [-out DIR] [-import PATH] [-check]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Generates one Go package per snapshot folder of the schema root into the")
		fmt.Fprintln(stderr, "output folder (package names: see the README). Output is deterministic.")
		fmt.Fprintln(stderr, "It replaces only files it wrote (those with its generated header) and")
		fmt.Fprintln(stderr, "refuses an output folder whose packages would land among the schemas.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return exitForParse(err)
	}
	if p := argsProblem(fs); p != "" {
		return misuse(stderr, fs, "ahpgen generate", p)
	}
	files, err := generate.Run(generate.Config{Schemas: *schemas, Out: *out, ImportPath: *importPath})
	if err != nil {
		fmt.Fprintf(stderr, "ahpgen generate: %v\n", err)
		return 1
	}
	if *check {
		if bad := generate.Check(*out, files); len(bad) > 0 {
			fmt.Fprintf(stderr, "ahpgen generate -check: generated code in %s is not current; run go generate ./...\n", *out)
			for _, b := range bad {
				fmt.Fprintf(stderr, "  %s\n", b)
			}
			return 1
		}
		return 0
	}
	c, err := generate.Write(*out, files)
	gone := map[string]bool{}
	for _, dir := range c.Removed {
		gone[dir] = true
		fmt.Fprintf(stderr, "ahpgen generate: removed %s: no snapshot generates it any longer\n", filepath.Join(*out, filepath.FromSlash(dir)))
	}
	for _, dir := range c.Kept {
		gone[dir] = true
		fmt.Fprintf(stderr, "ahpgen generate: removed the generated files of %s, which no snapshot generates any longer; the files not generated stay\n", filepath.Join(*out, filepath.FromSlash(dir)))
	}
	for _, f := range c.Files {
		if !gone[path.Dir(f)] {
			// A file this version of ahpgen no longer writes, in a
			// package it still generates.
			fmt.Fprintf(stderr, "ahpgen generate: removed %s: no longer generated\n", filepath.Join(*out, filepath.FromSlash(f)))
		}
	}
	if len(c.Files) > 0 && os.Getenv("GOFILE") != "" {
		// go generate listed the packages' files before running this
		// directive, and goes on to read them for directives.
		fmt.Fprintln(stderr, "ahpgen generate: go generate may now fail to open a removed file; generation succeeded: run it again to confirm")
	}
	if err != nil {
		fmt.Fprintf(stderr, "ahpgen generate: %v\n", err)
		return 1
	}
	return 0
}
