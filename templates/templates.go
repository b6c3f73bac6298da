// Package templates holds the text ahpgen writes beside generated code:
// package documentation, the provenance (lock) file, and the generate.go
// stub that downstream repositories commit.
package templates

import (
	"embed"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

// All is every template, parsed once; execute them by file name.
var All = template.Must(template.New("").ParseFS(files, "*.tmpl"))
