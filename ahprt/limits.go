package ahprt

// Limits bound what a decoder accepts before it looks at the schema. Inputs
// beyond a limit are rejected with an [ErrLimit] error, never truncated. A
// zero or negative field takes its default: no field turns its bound off.
type Limits struct {
	// MaxBytes is the largest document, in bytes. Default 64 MiB.
	MaxBytes int64
	// MaxDepth is the deepest nesting of objects and arrays. Default 1000.
	MaxDepth int
	// MaxMembers is the most members of one object or items of one array.
	// Default 1 << 20.
	MaxMembers int
}

// Default limits. They are far above what AHP messages need and low enough
// that a hostile peer cannot exhaust memory or stack through one message.
const (
	DefaultMaxBytes   = 64 << 20
	DefaultMaxDepth   = 1000
	DefaultMaxMembers = 1 << 20
)

// WithDefaults returns l with each zero or negative field set to its
// default.
func (l Limits) WithDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxMembers <= 0 {
		l.MaxMembers = DefaultMaxMembers
	}
	return l
}
