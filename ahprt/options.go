package ahprt

// Mode selects how decoders treat members that no schema declares.
type Mode uint8

const (
	// Lenient, the default, follows the schema: open objects ignore unknown
	// members (decoders keep them for re-encoding), closed objects reject them.
	Lenient Mode = iota
	// StrictAll also rejects unknown members of open objects that declare
	// their members: useful to test that a sender writes nothing unexpected.
	// Free-form slots (schemas that declare no members) stay free.
	StrictAll
)

// Options are the settings of one decode. Programs set them through
// [Option] values (WithLimits, WithMode); decoders read them.
type Options struct {
	Limits Limits
	Mode   Mode
}

// Option configures a decoder.
type Option func(*Options)

// WithLimits sets the decoder limits; zero or negative fields keep their
// defaults.
func WithLimits(l Limits) Option { return func(o *Options) { o.Limits = l } }

// WithMode sets how unknown members are treated.
func WithMode(m Mode) Option { return func(o *Options) { o.Mode = m } }
