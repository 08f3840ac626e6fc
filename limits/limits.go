package limits

import "github.com/snii-go/snii/internal/errs"

// Default (and maximum) window limits. A Limits field may be configured lower, never higher.
const (
	// DefaultMaxDocs is the most documents one window may hold (2^24).
	DefaultMaxDocs = 1 << 24
	// DefaultMaxPositions is the most positions one window may hold (2^26).
	DefaultMaxPositions = 1 << 26
	// DefaultMaxBytes is the largest plain payload (and the largest declared frame
	// length) of one window: 256 MiB.
	DefaultMaxBytes = 256 << 20
)

// Limits bound one .prx window. The writer splits a window over a limit at document
// boundaries; a reader rejects a frame over its limits as corrupt before allocating.
// A zero field means the default; a field above its default (or negative) is invalid.
type Limits struct {
	MaxDocs      int // documents per window (default and maximum 2^24)
	MaxPositions int // positions per window (default and maximum 2^26)
	MaxBytes     int // plain payload bytes, and any declared frame length (default and maximum 256 MiB)
}

// Normalize returns l with every zero field replaced by its default.
func (l Limits) Normalize() Limits {
	if l.MaxDocs == 0 {
		l.MaxDocs = DefaultMaxDocs
	}
	if l.MaxPositions == 0 {
		l.MaxPositions = DefaultMaxPositions
	}
	if l.MaxBytes == 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	return l
}

// Validate reports an error wrapping snii.ErrInvalidArgument when a field is negative or
// above its default. Zero fields are valid (they mean the default).
func (l Limits) Validate() error {
	check := func(name string, v, max int) error {
		if v < 0 || v > max {
			return errs.Invalidf("limits: %s = %d (want 0 for the default, or 1..%d)", name, v, max)
		}
		return nil
	}
	if err := check("MaxDocs", l.MaxDocs, DefaultMaxDocs); err != nil {
		return err
	}
	if err := check("MaxPositions", l.MaxPositions, DefaultMaxPositions); err != nil {
		return err
	}
	return check("MaxBytes", l.MaxBytes, DefaultMaxBytes)
}
