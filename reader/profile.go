package reader

import (
	"time"

	"github.com/snii-go/snii/internal/codec/prx"
)

// DecodeStats is what a query's .prx decoding counted: the windows decoded,
// their unit frames by codec, their bytes, documents and positions, and the
// time spent.
type DecodeStats struct {
	Windows int64 // windows decoded
	// Frames is the unit frames read (their tf column parsed), by codec:
	// index 0 RAW, 1 ZSTD, 2 PFOR (the codec numbers of docs/FORMAT.md).
	Frames [3]int64
	// Inflated is the ZSTD units inflated: a unit is inflated at its first
	// position read, so a verifier that needs only term frequencies (a chain
	// of pairs) reads a ZSTD unit without inflating it.
	Inflated int64
	// FrameBytes is the bytes of the window frames read: the multi-unit
	// headers and the unit frames that held a selected document (header,
	// payload and CRC).
	FrameBytes int64
	// PlainBytes is the RAW positions payload bytes of the units read: as
	// stored for RAW units, as inflated for ZSTD units (those inflated). PFOR
	// units add 0.
	PlainBytes int64
	// TotalDocs is the documents in the windows decoded (a selective RAW or
	// ZSTD decode stops after its last selected document).
	TotalDocs int64
	// SelectedDocs is the documents returned to the query.
	SelectedDocs int64
	// TotalPositions is the positions in the units read.
	TotalPositions int64
	// Blocks is the 128-value position blocks decoded, and DecodedPositions
	// the values they held: a selective decode decodes only the blocks
	// holding a selected document's positions.
	Blocks            int64
	DecodedPositions  int64
	SelectedPositions int64 // positions returned to the query
	// DecodeNanos is the wall time spent parsing units (CRC checks
	// included), inflating ZSTD units and decoding or locating position
	// blocks.
	DecodeNanos int64
	// CheckedBytes is the bytes whose CRC32C was computed while reading
	// units and multi-unit headers, less those trusted as verified before.
	CheckedBytes int64
}

// Profile is what one query did on one segment (SearchOptions.Profile). Counting
// costs a few clock reads per query and per decoded window; without a Profile
// nothing is timed.
type Profile struct {
	// DecodeStats is what the query's .prx decoding counted.
	DecodeStats
	// BytesRead is the bytes the query needed from the file (mapped bytes
	// touched, or bytes read through the ReaderAt; of a .prx frame on a
	// objstore.ReaderAt, its multi-unit header and the units holding the
	// query's candidates, however much of the frame was fetched), in
	// ReadRanges reads.
	BytesRead, ReadRanges int64
	// Rounds, Requests and FetchedBytes are what reading a segment opened on a
	// objstore.ReaderAt cost (zero otherwise): sequential round trips, requests
	// sent and bytes received (FetchedBytes against BytesRead: the bytes
	// fetched against the bytes needed).
	Rounds, Requests, FetchedBytes int64
	// DictBlocksRead is the dictionary blocks decoded (cache misses).
	DictBlocksRead int64
	// DictTermsVisited is the dictionary entries that prefix and pattern
	// expansions stepped over (each at most once per expansion): a work
	// counter that grows with the dictionary, never faster.
	DictTermsVisited int64
	// DocWindowsRead is the doc-id windows decoded; WindowsRead the .prx windows.
	DocWindowsRead, WindowsRead int64
	// DocsVisited is the doc ids stepped over while intersecting a term's doc
	// windows with the candidates: a work counter that grows with the docs
	// and candidates, never with their product.
	DocsVisited int64
	// DocBlocksRead is the 128-doc blocks decoded from blocked doc windows
	// (a seek in such a window decodes only the block that can hold its
	// target; DocWindowsRead counts the window once); DocsDecoded the doc ids
	// decoded, from whole windows and from blocks.
	DocBlocksRead, DocsDecoded int64
	// DocCheckedBytes is the doc-window bytes whose CRC32C the query
	// computed (CheckedBytes counts the .prx bytes). A mapped segment checks
	// each window and unit once: the queries after the first that read it
	// trust it (see docs/FORMAT.md, ".prx windows", "Reading").
	DocCheckedBytes int64
	// PairPlans is the phrases planned with the field's pairs: a two-term
	// phrase answered from its pair, or a longer one whose candidates are the
	// intersection of its kept pairs. For those, CandidatesBefore sums the
	// candidates the plain plan starts from (the rarest term's df; for a
	// two-term phrase only counted with a Profile) and CandidatesAfter those
	// the pairs leave. PairLookups counts pairs found, PairDocs the doc ids
	// decoded from pair lists. PairProved counts the candidates of a phrase
	// whose adjacent pairs are all kept that matched from term frequencies
	// alone (each inner term once in the document), with no position read.
	PairPlans, CandidatesBefore, CandidatesAfter, PairLookups, PairDocs, PairProved int64
	// VerifyTime is the time spent checking phrase candidates against their
	// positions, less the decoding within it (DecodeNanos), TotalTime the
	// whole query.
	VerifyTime, TotalTime time.Duration
}

