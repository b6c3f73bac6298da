module github.com/ahpgen/ahpgen/bench

go 1.26.0

require (
	github.com/ahpgen/ahpgen v0.0.0
	github.com/go-json-experiment/json v1.27.2
	github.com/go-viper/mapstructure/v2 v2.5.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
)

require (
	dario.cat/mergo v1.0.2 // indirect
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/atombender/go-jsonschema v0.24.1 // indirect
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/goccy/go-yaml v1.19.2 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/mitchellh/go-wordwrap v1.0.1 // indirect
	github.com/sanity-io/litter v1.5.8 // indirect
	github.com/sosodev/duration v1.4.0 // indirect
	github.com/spf13/cobra v1.10.2 // indirect
	github.com/spf13/pflag v1.0.10 // indirect
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da // indirect
	golang.org/x/text v0.42.0 // indirect
)

replace github.com/ahpgen/ahpgen => ../

tool (
	github.com/atombender/go-jsonschema
	golang.org/x/perf/cmd/benchstat
)
