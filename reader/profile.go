package reader

import (
	"time"

	"github.com/snii-go/snii/internal/codec/prx"
)

// Profile is what one query did on one segment (SearchOptions.Profile). Counting
// costs a few clock reads per query and per decoded window; without a Profile
// nothing is timed.
type Profile struct {
	// Stats is what the query's decode source counted: .prx frames decoded by
	// codec (Frames: index 0 RAW, 1 ZSTD, 2 PFOR, the codec numbers of
	// docs/FORMAT.md), their bytes (FrameBytes) and plain payload bytes parsed (PlainBytes: RAW payloads and inflated ZSTD payloads),
	// the docs and positions in the windows decoded (TotalDocs, TotalPositions; a
	// selective RAW/ZSTD decode stops after its last selected doc) and those
	// returned to the query (SelectedDocs, SelectedPositions), and the decode time
	// (DecodeNanos; see DecodeTime).
	prx.Stats
	// BytesRead is the bytes the query needed from the file (mapped bytes
	// touched, or bytes read through the ReaderAt; of a .prx frame on a
	// RemoteReaderAt, its multi-unit header and the units holding the
	// query's candidates, however much of the frame was fetched), in
	// ReadRanges reads.
	BytesRead, ReadRanges int64
	// Rounds, Requests and FetchedBytes are what reading a segment opened on a
	// RemoteReaderAt cost (zero otherwise): sequential round trips, requests
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
	// PairPlans is the phrases planned with the index's pairs: a two-term
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
	// positions, less the decoding within it (DecodeTime), TotalTime the
	// whole query.
	VerifyTime, TotalTime time.Duration
}

// DecodeTime is the time spent decoding .prx frames.
func (p *Profile) DecodeTime() time.Duration { return time.Duration(p.DecodeNanos) }

// Add adds o to p (to sum the profiles of several queries).
func (p *Profile) Add(o *Profile) {
	p.Stats.Add(&o.Stats)
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
		Stats:            *st,
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
