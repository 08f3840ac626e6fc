package errs

//lint:file-ignore ST1012 the package name carries the "err": errs.Corrupt is snii.ErrCorrupt.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/snii-go/snii"
)

// The error kinds: the same values as the exported ones of package snii, so
// errors.Is works with either name.
var (
	Corrupt         = snii.ErrCorrupt
	Version         = snii.ErrVersion
	InvalidArgument = snii.ErrInvalidArgument
	Limit           = snii.ErrLimit
	NotFound        = snii.ErrNotFound
	Closed          = snii.ErrClosed
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

// Wrapf returns an error with a formatted context that wraps both kind and
// cause (cause may be nil): errors.Is finds the kind and whatever the cause wraps.
func Wrapf(kind, cause error, format string, args ...any) error {
	if cause == nil {
		return wrap(kind, format, args...)
	}
	return fmt.Errorf("%s: %w: %w", fmt.Sprintf(format, args...), cause, kind)
}

func wrap(kind error, format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), kind)
}

// Kinds returns the kinds err wraps (errors.Is), in the order of package
// snii's list. Every error the library returns has exactly one.
func Kinds(err error) []error {
	var out []error
	for _, k := range []error{Corrupt, Version, InvalidArgument, Limit, NotFound, Closed} {
		if errors.Is(err, k) {
			out = append(out, k)
		}
	}
	return out
}

// Text returns err's message without the kind it ends with, for an error
// recast as another kind: a stored setting that a check refuses as an invalid
// argument is damage (Corrupt), and its message must name one kind.
func Text(err error) string {
	msg := err.Error()
	for _, k := range Kinds(err) {
		msg = strings.TrimSuffix(msg, ": "+k.Error())
	}
	return msg
}

// Placed reports whether err carries a *snii.SegmentError: it names its
// segment and its place there, so a caller adds no segment, index or term of
// its own (a message names each place once).
func Placed(err error) bool {
	_, ok := errors.AsType[*snii.SegmentError](err)
	return ok
}
