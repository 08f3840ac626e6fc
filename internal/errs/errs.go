package errs

//lint:file-ignore ST1012 the package name carries the "err": errs.Corrupt is re-exported as index.ErrCorrupt and prx.ErrCorrupt.

import (
	"errors"
	"fmt"
)

// The error kinds. Every error snii returns wraps exactly one of them.
var (
	// Corrupt: stored bytes fail a check (CRC, bounds, counts, trailing bytes).
	Corrupt = errors.New("snii: corrupt data")
	// Version: the data was written by a newer, unsupported format version.
	Version = errors.New("snii: unsupported format version")
	// InvalidArgument: the caller passed something the API does not accept.
	InvalidArgument = errors.New("snii: invalid argument")
	// Limit: a configured or hard limit was exceeded.
	Limit = errors.New("snii: limit exceeded")
	// NotFound: a named thing (field, index, term) does not exist.
	NotFound = errors.New("snii: not found")
	// Closed: the object was used after Close.
	Closed = errors.New("snii: use after close")
)

// Corruptf returns an error of kind Corrupt with a formatted context.
func Corruptf(format string, args ...any) error { return wrap(Corrupt, format, args...) }

// Invalidf returns an error of kind InvalidArgument with a formatted context.
func Invalidf(format string, args ...any) error { return wrap(InvalidArgument, format, args...) }

// Limitf returns an error of kind Limit with a formatted context.
func Limitf(format string, args ...any) error { return wrap(Limit, format, args...) }

// Versionf returns an error of kind Version with a formatted context.
func Versionf(format string, args ...any) error { return wrap(Version, format, args...) }

// NotFoundf returns an error of kind NotFound with a formatted context.
func NotFoundf(format string, args ...any) error { return wrap(NotFound, format, args...) }

func wrap(kind error, format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), kind)
}
