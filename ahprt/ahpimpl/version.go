package ahpimpl

// Generated code and this package change together: a generated package
// calls into this one in ways no compatibility promise covers, so each
// generated package states, at compile time, the version of that contract
// it was written for, as protobuf-go's protoimpl.EnforceVersion does:
//
//	const (
//		_ = ahpimpl.GeneratedCodeTooOld(N - ahpimpl.MinVersion)
//		_ = ahpimpl.RuntimeTooOld(ahpimpl.MaxVersion - N)
//	)
//
// A runtime that no longer runs code of version N makes the first line
// fail to compile ("constant -1 overflows ahpimpl.GeneratedCodeTooOld":
// run ahpgen generate again); generated code newer than the runtime makes
// the second fail ("... overflows ahpimpl.RuntimeTooOld": update the
// github.com/ahpgen/ahpgen module). Either way the build stops before a
// mismatched pair can run.
const (
	// GenVersion is the version of the code ahpgen generates now. It
	// changes whenever generated code starts to need something this
	// package did not provide before.
	GenVersion = 24
	// MinVersion is the oldest generated code this package still runs.
	// It rises when this package drops or changes something older
	// generated code calls.
	MinVersion = 24
	// MaxVersion is the newest generated code this package runs.
	MaxVersion = GenVersion
)

// GeneratedCodeTooOld is the type of the generated constant that stops
// the build when the generated code is older than MinVersion.
type GeneratedCodeTooOld uint

// RuntimeTooOld is the type of the generated constant that stops the
// build when the generated code is newer than MaxVersion.
type RuntimeTooOld uint
