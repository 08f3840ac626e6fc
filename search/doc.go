// Package search runs queries over many segments at once, local or remote,
// as if they were one index.
//
// A Searcher numbers the documents of its segments globally: segment i's
// local doc d is global doc Base(i) + d, where Base(i) is the sum of the
// document counts of the segments before it (the order given to New). Count,
// Docs and Bitmap run the query on every segment with at most
// Options.Parallel segments at a time; the first error (or the caller's
// context ending) cancels the rest, and the call returns only when every
// segment's work has stopped.
//
// A prefix's expansion bound (reader.Prefix, reader.PhrasePrefix, reader.Fuzzy) applies per
// segment: each expands its own first terms, so a bounded prefix may match
// more over many segments than over one segment holding them all.
//
//	segments:   [ seg 0: docs 0..n0-1 ][ seg 1: docs 0..n1-1 ][ seg 2 ... ]
//	global ids:   0 .. n0-1              n0 .. n0+n1-1          n0+n1 ...
package search