// Add adds o to p (to sum the profiles of several queries).
func (p *Profile) Add(o *Profile) {
	(*prx.Stats)(&p.DecodeStats).Add((*prx.Stats)(&o.DecodeStats))
	p.BytesRead += o.BytesRead
	p.ReadRanges += o.ReadRanges
	p.Rounds += o.Rounds
	p.Requests += o.Requests
	p.FetchedBytes += o.FetchedBytes
	p.DictBlocksRead += o.DictBlocksRead
	p.DictTermsVisited += o.DictTermsVisited
	p.DocWindowsRead += o.DocWindowsRead
	p.WindowsRead += o.WindowsRead
	p.DocsVisited += o.DocsVisited
	p.DocBlocksRead += o.DocBlocksRead
	p.DocsDecoded += o.DocsDecoded
	p.DocCheckedBytes += o.DocCheckedBytes
	p.PairPlans += o.PairPlans
	p.CandidatesBefore += o.CandidatesBefore
	p.CandidatesAfter += o.CandidatesAfter
	p.PairLookups += o.PairLookups
	p.PairDocs += o.PairDocs
	p.PairProved += o.PairProved
	p.VerifyTime += o.VerifyTime
	p.TotalTime += o.TotalTime
}

// fill sets p from a query context's counters.
func (p *Profile) fill(x *qctx, total time.Duration) {
	st := &x.stats
	*p = Profile{
		DecodeStats:      DecodeStats(*st),
		BytesRead:        x.count.bytesRead,
		ReadRanges:       x.count.ranges,
		Rounds:           x.count.fetch.Rounds,
		Requests:         x.count.fetch.Requests,
		FetchedBytes:     x.count.fetch.Bytes,
		DictBlocksRead:   x.count.dictBlocks,
		DictTermsVisited: x.count.dictTerms,
		DocWindowsRead:   x.count.docWindows,
		WindowsRead:      x.count.prxWindows,
		DocsVisited:      x.count.docsVisited,
		DocBlocksRead:    x.count.docBlocks,
		DocsDecoded:      x.count.docsDecoded,
		DocCheckedBytes:  x.count.docCheckedBytes,
		PairPlans:        x.count.pairPlans,
		CandidatesBefore: x.count.pairBefore,
		CandidatesAfter:  x.count.pairAfter,
		PairLookups:      x.count.pairLookups,
		PairDocs:         x.count.pairDocs,
		PairProved:       x.count.pairProved,
		VerifyTime:       x.count.verify,
		TotalTime:        total,
	}
}

// verifyStart starts timing a phrase verification (a profiled query): the
// clock and the decode time so far.
func (x *qctx) verifyStart() (time.Time, int64) { return time.Now(), x.stats.DecodeNanos }

// verifyEnd adds the time since verifyStart, less the decoding within it, to
// the verify time.
func (x *qctx) verifyEnd(t0 time.Time, d0 int64) {
	d := time.Since(t0) - time.Duration(x.stats.DecodeNanos-d0)
	x.count.verify += max(d, 0)
}
