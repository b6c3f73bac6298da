// Command ahpgen generates Go packages from Agent Hooks Protocol schema
// snapshots. Run "ahpgen help" for its commands.
package main

import (
	"fmt"
	"io"
	"os"
)

// command is one subcommand: its name, one-line summary and entry point.
type command struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) int
}

// validateCommand is set by validate.go, which the bootstrap build (what
// generate.go runs, with -tags ahpgen_bootstrap) leaves out: validate
// imports the generated packages, and regenerating must never need gen/
// to compile.
var validateCommand *command

func commands() []command {
	cs := []command{
		{"generate", "generate one Go package per schema snapshot (or check they are current)", runGenerate},
		{"publish", "freeze the draft snapshot into a dated release", runPublish},
		{"verify", "check that published snapshots are intact and manifests agree", runVerify},
		{"import", "bring snapshots of an upstream checkout into the schema root", runImport},
		{"init", "write the generate.go stub of a downstream repository", runInit},
		{"version", "print the ahpgen version", runVersion},
		{"help", "show this help", runHelp},
	}
	if validateCommand != nil {
		cs = append(cs[:4:4], append([]command{*validateCommand}, cs[4:]...)...)
	}
	return cs
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "ahpgen: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "ahpgen generates Go packages from Agent Hooks Protocol schema snapshots.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: ahpgen <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "ahpgen <command> -h" for a command's flags.`)
}

// runHelp prints the commands, or with a command's name that command's
// flags (as "ahpgen <command> -h" does).
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stdout)
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] && c.name != "help" {
			return c.run([]string{"-h"}, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "ahpgen help: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}
