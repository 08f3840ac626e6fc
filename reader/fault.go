package reader

import (
	"fmt"
	"runtime/debug"

	"github.com/snii-go/snii/internal/errs"
)

// A mapped segment is read straight from the page cache. When the file is
// overwritten or truncated in place while it is mapped (cp over it, a
// truncating write), touching a page past the new end raises SIGBUS, which
// would kill the process. The query entry points of a mapped segment
// (Docs, Bitmap, Count, Verify, Windows) therefore run with
// runtime/debug.SetPanicOnFault on their goroutine and turn such a fault into
// an error wrapping errs.Corrupt. The answer of a query that read rewritten
// pages without faulting is undefined (but never a crash): segments must be
// replaced by rename, as the writer does, never rewritten in place.
//
// Not covered: TermPostings/Postings and TermIter, which the caller drives
// from its own goroutines after the call returns.

// faultGuard is deferred by a query entry point of a mapped segment, with the
// previous SetPanicOnFault setting: it restores the setting and converts a
// memory fault into *err. x, when not nil, is the query's context: its decode
// source is dropped (it may have stopped mid-frame) instead of pooled.
func (s *Segment) faultGuard(err *error, x *qctx, old bool) {
	debug.SetPanicOnFault(old)
	r := recover()
	if r == nil {
		return
	}
	f, ok := r.(interface{ Addr() uintptr })
	if !ok {
		panic(r)
	}
	if x != nil {
		x.src = nil
	}
	*err = fmt.Errorf("segment %s: memory fault at %#x reading the mapped file: the file changed under the mapping "+
		"(was it overwritten or truncated in place? replace segments by rename): %w", s.name, f.Addr(), errs.Corrupt)
}

// guarding reports whether the query entry points must guard against faults.
func (s *Segment) guarding() bool { return s.data != nil }

// enableFaults switches SetPanicOnFault on and returns the previous setting.
func enableFaults() bool { return debug.SetPanicOnFault(true) }
