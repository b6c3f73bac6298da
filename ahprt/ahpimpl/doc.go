// Package ahpimpl is the part of ahpgen's runtime that only generated code
// and ahpgen's own kits call: the parsed document ([Doc], [Node]), the
// decode context ([Ctx]) with its checks and failure recording, encoder
// helpers, compiled patterns ([DFA]) and the snapshot description
// ([Snapshot]) that the dispatcher and the kits route by.
//
// It makes no compatibility promise: it changes whenever the generator
// needs it to. Generated packages check at compile time that this package
// runs code of their version (see [GenVersion]). Programs use package
// [github.com/ahpgen/ahpgen/ahprt] and the generated packages instead.
package ahpimpl
