package zstdopt

// RawLiterals returns frame with its literals stored raw (Literals_Block_Type
// 0) and its sequences as they are, appended to dst, and the Huffman-coded
// literals' saving: the bytes the result is longer than frame. frame must be
// a frame of EncodeAll whose one compressed block holds literals with a
// Huffman table of their own (type 2); for any other frame, or when the
// literals stored raw and the sequences would not fit one block of 128 KiB,
// ok is false and dst is returned as it is.
//
// The result decodes to the same bytes with any zstd decoder, without the
// Huffman table read and literal decode that frame costs a decoder. When the
// block grows past the frame's content size, the frame is no longer
// single-segment and declares a window that holds the block (see
// frameHeader).
func (s *Sharer) RawLiterals(frame, dst []byte) (out []byte, saving int, ok bool) {
	f, ok := s.decodeLiterals(frame)
	if !ok {
		return dst, 0, false
	}
	seqs := frame[f.lit+f.litLen:]
	size := rawHeaderLen(f.regen) + f.regen + len(seqs)
	if size > maxBlockSize {
		return dst, 0, false
	}
	start := len(dst)
	d := frameHeader(dst, frame, 0, f.block, size)
	d = appendBlockHeader(d, size)
	d = appendRawLitsHeader(d, f.regen)
	d = append(d, s.cur...)
	d = append(d, seqs...)
	return d, len(d) - start - len(frame), true
}
