// Package snii holds what every part of the snii library shares: the error
// kinds a caller tests with errors.Is, SegmentError, the typed error that
// places a failure in a segment (section, index, term, window) for errors.As,
// and RecordFormat, how a segment's stored records hold the field values.
//
// snii writes and reads immutable inverted-index segments for log and text
// search. The packages, in the order a new user meets them:
//
//   - writer: build a segment from documents (Create, Add, Close), or from
//     sorted posting sources (BuildFromSources).
//   - reader: open a segment (Open, from a path or an io.ReaderAt) and query
//     it: Segment.Match builds a term or phrase from raw text through the
//     field's analyzer; Term, Phrase, PhrasePrefix, SloppyPhrase, Prefix,
//     Fuzzy, Regexp, Wildcard, PatternPhrase and And/Or/AndNot take analyzed
//     tokens; Docs, Count, Bitmap, and Top ranks by BM25 (with an Explanation
//     per hit). Record and Records return the documents' stored records,
//     Highlights the byte ranges a query matched in one. Postings and term
//     iterators; Verify.
//   - query: the query language of the command line, parsed and compiled
//     against a segment's analyzers (Compile).
//   - search: many segments queried as one index, with global doc ids, and
//     ranked (Top) with statistics summed over them.
//   - grep: a regular expression over a segment's stored records, narrowed
//     first by the words and phrases every match must contain.
//   - writer/merge: merge segments into one, dropping deleted documents.
//   - objstore/s3: open segments stored in S3-compatible object storage, each
//     query stage one round of parallel ranged reads.
//   - objstore: the storage seam below the reader: the byte ranges a query
//     stage reads (Range), what remote reads cost (Cost) and the interface a
//     remote io.ReaderAt implements (ReaderAt).
//   - analysis: the analyzers that turn text into terms, and their registry
//     (Register a custom analyzer).
//   - budget: the .prx codec policy (Policy, whose zero value is the default)
//     and what it did (Outcome).
//   - limits: the bounds of one .prx positions window (Limits), set where a
//     segment is written (writer and merge options) and where it is read
//     (reader.Options, reader.NewDecoders).
//
// Example_trial (example_trial_test.go) is that order in one runnable
// program: build three segments, query each kind, rank, search the three as
// one and merge them.
//
// The .prx codec, the segment layout and the capture file of `snii capture`
// and `snii replay` are internal packages: the CLI is their entry point.
//
// Every error the library returns wraps exactly one of ErrCorrupt,
// ErrVersion, ErrInvalidArgument, ErrLimit, ErrNotFound or ErrClosed (or is an
// I/O error of the operating system or a context error, passed through with
// %w). Errors about a place in a segment carry one *SegmentError.
//
// The segment format is described in docs/FORMAT.md and the codec policy in
// docs/BUDGET.md of the repository.
package snii
