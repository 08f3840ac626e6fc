// Package merge compacts snii segments: it merges open segments (or segment
// files) into one, dropping deleted documents, and re-encodes every posting
// through the writer's window emitter, so that a merge gives exactly the
// bytes of a build of the same documents:
//
//	st, err := merge.Merge(ctx, "all.snii", []merge.Source{
//		{Path: "day1.snii", Deleted: gone}, // gone: *roaring.Bitmap of day1's doc ids
//		{Path: "day2.snii"},
//	}, merge.Options{})
//
// # Why merge.Merge and not writer.Merge
//
// The house rule is that package writer and package reader never import
// each other, so that neither can depend on the other's internals. A merge reads its sources through
// reader and writes through writer, so it lives in this subpackage, which
// imports both; writer exposes what compaction needs (writer.PostingSource,
// writer.BuildFromSources, writer.MergeSources) and reader exposes a
// pull-style term iterator (reader.TermIter), and neither knows the other.
//
// # Doc ids
//
// Destination doc ids are the sources' documents concatenated in source
// order with the deleted ones removed and the order kept: source k's
// surviving doc d becomes base(k) + d − (deleted docs of source k below d),
// where base(k) is the number of surviving documents of the sources before k.
//
// # Data flow
//
//	per destination field (the union of the sources' fields, by name):
//	  source 0: TermIter ─ terms in byte order ─┐
//	  source 1: TermIter ───────────────────────┼─ writer.MergeSources (k-way by term bytes,
//	  ...                                       │  postings concatenated in source order)
//	  source k: TermIter ───────────────────────┘      │
//	                                                   ▼
//	  writer.BuildFromSources: window emitter → the .prx encoder with a fresh
//	  PrxZstdBudget for the field → posting region, dict blocks, metadata;
//	  then the store: the surviving records, read from the sources in
//	  batches (Segment.Records) and cut into blocks again; then directory,
//	  tail, fsync, atomic rename.
//
// The merged segment keeps records when every source keeps them (in one
// record format), none when no source does (format 7 and older segments
// keep none); sources of both kinds are an invalid-argument error unless
// Options.NoStore drops every record.
//
// Frames are never copied: every window is decoded from its source and
// encoded again, so the destination's windows and its budget see the
// canonical order of a build (terms in byte order, windows ascending), and
// the output depends only on the surviving documents and the options.
//
// A term of a source with deletes is read twice: a doc-id-only pass counts
// its surviving documents (the emitter needs df before the first posting;
// a few deletes against a long posting list are counted by skipping to each
// deleted id), then a second pass streams the survivors with their
// positions. A term all of whose documents are deleted is left out. No
// term's positions are ever held whole: at most one doc window and one .prx
// window per source, plus the emitter's window, are in memory.
//
// DocsWithField of a destination field is the sum over the sources of the
// surviving documents with at least one token in the field (what a build
// records). For a source without deletes that is its recorded value; when
// every document of the source has the field, it is the recorded value
// minus the deleted documents; otherwise the deleted documents are looked
// up (by skipping) in the postings of the field's terms until each is found
// or the terms run out.
//
// SkippedTokens of a destination field (tokens its analyzer skipped for
// being over max_token_bytes) is the sum of the sources' counts. The count is
// not kept per document, so a source with deletes passes on its whole count:
// after deletes it is an upper bound.
//
// # Memory
//
// A merge holds the writer's fixed buffers (counted as 16 MiB: its dict and
// doc-span spools and zstd encoder) plus, per source being read, a small
// read state (counted as 1 MiB, more than it holds: a decoded dict
// block, a doc window, a decoded .prx window, the decode source with its
// zstd decoder, 4 × 64 KiB of read-ahead). Sources given by path are opened only while they are read —
// one at a time during validation, then together for their pass — and read
// with pread through the read-ahead, not mapped, so their pages do not
// count against the process. Options.MemoryLimit caps the sources merged in
// one pass (the fan-in, (limit − 16 MiB) / 1 MiB, at least 2);
// with more sources the merge runs in passes: consecutive groups (deletes
// applied) are merged into intermediate segments in Options.TempDir, which
// are then merged. Intermediate segments hold the same postings, so the
// final bytes do not depend on the memory limit. The limit bounds the
// merge's live buffers, not the process's RSS: Go's collector lets the heap
// grow past the live bytes (GOGC), see docs/BENCHMARKS.md. A source with
// deletes also holds its delete set: 12 bytes per 64 of its documents and 4
// bytes per deleted id.
//
// # Options
//
// The codec policy, zstd level and window limits default to the sources'
// recorded values; when the sources (or their fields) disagree, Merge
// returns an error asking for an explicit value. A caller may change the
// policy, e.g. re-encode old segments with the budget: the output then
// equals a build with that policy.
//
// # Failures
//
// Everything that can be checked is checked before anything is written:
// format versions, the same field under different analyzers, deleted ids
// out of range, sources given twice, disagreeing options, too many
// documents. A failure later (a read error, corrupt source data, a write
// error, cancellation) leaves nothing at the destination and removes every
// temp file, intermediate segments included.
package merge
