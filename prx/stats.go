package prx

// Stats accumulates what a Source decoded. It is opt-in (Source.SetStats): with no
// Stats the decoder reads no clock. A failed decode adds nothing.
type Stats struct {
	Frames     [NumCodecs]int64 // frames decoded, by codec
	FrameBytes int64            // bytes of the frames decoded (header, payload and CRC)
	// PlainBytes is the plain payload bytes parsed: the payload of RAW frames and the
	// decompressed payload of ZSTD frames. PFOR frames carry no plain payload and add 0.
	PlainBytes int64
	TotalDocs  int64 // documents in the windows decoded
	// SelectedDocs is the documents returned: all of them for Decode, the selected
	// ones for DecodeSelected.
	SelectedDocs int64
	// TotalPositions is the positions in the windows decoded. A selective decode of a
	// RAW or ZSTD frame stops after the last selected document, so it counts only the
	// positions of the documents up to that one; full decodes and PFOR frames count all.
	TotalPositions    int64
	SelectedPositions int64 // positions returned
	DecodeNanos       int64 // wall time spent in Decode and DecodeSelected (including CRC checks)
}

// Add adds o to s.
func (s *Stats) Add(o *Stats) {
	for i := range s.Frames {
		s.Frames[i] += o.Frames[i]
	}
	s.FrameBytes += o.FrameBytes
	s.PlainBytes += o.PlainBytes
	s.TotalDocs += o.TotalDocs
	s.SelectedDocs += o.SelectedDocs
	s.TotalPositions += o.TotalPositions
	s.SelectedPositions += o.SelectedPositions
	s.DecodeNanos += o.DecodeNanos
}

// decodeInfo is what one successful decode adds to the stats.
type decodeInfo struct {
	codec        Codec
	frameLen     int
	plain        int
	docs         int
	positions    int
	selDocs      int
	selPositions int
}

func (s *Stats) record(d *decodeInfo, nanos int64) {
	s.Frames[d.codec]++
	s.FrameBytes += int64(d.frameLen)
	s.PlainBytes += int64(d.plain)
	s.TotalDocs += int64(d.docs)
	s.SelectedDocs += int64(d.selDocs)
	s.TotalPositions += int64(d.positions)
	s.SelectedPositions += int64(d.selPositions)
	s.DecodeNanos += nanos
}
