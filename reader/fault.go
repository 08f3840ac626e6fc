package reader

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/snii-go/snii/internal/errs"
)

// A mapped segment is read straight from the page cache. When the file is
// overwritten or truncated in place while it is mapped (cp over it, a
// truncating write), touching a page past the new end raises SIGBUS, which
// would kill the process. Every entry point that reads the mapping therefore
// runs with runtime/debug.SetPanicOnFault on its goroutine and turns such a
// fault into an error wrapping errs.Corrupt: Open (the header, tail,
// directory and metadata groups), Docs, AppendDocs, Bitmap, Count, Top (and
// its Explain), Verify, FieldLengths, Version, Terms, Postings and its Next,
// Advance and Positions, and TermIter's Next and Postings with their Next,
// Advance and Positions. An iterator that faults ends, and its Err returns
// the error.
// Bytes checked once (a CRC) and read again may also disagree after such a
// rewrite; a runtime error (an index out of range) raised then, while the
// file at the segment's path is no longer the one opened, is the same error.
// The answer of a query that read rewritten pages without faulting is
// undefined (but never a crash): segments must be replaced by rename, as the
// writer does, never rewritten in place.
//
// Not covered: bytes handed out that alias the mapping and are read by the
// caller after the call returns (TermIter.Term of a plain dict block, the
// norms of FieldLengths).

// faultGuard is deferred by an entry point of a mapped segment, with the
// previous SetPanicOnFault setting: it restores the setting and converts a
// memory fault into *err. x, when not nil, is the call's context: its decode
// source is dropped (it may have stopped mid-frame) instead of pooled.
func (s *Segment) faultGuard(err *error, x *qctx, old bool) {
	debug.SetPanicOnFault(old)
	if r := recover(); r != nil {
		*err = s.fault(r, x)
	}
}

// fault returns the error of a recovered memory fault r, or of a runtime
// error r raised while the mapped file was changed in place (bytes checked
// once and read again no longer agree); any other panic goes on. It drops
// x's decode source when x is not nil.
func (s *Segment) fault(r any, x *qctx) error {
	f, isFault := r.(interface{ Addr() uintptr })
	_, isRuntime := r.(runtime.Error)
	if !isFault && !(isRuntime && s.fileChanged()) {
		panic(r)
	}
	if x != nil {
		x.src = nil
	}
	if !isFault {
		return fmt.Errorf("segment %s: %v reading the mapped file: the file changed under the mapping "+
			"(was it overwritten or truncated in place? replace segments by rename): %w", s.name, r, errs.Corrupt)
	}
	return fmt.Errorf("segment %s: memory fault at %#x reading the mapped file: the file changed under the mapping "+
		"(was it overwritten or truncated in place? replace segments by rename): %w", s.name, f.Addr(), errs.Corrupt)
}

// fileChanged reports whether the mapped file is no longer the file that was
// opened: another file at its path, or the same one with another size or
// modification time.
func (s *Segment) fileChanged() bool {
	if s.stat == nil {
		return false
	}
	st, err := os.Stat(s.path)
	if err != nil {
		return true
	}
	return !os.SameFile(st, s.stat) || st.Size() != s.stat.Size() || !st.ModTime().Equal(s.stat.ModTime())
}

// faultGuard is Segment.faultGuard for a step of a Postings: a fault ends
// the iteration (*ok false) with the error in p.err.
func (p *Postings) faultGuard(ok *bool, old bool) {
	debug.SetPanicOnFault(old)
	if r := recover(); r != nil {
		p.err, p.done, *ok = p.s.fault(r, p.x), true, false
	}
}

// faultGuard is Segment.faultGuard for a step of a TermIter: a fault ends
// the iteration (*ok false) with the error in it.err.
func (it *TermIter) faultGuard(ok *bool, old bool) {
	debug.SetPanicOnFault(old)
	if r := recover(); r != nil {
		*ok = it.fail(it.s.fault(r, it.x))
	}
}

// guarding reports whether the entry points must guard against faults.
func (s *Segment) guarding() bool { return s.data != nil }

// enableFaults switches SetPanicOnFault on and returns the previous setting.
func enableFaults() bool { return debug.SetPanicOnFault(true) }
