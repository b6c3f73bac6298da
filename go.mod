module github.com/ahpgen/ahpgen

go 1.26.0

require (
	github.com/dave/jennifer v1.7.1
	github.com/go-json-experiment/json v1.27.2
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/tools v0.52.0
)

require golang.org/x/text v0.14.0 // indirect
