package reader_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/errs"
)

// shapeOK fails t when err (nil or not) breaks the error contract (errShape).
func shapeOK(t testing.TB, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if why := errShape(err); why != "" {
		t.Fatalf("%s: %v: %s", what, err, why)
	}
}

// errShape returns why err breaks the error contract, or "" when it keeps it:
// it wraps exactly one kind, and its text names one ("snii: ..."); it holds at
// most one *snii.SegmentError, whose cause does not name its section again
// (each place named once), and which has the Term when the message quotes one.
func errShape(err error) string {
	if k := errs.Kinds(err); len(k) != 1 {
		return fmt.Sprintf("wraps %d kinds", len(k))
	}
	msg := err.Error()
	n := 0
	for _, k := range []error{snii.ErrCorrupt, snii.ErrVersion, snii.ErrInvalidArgument, snii.ErrLimit, snii.ErrNotFound, snii.ErrClosed} {
		n += strings.Count(msg, k.Error())
	}
	if n != 1 {
		return fmt.Sprintf("names %d kinds in its text", n)
	}
	var places []*snii.SegmentError
	var walk func(error)
	walk = func(e error) {
		for e != nil {
			if se, ok := e.(*snii.SegmentError); ok {
				places = append(places, se)
			}
			if m, ok := e.(interface{ Unwrap() []error }); ok {
				for _, c := range m.Unwrap() {
					walk(c)
				}
				return
			}
			e = errors.Unwrap(e)
		}
	}
	walk(err)
	if len(places) > 1 {
		return fmt.Sprintf("%d nested SegmentErrors", len(places))
	}
	if len(places) == 1 {
		se := places[0]
		if strings.Contains(msg, "term \"") && se.Term == "" {
			return "the SegmentError has no Term, the message names one"
		}
		if sec := strings.TrimRight(se.Section, "0123456789 "); sec != "" && se.Err != nil && strings.HasPrefix(se.Err.Error(), sec) {
			return fmt.Sprintf("names the section %q twice", sec)
		}
	}
	return ""
}
