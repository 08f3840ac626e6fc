// Package search runs queries over many segments at once, local or remote,
// as if they were one index: Count, Docs, AppendDocs and Bitmap (within a
// filter and up to a limit, as reader.SearchOptions), and Top, the k best
// documents by BM25 with the statistics of the whole collection.
//
// # Ids
//
// A Searcher numbers the documents of its segments globally, in uint64 (a
// collection may hold more than 2^32 documents): segment i's local doc d
// (reader's uint32 id) is global doc Base(i) + d, where Base(i) is the sum
// of the document counts of the segments before it (the order given to New).
// Every id a Searcher takes or returns is global (SearchOptions.Filter and
// TopOptions.Filter are roaring64 bitmaps of global ids); Locate turns one
// back into a segment and its local id.
//
//	segments:   [ seg 0: docs 0..n0-1 ][ seg 1: docs 0..n1-1 ][ seg 2 ... ]
//	global ids:   0 .. n0-1              n0 .. n0+n1-1          n0+n1 ...
//
// These are the ids of the segment writer/merge makes of the same segments in
// the same order (without deletions).
//
// # Queries and fields
//
// One reader.Query, built once, runs on every segment. A term, phrase or
// prefix of a field a segment does not have matches nothing in that segment
// (reader.SearchOptions.SkipMissingFields), as it would in the merged
// segment; a field of no segment matches nothing at all.
//
// A prefix's expansion bound (reader.Prefix, reader.PhrasePrefix, reader.Fuzzy) applies per
// segment: each expands its own first terms, so a bounded prefix may match
// more over many segments than over one segment holding them all.
//
// # Ranked search
//
// Top sums the segments' statistics of the query (reader.Segment.Stats: the
// documents holding each scored field, its tokens, each term's document
// frequency), runs every segment's Top with the sums and merges the hits by
// score, ties by ascending global id. Those are the statistics of the merged
// segment, so the hits, their float32 scores and explanations are the ones
// Top gives on the merged segment, bit for bit.
//
// # Execution
//
// Every call runs the segments with at most Options.Parallel at a time; the
// first error (or the caller's context ending) cancels the rest, and the call
// returns only when every segment's work has stopped. A filter holding none
// of a segment's documents skips that segment.
package search
