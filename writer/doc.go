// Package writer builds snii segments: it streams documents into a complete,
// deterministic segment file with bounded memory.
//
//	w, err := writer.Create(ctx, "logs.snii", writer.DefaultOptions("text"))
//	id, err := w.Add(writer.Doc("text", "connection reset by peer")) // ids 0, 1, 2, …
//	err = w.Close() // temp file, fsync, rename, fsync dir; or w.Abort()
//
// # Pipeline
//
//	Add: checks, doc id, record → raw batch of values
//	       → analysis goroutine (one raw batch in flight; GOMAXPROCS > 1 and
//	         built-in analyzers, else Add analyzes) → analyzer → batch of
//	         tokens (bytes, position, hash)
//	       → inverter (a second goroutine, one batch in flight, documents in
//	         order) → per-field SPIMI term buffer (hash table + byte pool)
//	       └─ over MemoryLimit: every buffer is sorted and spilled as one run
//	     record (Document.Record, or the fields as JSON) → store block of
//	       16 KiB → zstd → spool (4 MiB in memory, then a temp file)
//	Close, per field in name order:
//	     k-way merge of the runs and the in-memory remainder (by term bytes;
//	     a term's postings are concatenated in run order)
//	       → window emitter (the PostingSource interface; compaction feeds the
//	         same emitter through BuildFromSources)
//	       → posting region (streamed) + dict blocks (spooled) + metadata
//	     then the store (the spooled blocks and their header), directory
//	     and tail.
//
// Each field's .prx encoder (and with it the field's codec budget) sees the
// windows in one canonical order — terms in byte order, windows ascending —
// whatever the memory limit, so the segment's bytes depend only on the
// documents and the options (not on MemoryLimit or TempDir).
//
// With GOMAXPROCS > 1 the build takes more goroutines, and none changes a
// byte. Add checks a document (unknown fields, the segment's and the
// record's limits), numbers it, stores its record and appends its values to
// a raw batch; the analysis goroutine analyzes the raw batches' documents in
// id order into batches of tokens, with analyzers of its own, while Add
// takes the next documents (a raw batch keeps the values' strings, not the
// caller's slices, which the caller may reuse once Add returns). This needs
// only built-in analyzers (with a registered analyzer Add analyzes every
// document itself). A built-in analyzer cannot take a document under 1 GiB
// (its values' bytes plus ValueGap a value) past an analysis limit (2^31
// tokens or 2^32 positions in a field, 4 GiB of a batch's terms); a larger
// document is analyzed by its own Add once every document before it is
// inverted, so a document over a limit is rejected by its own Add and the
// build goes on, as with GOMAXPROCS 1. The batches of tokens
// (min(160 KiB, MemoryLimit/128) each) are inverted on a goroutine of their
// own while the next batch is analyzed, document by document in id order,
// so the term buffers, the forward index and the spills are those of a
// serial build; the term buffers leave four batches their memory (two raw,
// two of tokens). From MemoryLimit 128 MiB each field's prx encoder
// compresses units on a second goroutine (prx.EncoderOptions.Parallel): the
// emitter reads each window of a windowed term ahead and prepares it
// (prx.Encoder.Prepare) while it encodes the window before, and the units of
// other multi-unit windows are shared from both ends. An error of the analysis
// goroutine or of the inversion fails the build and is returned by the next
// Add, or by Close; Stats waits for every document added.
//
// # Term buffer
//
// Per field, a term maps (open addressing over a uint64 table of
// hash<<32 | id+1) to a 48-byte state holding the term's first 8 bytes (all of a
// shorter term); longer terms' bytes and all postings live in 64 KiB
// pool blocks. A term's postings are a chain of slices (16 bytes, doubling
// to 32 KiB; the last 4 bytes of a slice address the next) holding one
// record per document:
//
//	uvarint docDelta | uvarint posCount | posCount × uvarint posDelta
//
// (docDelta is the doc id for the term's first record in the buffer; the first
// position is absolute). Pool blocks, state pages and hash tables hold no Go
// pointers and live in anonymous memory mappings outside the Go heap (on
// unix): the garbage collector neither scans them nor lets garbage grow to
// their size, so the process stays near MemoryLimit plus a small heap. Blocks
// freed by a spill go to a free list shared by all fields and are reused.
// The accounted memory (blocks and tables in use, per-document scratch) is
// compared with MemoryLimit after each document; a field holding any term
// uses at least 136 KiB (a pool block, a state page, the smallest table).
//
// # Run file (temp dir, ".snii-run-*"; removed on Close, Abort and error)
//
// All spills append to one file. Spill k writes one section per non-empty
// field; a section is a sequence of CRC-framed blocks carrying a record
// stream:
//
//	block:   u32 payloadLen (<= 32 KiB) | payload | u32 crc32c(payloadLen bytes | payload)
//	stream:  term record* | uvarint 0
//	record:  uvarint termLen+1 | term | uvarint df | df × posting record (as above)
//
// Section offsets stay in memory. The merge reads each section through a
// one-block buffer and verifies every block's CRC before using it.
//
// # Pair counting (pairfwd.go, paircount.go, pairrecs.go, pairs.go)
//
// With pairs on, Add also records a forward index per field: the term ids
// of each document's tokens by position (4 bytes a position; a document
// with several values ValueGap apart stores its ids and positions instead)
// and each term's token count. Its slots live in one anonymous mapping of
// the field's share of MemoryLimit/4, reserved up front and faulted in as
// used; when a document does not fit, the slots so far are appended to a
// temp file and the mapping is reused. It is dropped at the first spill of
// the term buffers (term ids restart), past MemoryLimit/4 over all fields
// (its per-document starts alone), or for a field whose analyzer gives two
// tokens one position.
//
// With a forward index the pairs are counted beside the emitter (a second
// goroutine): the tracked terms (df >= the minimum pair df) and their token
// counts come from the term buffer and the forward index; passes over the
// documents put each adjacent (a, b) into a bucket per first term a as a
// (b, doc) record (4 bytes when b and the doc fit 32 bits together, or when
// they do but for at most 4 high bits of the doc, which the bucket keeps by
// where each high part starts; else 8; room for a record per tracked token). When the buckets pass MemoryLimit/4
// the first terms are cut into ranges that fit, each filled by a pass of
// its own (at most 8; past that the records go to the record sorter below).
// A bucket is counting-sorted by b when its pairs are walked, only for the
// b with at least the minimum df of records; a term's docs, for the
// co-occurrence |A ∩ B| of a candidate pair, are read back from the term
// buffer, dense terms' as bitmaps made in one pass over the forward index.
// Without a forward index (spilled builds, merges) the emitter's source is
// tapped: it notes every tracked term and keeps the tracked terms' docs, their positions (4 bytes
// each) and per posting its position count; a counting sort on the doc
// turns the term-major tokens into per-document buckets; a position-indexed slot table finds each document's adjacent
// tokens and a small hash set its distinct pairs, which become 8-byte
// (pair, doc) records sorted by a stable radix sort of the pair key. Past
// an estimated MemoryLimit/2 (20 bytes per tracked token, 8 per posting)
// (those buffers sized once, in an anonymous mapping where lazyMap) the
// tokens move to an external sorter, and past MemoryLimit/4 of records
// the records too, each spilling sorted runs (and the doc lists go to a
// temp file): slower, the same pairs. An external sorter holds at most
// MemoryLimit/4, its records and radix scratch together, in one anonymous
// mapping where pages are taken only once touched (unmapped when the pairs
// are written or the build stops); its runs merge through 512-record blocks
// and 16 KiB read buffers. Without a forward index the field's term buffer
// is released as soon as its postings are emitted, before the pairs are
// counted (its free blocks' pages go back to the system).
//
// One walk over the pairs computes each eligible pair's co-occurrence
// (the docs of both terms, A ∩ B: bitmaps of dense terms, within
// MemoryLimit/16 beside the term buffer and MemoryLimit/4 once it is
// released, intersected word by word, a list tested against a bitmap,
// lists merged) and from it its exact gain (df·co) and cost, the smaller of
// its list entry and its complement entry (co, and the docs of A ∩ B
// without the pair), and keeps that entry (in memory up to MemoryLimit/64,
// then in a temp file); the selection walks a heap by gain/cost (the order
// and the kept pairs are those of the exact rule, docs/FORMAT.md, "Pair
// section"), and the kept pairs' entries are copied after the dict region. Builds, spilled builds and
// merges feed the emitter the same postings, so they write the same pairs.
//
// # Window emitter
//
// Per term, with df known before the first posting:
//
//	df < 512     one window of all postings → inline when doc window + frame
//	             (both without CRC) <= 256 bytes, else slim:
//	             [prx frame + CRC][doc window + CRC]
//	df >= 512    windowed, windows of 256 docs (1024 once df >= 8192):
//	             [frame 0][frame 1]…[prelude][doc window 0][doc window 1]…
//	split        a window prx refuses (ErrNeedsSplit) is halved at a doc
//	             boundary — first half ceil(n/2) docs — recursively; a df < 512
//	             term whose one window was split is windowed
//
// Frames are written as they are built; only the doc windows and window refs
// of the current term wait for its prelude (spooled to a temp file beyond
// 4 MiB). At most one window's positions are in memory.
//
// # Segment file
//
//	header (16) | per field (by name): posting region | dict region | metadata group |
//	directory | tail (32)
//
// The dict region of a field is written after its posting region, so its
// blocks are spooled (memory up to 8 MiB, then ".snii-spool-*" in the temp
// dir). Dict blocks are zstd-compressed at Options.ZstdLevel when strictly
// smaller. See docs/FORMAT.md for the byte layout of each part.
package writer
