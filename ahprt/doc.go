// Package ahprt is the runtime that programs using ahpgen's generated AHP
// packages see: the errors decoders return, the options and limits they
// take, and the value types generated structs hold.
//
//   - Decoders return *[Error] for every rejection, never a partial value.
//     errors.Is sorts it into one of four classes: [ErrMalformed] (not
//     JSON), [ErrLimit] (beyond a [Limits] bound), [ErrUnsupported]
//     (an event type, effect type or enum value this snapshot does not
//     know: unsupported semantics, not bad input) and [ErrInvalid]
//     (anything else the schema rejects). [Error.Pointer] and
//     [Error.Schema] say where.
//   - [Option] values tune one decode: [WithLimits] and [WithMode]
//     ([StrictAll] rejects members no schema declares, even in open
//     objects).
//   - [Value] holds JSON the schema leaves free, [Number] a number kept
//     exactly as written, [Unknown] the undeclared members of an open
//     object, written back on encoding so decode → encode loses nothing.
//
// What generated code calls and programs never should (the parsed
// document, the check context, encoder helpers) lives in package
// [github.com/ahpgen/ahpgen/ahprt/ahpimpl], which makes no compatibility
// promise.
package ahprt
