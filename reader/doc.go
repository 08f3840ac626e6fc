// Package reader opens snii segments and answers queries over them: term,
// phrase, sloppy phrase, phrase prefix, prefix, fuzzy and And/Or/AndNot of these, as
// ascending doc ids ([]uint32 or a roaring bitmap) or a count, within a
// caller's filter bitmap and up to a limit (SearchOptions), plus postings
// iterators, term enumeration, the documents' stored records and a
// structural Verify.
//
// # What Open reads
//
// Open reads the 16-byte header, the 32-byte tail, the directory it points to,
// and each field's metadata group (stats, sections, codec policy and
// outcome, block directory and the sampled term index: the first term of every
// dict block). Nothing else is touched until a query needs it, so opening costs
// the same whatever the size of the posting and dict regions.
//
//	0        16                                                   dirOff        EOF-32     EOF
//	+--------+------------------------------------------------------+-------------+----------+
//	| header | field 0: posting | dict | META | field 1: ... | META | directory   | tail     |
//	+--------+------------------------------------------------------+-------------+----------+
//	  read                              read                 read      read          read
//
// On unix the file is memory-mapped (a "read" is slicing the mapping); with
// OpenReaderAt, or Options.NoMmap, bytes are fetched with ReadAt into buffers
// owned by the query.
//
// A ReaderAt returning fewer bytes than asked is an error wrapping
// io.ErrUnexpectedEOF (whatever error it gave), never data.
//
// # Stored records
//
// A segment of format 8 keeps, unless built with writer.Options.NoStore, each
// document's record (writer.Document.Record: the input line, the JSON line,
// or the fields as a JSON object) in a store of compressed blocks after the
// last field:
//
//	store blocks: block 0 | block 1 | ...        each: zstd frame (or plain) of
//	                                              n uvarint lengths | n records
//	store header: format | text field | counts | per block {docs, storedLen, plainLen, flags, crc}
//
// Open reads the store header (it is small: a few bytes per block of 16 KiB
// of records) and keeps the block index resident: the block of doc d is found
// by binary search over the first docs of the blocks. Record(id) decodes one
// block; Records(ids, fn) decodes each block at most once per call (a pooled
// zstd decoder, buffers charged to the DecodeBudget) and hands fn every
// record it holds, in the order of ids. Results of Docs are ascending, so
// their records read block after block holding one decoded block at a time
// (and, on a mapped segment, allocating nothing once the query context is
// warm; through a ReaderAt each call allocates its read buffer). A page of hits
// with the count of them all takes one search (SearchOptions.Total):
//
//	var total uint64
//	ids, _ := seg.Docs(ctx, q, &reader.SearchOptions{Limit: 20, Total: &total})
//	err := seg.Records(ctx, ids, func(id uint32, rec []byte) error { ...; return nil })
//
// Top fills Hit.Record with TopOptions.Records, in one such batch. On a remote
// segment every block a call needs is fetched in one round. Store reports the
// record format (how a record holds the fields: snii.RecordText, RecordJSON,
// RecordMixed), the counts and the bytes. Corrupt store bytes are
// snii.ErrCorrupt naming the block; a segment without a store answers
// snii.ErrNotFound.
//
// # Remote segments: read rounds
//
// When the ReaderAt given to OpenReaderAt is an objstore.ReaderAt (object
// storage: package objstore/s3), every read is a round trip, and what a query
// costs is its number of sequential rounds. The reader then hands each
// stage's byte ranges to Prefetch at once (one round of parallel, coalesced
// requests) and runs the stage reading what was fetched:
//
//	open:   [header + suffix: tail, directory, metadata]  (the store's Open: 1 round)
//	        [metadata groups the suffix missed]          (0 or 1 round)
//	query:  1. dict blocks of every term and prefix, a small pair section  (0 when cached)
//	        2. heads: slim doc windows, preludes (fetched by their size), the rarest phrase term's doc span
//	        3. doc windows holding candidates (phrases: the rarest slot, then all the others at once,
//	           with the head of the .prx frame of every window that can hold a candidate)
//	        4. .prx units: the multi-unit header and the units holding candidates
//
// Profile.Rounds, Requests and FetchedBytes count what the query fetched, and
// Segment.OpenCost what opening did; BytesRead counts the bytes the query
// decodes (dictionary blocks, preludes, doc windows, .prx headers and units),
// however much more its rounds fetched. A simple phrase on a remote segment
// uses the staged conjunction instead of the leapfrog (which reads window by
// window). A remote segment uses its pairs only when its pair section is at
// most 256 KiB (a lookup needs the whole section), or is read already. Many
// segments share one BlockCache and one Decoders (Options), so their decoded
// blocks and idle decoders stay within those bounds.
//
// # Term lookup
//
//	sampled index (resident)  --binary search-->  dict block i (CRC, zstd: pooled decoder)
//	  --anchor binary search + scan of <= 16 front-coded entries-->  entry {df, ttf, class, ...}
//
// Decoded dict blocks are kept in a small bounded cache shared by the
// segment's queries (Options.BlockCacheBytes; lookups are lock-free), or by
// every segment given the same Options.BlockCache.
//
// # Term patterns
//
// Regexp, Wildcard and the pattern positions of PatternPhrase expand to the
// terms of the field a pattern matches whole (Go's RE2 syntax). The terms
// are tested by a deterministic automaton built lazily from the pattern's
// regexp/syntax program (a state is a set of its instructions; at most
// 2048 states, past which Go's regexp takes over, as it does for a pattern
// with assertions such as \b); each term is read only past its common prefix
// with the previous term. The expansion seeks to the pattern's literal prefix
// (a pattern that is only a literal is one lookup), or, when every match
// starts with one of a few literal strings ("(get|set)x", "time[ds]?out",
// "[0-9]+ms"), to each in turn, and stops past each range; it skips a later
// dict block without decoding it when the longest common prefix of the
// block's first term and the next block's first term (a prefix of every term
// in the block) leaves the automaton no thread; and after a term whose prefix
// leaves no thread (or only a match: "?" after one character), it seeks past
// every term with that prefix. Each entry is visited at most once
// (Profile.DictTermsVisited), so an expansion is linear in the dictionary;
// the first maxExpansions matches in byte order are kept, as for a prefix.
// The expansions are then united like a prefix's.
//
// # Postings of a term
//
//	inline:   entry = [doc window (no CRC)][prx frame (inline form)]
//	slim:     posting region @Offset = [prx frame + CRC][doc window + CRC]
//	windowed: posting region @Offset = [frame 0][frame 1]...[frame n-1] [prelude][doc window 0]...[doc window n-1]
//	          prelude = window count | entry bytes | super-blocks of 64 windows
//	                    {lastDoc, entryOff, docOff, prxOff} | per window {lastDoc delta, docs, docLen, prxLen} | CRC
//
// A windowed term's prelude is read on its own (its length follows from its
// first two varints); doc windows and frames are then located by prefix sums.
//
// # Phrase execution
//
//  0. Pairs (pairs.go): when the field's pair section keeps the pair of a
//     two-term phrase, Count is its df, and Docs its list (no term, window or
//     position is read) or, for a complement-form pair, its terms' docs less
//     its exceptions (no position read). A longer phrase whose rarest term is
//     in 32 docs or more intersects the kept lists of its adjacent terms
//     first when the rarest holds at most 85% of the rarest term's docs; the
//     result, less the complement pairs' exceptions, filters the candidates
//     below. Complement pairs alone drop their exceptions (if any) from the
//     walk; a chain (every pair kept) proves a candidate whose inner terms
//     occur once (an inner double "b b" twice, when each position holds one
//     term: the built-in analyzers); a term next to a once-occurring term
//     across a pair that holds in every candidate is not read (impliedSlots).
//  1. Resolve the terms (any absent: no match). Repeated terms ("a a b")
//     share one slot; a phrase prefix's last slot is the set of its first
//     maxExpansions expansions in byte order, and so is each pattern
//     position of a PatternPhrase (at any position; such a phrase takes no
//     pair plan).
//  2. Conjunction in ascending df: the rarest slot's docs are the candidates;
//     every other term decodes only the doc windows whose [base, lastDoc]
//     holds a candidate (skipping windows by binary search in the prelude when
//     the candidates are sparse), and in a blocked window (format 4: windows
//     of more than 128 docs) only the 128-doc blocks that hold one when the
//     candidates are under a quarter of its docs; it matches candidates by
//     merging, or by galloping when the sizes differ 8× or more. A phrase of
//     single terms instead leapfrogs its terms doc by doc, each seek decoding
//     only the block that can hold its target; a chain plan over two terms
//     (a repeated term: "a b a") merges the two decoded blocks in one loop
//     from each common doc, proving a doc whose inner term occurs once
//     there without a call.
//  3. Positions are verified in stages, cheapest slots first. The two
//     cheapest slots' .prx windows that hold a candidate are fetched (byte
//     ranges sorted and coalesced into one read per range) and decoded
//     selectively (the candidates' ordinals in the window) with the
//     query's pooled .prx decode source (one zstd decoder and grow-only buffers per
//     query per segment, returned when the query ends); the candidates whose
//     positions in these slots cannot line up are dropped. Each further slot
//     is then decoded only for the survivors, and only in the windows holding
//     one, which skips whole windows (a zstd inflate each) and shortens the
//     walks in the others. A stage whose first 64 candidates mostly stand is
//     abandoned: the remaining slots are decoded for every candidate and
//     checked in one last stage.
//  4. Verification of a document, anchored on the slot with the fewest
//     positions in it: each of its positions p at phrase offset k proposes
//     the start p-k, and every other phrase position i (of the slots decoded
//     so far) must hold start+i (forward-only galloping cursors); the other
//     slots are checked in ascending occurrences, so the cheapest check
//     rejects first. A slot whose unit is a ZSTD unit not inflated yet
//     neither anchors nor is checked before the slots whose positions cost
//     no inflation (unless every slot is such), so a document they rule out
//     saves the inflation; in the leapfrog's tight case (every term as often
//     as the phrase holds it) such terms are read last.
//
// # Sloppy phrases
//
// A SloppyPhrase runs its conjunction like a phrase (the leapfrog, or the
// staged conjunction with a filter or on a remote segment) and then decides
// each candidate from its terms' cursors, reading positions only as far as
// needed: phrase offset i at document position p stands at p-i; every offset
// whose standing is below the greatest minus the slop moves forward (no match
// can use it), and once all stand within the slop of the greatest the
// document matches. The offsets of a repeated term take its positions in
// ascending order (a match can always be reordered so), which keeps them on
// distinct occurrences; that term's positions are read once into a list its
// offsets share, as far as the furthest needs.
//
// Top scores a sloppy phrase with Lucene 8's sloppy frequency: the matches
// are those Lucene's sloppy matcher enumerates (the least offset is advanced
// until it passes the next least, the match length being the spread between
// the least and the greatest; of two offsets of one term on one position the
// lesser moves on) and each adds 1/(1+length) in float32.
//
// # AndNot, filters and limits
//
// AndNot(include, exclude) evaluates include, then exclude with include's
// documents as its filter, so the excluded side only reads the doc windows
// and verifies the positions of documents include kept. A
// SearchOptions.Filter is the same kind of filter handed to the whole query
// (And passes its running result to each later child the same way); a filter
// that holds every document is dropped (the query runs as without one), and
// otherwise its ids below the document count are copied out in bulk once.
// SearchOptions.Limit cuts the ascending result; a phrase at the top stops
// verifying candidates once it has Limit matches.
//
// Prefix and fuzzy expansions (Prefix, Fuzzy, and the last slot of a phrase prefix) are united
// by sorting when few docs are involved and through a bitset of the segment's
// documents otherwise. In a phrase, the expansions are collected against the
// candidates through a bitset of them when there are 256 or more (each
// expansion's doc one probe), and verified as one stream: its position is the
// smallest among the expansions the document holds, each read only as far as
// the match needs (no merge, no sort). Before the conjunction of such a phrase
// (exact, on a local segment) collects a slot in 64 times more documents than
// its 128 or more candidates, it verifies the slots collected so far at their
// phrase offsets and goes on from the candidates that pass (prestage.go):
// "the required att*" decodes "the" only around the candidates that hold
// "required att*", not around every one that holds both.
//
// A warmed query allocates nothing per window and a bounded number of objects
// per query (the result slice of Docs, or none for Count).
//
// # Ranked search
//
// Top returns the k best documents by BM25, Lucene 8's BM25Similarity to the
// float32 operation (so its scores equal Lucene 8.8's for the same
// statistics): a term or phrase scores idf · f / (f + k1 · (1 − b + b · dl /
// avgdl)), where dl comes from the field's norms, a byte per document read
// and CRC-checked at the first ranked query (FieldLengths), and N, avgdl and
// df from the segment's metadata and dictionary. A phrase's f is the number
// of positions where it starts and its idf the sum of its terms'; And and Or
// add their matching parts in float64 and round once; prefixes score 1.
//
// Statistics are per segment by default, so the same document scores
// differently in two segments of different contents. TopOptions.Stats
// (CollectionStats) takes collection-wide N, sumTTF and df instead:
// Segment.Stats gives one segment's statistics of a query, Stats.Add sums
// them, and search.Searcher.Top passes the sum to every segment's Top, then
// merges the per-segment hits by score (ties by global doc id), which ranks
// as one segment merged from them would, bit for bit.
//
// TopOptions.Filter ranks within a set of documents: each term's scorer
// advances straight to the next allowed document, so the windows and 128-doc
// blocks between allowed documents are never decoded, and phrases, prefixes
// and exclusions are evaluated within the filter.
//
// Execution: a scorer per query node walks doc ids window by window; a term
// reads its frequency from the .prx window's tf column (no position decoded),
// a phrase takes its documents from the phrase engine and counts its
// occurrences from the positions of those documents only. A top-level Or runs
// MaxScore window by window (a window ends where the nearest block or window
// of a clause ends): its clauses sorted by their bounds over the window, the
// prefix whose bounds add up to no more than the current k-th score only
// scores documents the others bring, and a window where all of them add up to
// no more is passed without decoding; a query whose bound cannot beat the k-th
// score stops. Block-max: each window of a windowed term records its largest
// frequency and its smallest norm (the prelude's impact bounds), and each
// 128-doc block of a blocked window its impacts (up to 4 (tf, norm) pairs no
// other pair of the block beats), which bound its documents' scores. A lone
// term of several windows visits its windows best bound first (so the windows
// likely to hold the best documents raise the k-th score before the others are
// looked at) and stops at the first window whose bound cannot beat the k-th
// score; inside a window it decodes only the blocks whose impacts can, and
// scores a block's documents only while they can (documents then come out of
// doc order: an equal score enters the top k when its doc is smaller). A
// term's overall bound is its best window's (a single-window term: its score
// at frequency ttf − df + 1 in the field's shortest document).
//
// A phrase's frequency in a document is at most each of its terms', so the
// phrase's terms are bounded at the phrase's idf: over a range, the least of
// its terms' block (or window) bounds bounds the phrase, and a range that
// cannot beat the k-th score is passed without a position read (a blocked
// window's directory is read for its impacts, no block decoded); in a range
// that can, a document is scored (its positions read) only when the score at
// its terms' least frequency can beat the k-th score. A sloppy phrase's
// document bound is its score at frequency 1 + Σ (tf − 1) over the phrase
// offsets (every match but the last follows an offset's advance and weighs
// at most 1), its range bound the same from its terms' largest frequencies
// and smallest norms there. An exact phrase that is the whole query and that the
// phrase engine walks by leapfrog is ranked as the leapfrog finds its
// candidates (qctx.rank): once k are collected, a candidate is verified only
// when its range's and its own bounds can beat the k-th score, and the
// leapfrog jumps past each range whose bound cannot, so those ranges' blocks
// are not decoded at all. Its own bound and its frequency come from the
// leapfrog's cursors (each candidate is decoded once): a term the phrase
// holds m times and the document tf times allows at most tf − m + 1 starts,
// so a match where some term occurs as often as in the phrase occurs once
// (no position read beyond the verification's); other matches are counted
// from their terms' positions. An exact phrase of distinct terms verified
// from a pair plan's candidate list (not by leapfrog) is ranked the same way
// as the verifier meets its candidates: a candidate's range bound is asked
// first, one the pairs prove (its inner terms occurring once) is scored at
// frequency 1, and once k are collected its own bound (its terms' least
// frequency) is read before any position.
//
// # Errors
//
// Errors wrap exactly one of the kinds of package snii (the module root), for
// errors.Is: unknown fields are snii.ErrNotFound (listing the fields), as is a
// segment whose analyzer is not registered (at Open); bad arguments
// snii.ErrInvalidArgument (Match of text without a searchable token too); use
// after Close snii.ErrClosed (Analyze and Match included); a newer format
// snii.ErrVersion; stored bytes failing a check snii.ErrCorrupt, and a file
// that is not a segment says so ("not a snii segment"). Every error
// about a segment is (or wraps) one *snii.SegmentError carrying the segment's
// name (Options.Name for OpenReaderAt), the section, the index, the term and
// the window ("prx window 7 of term \"user\" of index \"text\""). Nothing panics on damaged input, and no
// allocation is sized by an unchecked on-disk length.
package reader
