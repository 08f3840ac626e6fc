package reader

import (
	"time"

	"github.com/snii-go/snii/prx"
)

// Profile is what one query did on one segment (SearchOptions.Profile). Counting
// costs a few clock reads per query and per decoded window; without a Profile
// nothing is timed.
type Profile struct {
	// Frames is the .prx frames decoded, by codec (index with prx.CodecRaw etc.).
	Frames [prx.NumCodecs]int64
	// FrameBytes is the bytes of the frames decoded; PlainBytes the plain payload
	// bytes parsed (RAW payloads and inflated ZSTD payloads).
	FrameBytes, PlainBytes int64
	// TotalDocs and TotalPositions are the docs and positions in the windows
	// decoded (a selective RAW/ZSTD decode stops after its last selected doc);
	// SelectedDocs and SelectedPositions are the ones returned to the query.
	TotalDocs, SelectedDocs, TotalPositions, SelectedPositions int64
	// BytesRead is the bytes fetched from the file (mapped bytes touched, or
	// bytes read through the ReaderAt), in ReadRanges reads.
	BytesRead, ReadRanges int64
	// DictBlocksRead is the dictionary blocks decoded (cache misses).
	DictBlocksRead int64
	// DocWindowsRead is the doc-id windows decoded; WindowsRead the .prx windows.
	DocWindowsRead, WindowsRead int64
	// DecodeTime is the time spent decoding .prx frames, VerifyTime checking
	// phrase positions, TotalTime the whole query.
	DecodeTime, VerifyTime, TotalTime time.Duration
}

// Add adds o to p (to sum the profiles of several queries).
func (p *Profile) Add(o *Profile) {
	for i := range p.Frames {
		p.Frames[i] += o.Frames[i]
	}
	p.FrameBytes += o.FrameBytes
	p.PlainBytes += o.PlainBytes
	p.TotalDocs += o.TotalDocs
	p.SelectedDocs += o.SelectedDocs
	p.TotalPositions += o.TotalPositions
	p.SelectedPositions += o.SelectedPositions
	p.BytesRead += o.BytesRead
	p.ReadRanges += o.ReadRanges
	p.DictBlocksRead += o.DictBlocksRead
	p.DocWindowsRead += o.DocWindowsRead
	p.WindowsRead += o.WindowsRead
	p.DecodeTime += o.DecodeTime
	p.VerifyTime += o.VerifyTime
	p.TotalTime += o.TotalTime
}

// fill sets p from a query context's counters.
func (p *Profile) fill(x *qctx, total time.Duration) {
	st := &x.stats
	*p = Profile{
		Frames:            st.Frames,
		FrameBytes:        st.FrameBytes,
		PlainBytes:        st.PlainBytes,
		TotalDocs:         st.TotalDocs,
		SelectedDocs:      st.SelectedDocs,
		TotalPositions:    st.TotalPositions,
		SelectedPositions: st.SelectedPositions,
		BytesRead:         x.count.bytesRead,
		ReadRanges:        x.count.ranges,
		DictBlocksRead:    x.count.dictBlocks,
		DocWindowsRead:    x.count.docWindows,
		WindowsRead:       x.count.prxWindows,
		DecodeTime:        time.Duration(st.DecodeNanos),
		VerifyTime:        x.count.verify,
		TotalTime:         total,
	}
}
