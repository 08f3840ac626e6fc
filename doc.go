// Package snii holds what every part of the snii library shares: the error
// kinds a caller tests with errors.Is, and SegmentError, the typed error that
// places a failure in a segment (section, index, term, window) for errors.As.
//
// snii writes and reads immutable inverted-index segments for log and text
// search. The packages, in the order a new user meets them:
//
//   - writer: build a segment from documents (Create, Add, Close), or from
//     sorted posting sources (BuildFromSources).
//   - reader: open a segment (Open, from a path or an io.ReaderAt) and query
//     it: terms, phrases, prefixes, And/Or; postings and term iterators; Verify.
//   - writer/merge: merge segments into one, dropping deleted documents.
//   - index: the analyzers that turn text into terms, and their registry.
//   - budget: the .prx codec policy (Policy) and the per-index budget.
//   - prx/capture: the capture file of .prx windows that `snii capture` writes
//     and `snii replay` reads.
//
// Every error the library returns wraps one of ErrCorrupt, ErrVersion,
// ErrInvalidArgument, ErrLimit, ErrNotFound or ErrClosed (or is an I/O error
// of the operating system or a context error, passed through with %w).
//
// The segment format is described in docs/FORMAT.md and the codec policy in
// docs/BUDGET.md of the repository.
package snii
