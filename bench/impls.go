package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/bench/gojsonschema"
	"github.com/ahpgen/ahpgen/bench/twin"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Encoder is what every generated message type offers.
type Encoder interface {
	AppendJSON(b []byte) []byte
	MarshalJSON() ([]byte, error)
}

// Codec is one kind's entry points in every implementation.
type Codec struct {
	// Decode is the ahpgen generated decoder (DecodeInterceptRequest, …).
	Decode func(data []byte, opts ...ahprt.Option) (Encoder, error)
	// Check is the generated validator alone (CheckInterceptRequest, …):
	// Decode without building the value, to split a decode's cost.
	Check func(data []byte, opts ...ahprt.Option) error
	// Twin returns a new method-free twin value for encoding/json.
	Twin func() any
	// GoJSONSchema returns a new value of the go-jsonschema generated type.
	GoJSONSchema func() any
	// GoJSONSchemaType names that type, and what it covers.
	GoJSONSchemaType string
}

func wrap[T any, P interface {
	*T
	Encoder
}](f func([]byte, ...ahprt.Option) (*T, error)) func([]byte, ...ahprt.Option) (Encoder, error) {
	return func(data []byte, opts ...ahprt.Option) (Encoder, error) {
		v, err := f(data, opts...)
		if err != nil {
			return nil, err
		}
		return P(v), nil
	}
}

// Codecs maps kind names to their entry points.
var Codecs = map[string]Codec{
	"intercept-request": {
		Decode:           wrap(draft.DecodeInterceptRequest),
		Check:            draft.Check.InterceptRequest,
		Twin:             func() any { return new(twin.InterceptRequest) },
		GoJSONSchema:     func() any { return new(gojsonschema.Request) },
		GoJSONSchemaType: "Request (envelope only: params is map[string]interface{})",
	},
	"intercept-response": {
		Decode:           wrap(draft.DecodeInterceptResponse),
		Check:            draft.Check.InterceptResponse,
		Twin:             func() any { return new(twin.InterceptResponse) },
		GoJSONSchema:     func() any { return new(gojsonschema.SuccessResponse) },
		GoJSONSchemaType: "SuccessResponse (envelope only: result is map[string]interface{})",
	},
	"observe-notification": {
		Decode:           wrap(draft.DecodeObserveNotification),
		Check:            draft.Check.ObserveNotification,
		Twin:             func() any { return new(twin.ObserveNotification) },
		GoJSONSchema:     func() any { return new(gojsonschema.Notification) },
		GoJSONSchemaType: "Notification (envelope only: params is map[string]interface{})",
	},
	"capabilities-response": {
		Decode:           wrap(draft.DecodeCapabilitiesResponse),
		Check:            draft.Check.CapabilitiesResponse,
		Twin:             func() any { return new(twin.CapabilitiesResponse) },
		GoJSONSchema:     func() any { return new(gojsonschema.SuccessResponse) },
		GoJSONSchemaType: "SuccessResponse (envelope only: result is map[string]interface{})",
	},
	"registration": {
		Decode:           wrap(draft.DecodeRegistration),
		Check:            draft.Check.Registration,
		Twin:             func() any { return new(twin.Registration) },
		GoJSONSchema:     func() any { return new(gojsonschema.RegistrationSchemaJson) },
		GoJSONSchemaType: "RegistrationSchemaJson (the whole schema, as far as go-jsonschema goes)",
	},
}

func init() { Codecs[LargeKind] = Codecs["intercept-request"] }

// Strict is the option of the strict ahpgen case.
var Strict = ahprt.WithMode(ahprt.StrictAll)

// SchemaURL is the $id of an upstream draft schema file.
func SchemaURL(file string) string {
	return "https://agenthooksprotocol.org/schemas/draft/" + file
}

// Santhosh compiles the upstream draft schemas with
// santhosh-tekuri/jsonschema/v6, formats asserted (AHP asserts uri and
// date-time), offline: every file is added as a resource under its $id.
func Santhosh(root string, files ...string) (map[string]*jsonschema.Schema, error) {
	srcs, err := SchemaFiles(root)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.DefaultDraft(jsonschema.Draft2020)
	for name, b := range srcs {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if err := c.AddResource(SchemaURL(name), doc); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	out := map[string]*jsonschema.Schema{}
	for _, f := range files {
		s, err := c.Compile(SchemaURL(f))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out[f] = s
	}
	return out, nil
}

// SanthoshDecode is the generic-validator path: parse to any, validate,
// then decode with encoding/json into the twin struct.
func SanthoshDecode(s *jsonschema.Schema, data []byte, v any) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	if err := s.Validate(inst); err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// Step returns what one message of c costs at one step of a decode, for
// the cases and tools that time the steps apart: "decode" (DecodeX),
// "check" (CheckX: parse and validate, no value built), "parse" (ahprt's
// parse step alone, on a pooled context as the decoders run it) or "scan"
// (the floor, a Scanner of its own). Another step gives nil.
func Step(c Codec, step string, opts ...ahprt.Option) func(data []byte) error {
	switch step {
	case "decode":
		return func(d []byte) error { _, err := c.Decode(d, opts...); return err }
	case "check":
		return func(d []byte) error { return c.Check(d, opts...) }
	case "parse":
		return func(d []byte) error {
			ctx, err := ahpimpl.Begin(d, opts)
			if err == nil {
				ctx.Release()
			}
			return err
		}
	case "scan":
		return (&Scanner{}).Scan
	}
	return nil
}

// Scanner is the floor: a bare jsontext token scan (SkipValue) of the bytes,
// with jsontext's default checks (UTF-8, duplicate names), reusing one
// decoder so the steady state allocates nothing.
type Scanner struct {
	buf bytes.Buffer
	dec *jsontext.Decoder
}

// Scan checks that data is exactly one JSON value.
func (s *Scanner) Scan(data []byte) error {
	s.buf = *bytes.NewBuffer(data)
	if s.dec == nil {
		s.dec = jsontext.NewDecoder(&s.buf)
	} else {
		s.dec.Reset(&s.buf)
	}
	if err := s.dec.SkipValue(); err != nil {
		return err
	}
	if _, err := s.dec.ReadToken(); err != io.EOF {
		return fmt.Errorf("trailing data: %v", err)
	}
	return nil
}

// Short abbreviates an error for test logs.
func Short(err error) string {
	s := err.Error()
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}
