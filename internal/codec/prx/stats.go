package prx

// Stats accumulates what a Source decoded. It is opt-in (Source.SetStats): with no
// Stats the decoder reads no clock. A failed decode adds nothing.
type Stats struct {
	Windows int64            // windows decoded (Decode and DecodeSelected calls)
	Frames  [NumCodecs]int64 // units read (their tf column parsed), by codec
	// Inflated is the ZSTD units inflated: Decode and DecodeSelected inflate
	// every ZSTD unit they read; a Cursor inflates a unit at its first
	// position read, so a verifier that needs only term frequencies (a
	// chain of pairs) reads a ZSTD unit without inflating it.
	Inflated int64
	// FrameBytes is the bytes of the window frames read: the multi-unit headers and
	// the unit frames that held a selected document (header, payload and CRC).
	FrameBytes int64
	// PlainBytes is the RAW positions payload bytes of the units read: as stored for
	// RAW units, as inflated for ZSTD units (those inflated). PFOR units add 0.
	PlainBytes int64
	TotalDocs  int64 // documents in the windows decoded
	// SelectedDocs is the documents returned: all of them for Decode, the selected
	// ones for DecodeSelected.
	SelectedDocs int64
	// TotalPositions is the positions in the units read.
	TotalPositions int64
	// Blocks is the 128-value position blocks decoded, and DecodedPositions the
	// values they held: a selective decode decodes only the blocks holding a
	// selected document's positions.
	Blocks            int64
	DecodedPositions  int64
	SelectedPositions int64 // positions returned (needed)
	// DecodeNanos is the wall time spent in Decode and DecodeSelected, and in
	// a Cursor parsing units (CRC checks included), inflating ZSTD units and
	// decoding or locating position blocks.
	DecodeNanos int64
	// CheckedBytes is the bytes whose CRC32C a Cursor computed: the units and
	// multi-unit headers it read, less those it trusted as verified before
	// (OpenAt). Decode and DecodeSelected check every CRC and do not count.
	CheckedBytes int64
}

// Add adds o to s.
func (s *Stats) Add(o *Stats) {
	s.Windows += o.Windows
	for i := range s.Frames {
		s.Frames[i] += o.Frames[i]
	}
	s.FrameBytes += o.FrameBytes
	s.PlainBytes += o.PlainBytes
	s.Inflated += o.Inflated
	s.TotalDocs += o.TotalDocs
	s.SelectedDocs += o.SelectedDocs
	s.TotalPositions += o.TotalPositions
	s.Blocks += o.Blocks
	s.DecodedPositions += o.DecodedPositions
	s.SelectedPositions += o.SelectedPositions
	s.DecodeNanos += o.DecodeNanos
	s.CheckedBytes += o.CheckedBytes
}

// decodeInfo is what one successful decode adds to the stats.
type decodeInfo struct {
	units        [NumCodecs]int
	frameLen     int // the whole window frame
	read         int // bytes of the headers and units read
	plain        int
	docs         int
	positions    int
	selDocs      int
	selPositions int
	blocks       int
	decoded      int
}

func (s *Stats) record(d *decodeInfo, nanos int64) {
	s.Windows++
	for c, n := range d.units {
		s.Frames[c] += int64(n)
	}
	s.Inflated += int64(d.units[CodecZstd])
	s.FrameBytes += int64(d.read)
	s.PlainBytes += int64(d.plain)
	s.TotalDocs += int64(d.docs)
	s.SelectedDocs += int64(d.selDocs)
	s.TotalPositions += int64(d.positions)
	s.Blocks += int64(d.blocks)
	s.DecodedPositions += int64(d.decoded)
	s.SelectedPositions += int64(d.selPositions)
	s.DecodeNanos += nanos
}
