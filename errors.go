package snii

import (
	"errors"
	"strconv"
	"strings"
)

// The error kinds. Every error the library returns for one of these reasons
// wraps exactly one of them, so a caller tests the reason with errors.Is:
//
//	if errors.Is(err, snii.ErrCorrupt) { ... }
//
// They are the only kinds: every public package returns these values
// (wrapped, one per error), never kinds of its own. A query that does not
// parse or compile is ErrInvalidArgument. (Internal packages may signal each
// other with values of their own, such as the .prx encoder's request that the
// writer split a window; such a signal is handled inside the library and never
// returned by a public package.)
var (
	// ErrCorrupt: stored bytes fail a check (CRC, bounds, counts, trailing bytes).
	ErrCorrupt = errors.New("snii: corrupt data")
	// ErrVersion: the data was written by a newer, unsupported format version.
	ErrVersion = errors.New("snii: unsupported format version")
	// ErrInvalidArgument: the caller passed something the API does not accept
	// (bad options, a bad query, sources that disagree on a setting).
	ErrInvalidArgument = errors.New("snii: invalid argument")
	// ErrLimit: a configured or hard limit was exceeded (a document too large
	// for one .prx window, a capture record over its size bound).
	ErrLimit = errors.New("snii: limit exceeded")
	// ErrNotFound: a named thing does not exist: a field of a segment, or the
	// analyzer a segment was built with (not registered in this program).
	ErrNotFound = errors.New("snii: not found")
	// ErrClosed: a Segment, Writer, Postings or iterator was used after Close.
	ErrClosed = errors.New("snii: use after close")
)

// SegmentError is an error about a place in a segment. The reader returns it
// (wrapped or not) for every failure it can place, so that a caller who wants
// the detail can get it with errors.As:
//
//	var se *snii.SegmentError
//	if errors.As(err, &se) {
//		log.Printf("segment %s, index %q, term %q, window %d", se.Segment, se.Index, se.Term, se.Window)
//	}
//
// The kind is in Err's chain: errors.Is(err, snii.ErrCorrupt) works through it.
type SegmentError struct {
	// Segment is the file name given to reader.Open, or the name given with
	// reader.Options.Name (default "reader") for a segment opened from an io.ReaderAt.
	Segment string
	// Section names the part of the file: "header", "tail", "directory",
	// "metadata", "dict block 3", "prelude", "doc window", "prx window", ...
	// Empty when the error concerns the segment as a whole (use after Close).
	Section string
	// Index is the field concerned, "" if none.
	Index string
	// Term is the term concerned, "" if none (a term may be any bytes).
	Term string
	// Window is the number of the term's window concerned, -1 if none.
	Window int
	// Err is the cause; it wraps one of the kinds.
	Err error
}

func (e *SegmentError) Error() string {
	var b strings.Builder
	b.WriteString("segment ")
	b.WriteString(e.Segment)
	b.WriteString(": ")
	if e.Window >= 0 && e.Section != "" {
		b.WriteString(e.Section)
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(e.Window))
		if e.Term != "" || e.Index != "" {
			b.WriteString(" of")
		}
	} else if e.Section != "" {
		b.WriteString(e.Section)
		if e.Term != "" || e.Index != "" {
			b.WriteString(" of")
		}
	}
	if e.Term != "" {
		b.WriteString(" term ")
		b.WriteString(strconv.Quote(e.Term))
		if e.Index != "" {
			b.WriteString(" of")
		}
	}
	if e.Index != "" {
		b.WriteString(" index ")
		b.WriteString(strconv.Quote(e.Index))
	}
	if e.Section != "" || e.Term != "" || e.Index != "" {
		b.WriteString(": ")
	}
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	}
	return strings.TrimSuffix(b.String(), ": ")
}

// Unwrap returns the cause.
func (e *SegmentError) Unwrap() error { return e.Err }
