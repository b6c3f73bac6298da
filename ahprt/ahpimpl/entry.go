package ahpimpl

import (
	"bytes"
	"errors"

	"github.com/ahpgen/ahpgen/ahprt"
)

// The bodies of the entry points of generated types (DecodeX, the
// Checker method X, UnmarshalJSON, Entry.Decode; Decoder.Decode, for a
// dispatcher, is in snapshot.go, MarshalJSON's body Marshal in encode.go),
// written once here: generated code passes its type's check, memo mask and
// builder (rootX, or a function literal).

// Check parses data and validates its document with check: the body of
// every Checker method (Check.X) and of Entry.Check. unrepeated is the
// type's Unrepeated mask.
func Check(data []byte, opts []ahprt.Option, unrepeated uint64, check CheckFunc) error {
	c, err := Begin(data, opts)
	if err != nil {
		return err
	}
	defer c.Release()
	return c.RunRoot(unrepeated, check)
}

// RunRoot validates the document's root with check, skipping the memo
// lookups that unrepeated names (see Unrepeated).
func (c *Ctx) RunRoot(unrepeated uint64, check CheckFunc) error {
	c.Unrepeated(unrepeated)
	return c.Run(check)
}

// DecodeFill parses data with opts, validates its root with check and,
// only if it is valid, calls fill, which builds the value from the root
// (node 0; a struct's it allocates first), then releases the context:
// the body of the DecodeX of a type that is no struct, whose fill is a
// function literal setting its named result:
//
//	err = ahpimpl.DecodeFill(data, opts, mask, vX, func(c *ahpimpl.Ctx) { v = X(c.Text(0)) })
//	return v, err
//
// It is not generic: the compiler compiles a copy of a generic function
// for every type argument of its own GC shape (every struct is one), with
// wrappers for the methods the shape promotes; gen/draft compiled 4 554
// functions with generic entry points, 3 757 without. The options do not
// escape (TestDecodeOptionsAllocate), and there is no defer (a fill that
// panics only leaves the context to the garbage collector instead of the
// pool).
func DecodeFill(data []byte, opts []ahprt.Option, unrepeated uint64, check CheckFunc, fill func(*Ctx)) error {
	c, err := rootChecked(data, opts, unrepeated, check)
	if err != nil {
		return err
	}
	fill(c)
	c.Release()
	return nil
}

// BuildFunc builds a value from the root (node 0) of a document its
// type's check accepted: the generated rootX, one per entry point, whose
// value is a pointer for a struct.
type BuildFunc func(c *Ctx) any

// DecodeRoot parses data with opts, validates its root with check and,
// only if it is valid, builds the value with build, then releases the
// context: the body of Entry.Decode, and of a struct's DecodeX, which
// shares its rootX with the Registry:
//
//	r, err := ahpimpl.DecodeRoot(data, opts, mask, vX, rootX)
//	v, _ = r.(*X)
//	return v, err
//
// A type that is no struct keeps DecodeFill: its rootX returns the value
// itself, which converting to any would allocate.
func DecodeRoot(data []byte, opts []ahprt.Option, unrepeated uint64, check CheckFunc, build BuildFunc) (any, error) {
	c, err := rootChecked(data, opts, unrepeated, check)
	if err != nil {
		return nil, err
	}
	v := build(c)
	c.Release()
	return v, nil
}

// UnmarshalFill is DecodeFill in lenient mode with the default limits:
// the body of every UnmarshalJSON, whose fill sets the value to zero and
// builds it. A rejected document leaves the value unchanged, and so does
// null where the type's schema rejects it: encoding/json hands null to
// the UnmarshalJSON of a field that is no pointer, and by its convention
// null there is a no-op, as for the types it decodes itself. A type that
// accepts null (a union with null) decodes it.
func UnmarshalFill(data []byte, unrepeated uint64, check CheckFunc, fill func(*Ctx)) error {
	err := DecodeFill(data, nil, unrepeated, check, fill)
	if err != nil && isNull(data) && errors.Is(err, ahprt.ErrInvalid) {
		return nil
	}
	return err
}

// isNull reports whether data is the JSON literal null, with whitespace
// around it or not.
func isNull(data []byte) bool {
	return string(bytes.Trim(data, " \t\r\n")) == "null"
}

// checkRoot returns err, Begin's, if there is one; otherwise it
// validates the root with check, and releases the context if that fails.
func (c *Ctx) checkRoot(err error, unrepeated uint64, check CheckFunc) error {
	if err != nil {
		return err
	}
	if err := c.RunRoot(unrepeated, check); err != nil {
		c.Release()
		return err
	}
	return nil
}

// rootChecked parses data with opts and validates its root with check;
// the context it returns is the caller's to release.
func rootChecked(data []byte, opts []ahprt.Option, unrepeated uint64, check CheckFunc) (*Ctx, error) {
	c, err := Begin(data, opts)
	if err := c.checkRoot(err, unrepeated, check); err != nil {
		return nil, err
	}
	return c, nil
}
