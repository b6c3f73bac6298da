module example.com/hookbackend

go 1.26.0

require github.com/ahpgen/ahpgen v0.0.0

require (
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/go-json-experiment/json v1.27.2 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	golang.org/x/text v0.14.0 // indirect
)

tool github.com/ahpgen/ahpgen/cmd/ahpgen

replace github.com/ahpgen/ahpgen => ../..
