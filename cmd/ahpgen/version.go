package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// version is the ahpgen module version this binary was built from
// ("(devel)" for a build from a checkout).
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	if info.Main.Path == "github.com/ahpgen/ahpgen" && info.Main.Version != "" {
		return info.Main.Version
	}
	for _, dep := range info.Deps {
		if dep.Path == "github.com/ahpgen/ahpgen" {
			return dep.Version
		}
	}
	return "(devel)"
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stdout, "ahpgen", version())
	return 0
}
