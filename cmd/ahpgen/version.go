package main

import (
	"fmt"
	"io"

	"github.com/ahpgen/ahpgen/internal/generate"
)

func runVersion(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stdout, "ahpgen", generate.Version())
	return 0
}
