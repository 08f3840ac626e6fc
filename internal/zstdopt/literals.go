package zstdopt

import (
	"encoding/binary"
	"fmt"

	"github.com/klauspost/compress/huff0"
)

// Sharer rewrites zstd frames to use the shared literal tables. Its zero value
// is ready; it is not safe for concurrent use (an encoder owns one).
type Sharer struct {
	tabs  [NumTables]*huff0.Scratch
	dec   *huff0.Scratch
	ready bool
	lits  []byte // buffer of the literals
	cur   []byte // the literals of the frame at hand
	hist  [256]uint32
	out   []byte
}

func (s *Sharer) init() error {
	for i := range s.tabs {
		sc, _, err := huff0.ReadTable(Tables[i][8:], nil)
		if err != nil {
			return fmt.Errorf("zstd literal table %d: %w", i+1, err)
		}
		s.tabs[i] = sc
	}
	s.ready = true
	return nil
}

// Share returns frame coded with the shared literal table that gives the
// smallest frame, appended to dst[:0], or frame itself when no table makes it
// smaller (or the frame is not one this applies to). The result decodes to
// the same bytes: through Unshare and NewDecoder, or with any zstd decoder
// that holds Tables as dictionaries.
func (s *Sharer) Share(frame, dst []byte) ([]byte, error) {
	if !s.ready {
		if err := s.init(); err != nil {
			return nil, err
		}
	}
	f, ok := s.decodeLiterals(frame)
	if !ok {
		return frame, nil
	}
	s.hist = [256]uint32{}
	for _, c := range s.cur {
		s.hist[c]++
	}
	best, bestBits := -1, 0
	for i, t := range s.tabs {
		if b := t.EstimateSize(&s.hist); b >= 0 && (best < 0 || b < bestBits) {
			best, bestBits = i, b
		}
	}
	if best < 0 || bestBits+3 >= f.litLen {
		return frame, nil // cannot be smaller
	}
	t := s.tabs[best]
	t.Reuse = huff0.ReusePolicyMust
	var err error
	if f.streams == 1 {
		s.out, _, err = huff0.Compress1X(s.cur, t)
	} else {
		s.out, _, err = huff0.Compress4X(s.cur, t)
	}
	if err != nil {
		return frame, nil // (incompressible with this table)
	}
	h, n := literalsHeader(f.streams, f.regen, len(s.out))
	if n == 0 {
		return frame, nil
	}
	hdr := h[:n]
	newLen := len(frame) + 1 - f.litLen + len(hdr) + len(s.out)
	if newLen >= len(frame) {
		return frame, nil
	}
	b := append(dst[:0], frame[:4]...)
	b = append(b, frame[4]|1, byte(best+1)) // Dictionary_ID_Flag 1: a one-byte ID
	b = append(b, frame[5:f.block]...)
	seqs := frame[f.lit+f.litLen:]
	size := len(hdr) + len(s.out) + len(seqs)
	bh := uint32(1) | 2<<1 | uint32(size)<<3 // last, compressed
	b = append(b, byte(bh), byte(bh>>8), byte(bh>>16))
	b = append(b, hdr...)
	b = append(b, s.out...)
	b = append(b, seqs...)
	return b, nil
}

// decodeLiterals decodes the literals of a frame Share can rewrite (s.cur, in
// the buffer s.lits).
func (s *Sharer) decodeLiterals(frame []byte) (frameLits, bool) {
	f, ok := parseFrame(frame)
	if !ok {
		return f, false
	}
	body := frame[f.lit : f.lit+f.litLen]
	if s.dec == nil {
		s.dec = &huff0.Scratch{}
	}
	dec, rest, err := huff0.ReadTable(body[f.litHdr:], s.dec)
	if err != nil {
		return f, false
	}
	s.dec = dec
	dec.MaxDecodedSize = f.regen
	if cap(s.lits) < f.regen {
		s.lits = make([]byte, 0, f.regen)
	}
	// (Decompress4X decodes exactly the capacity it is given.)
	var out []byte
	if f.streams == 1 {
		out, err = dec.Decoder().Decompress1X(s.lits[:0:f.regen], rest)
	} else {
		out, err = dec.Decoder().Decompress4X(s.lits[:0:f.regen], rest)
	}
	if err != nil || len(out) != f.regen {
		return f, false
	}
	s.cur = out // (in s.lits, whose capacity stays)
	return f, true
}

// FrameLiterals returns the literals of a frame Share would consider (one
// compressed block whose literals carry their own Huffman table), for tools
// that study them; ok is false for any other frame.
func FrameLiterals(frame []byte) (lits []byte, ok bool) {
	var s Sharer
	if _, ok := s.decodeLiterals(frame); !ok {
		return nil, false
	}
	return s.cur, true
}

// frameLits locates the literals of a frame Share can rewrite.
type frameLits struct {
	block   int // offset of the block header
	lit     int // offset of the literals section
	litLen  int // its length: header, table and streams
	litHdr  int // the header's length
	regen   int // literal bytes
	streams int // 1 or 4
}

// parseFrame accepts a single-segment frame without dictionary or checksum
// holding one compressed block (the last) whose literals are Huffman coded
// with their own table (Literals_Block_Type 2).
func parseFrame(fr []byte) (frameLits, bool) {
	var f frameLits
	if len(fr) < 6 || binary.LittleEndian.Uint32(fr) != 0xFD2FB528 {
		return f, false
	}
	fhd := fr[4]
	if fhd&3 != 0 || fhd&0x20 == 0 || fhd&0x04 != 0 || fhd&0x08 != 0 {
		return f, false // a dictionary, no single segment, a checksum, reserved bit
	}
	fcs := [4]int{1, 2, 4, 8}[fhd>>6]
	f.block = 5 + fcs
	if len(fr) < f.block+3 {
		return f, false
	}
	bh := uint32(fr[f.block]) | uint32(fr[f.block+1])<<8 | uint32(fr[f.block+2])<<16
	f.lit = f.block + 3
	if bh&1 == 0 || (bh>>1)&3 != 2 || f.lit+int(bh>>3) != len(fr) {
		return f, false // not one last compressed block filling the frame
	}
	b := fr[f.lit:]
	if len(b) < 5 || b[0]&3 != 2 {
		return f, false
	}
	var comp int
	switch sf := (b[0] >> 2) & 3; sf {
	case 0, 1:
		v := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
		f.litHdr, f.regen, comp = 3, int(v>>4)&0x3ff, int(v>>14)&0x3ff
		f.streams = 1
		if sf == 1 {
			f.streams = 4
		}
	case 2:
		v := binary.LittleEndian.Uint32(b)
		f.litHdr, f.regen, comp, f.streams = 4, int(v>>4)&0x3fff, int(v>>18)&0x3fff, 4
	default:
		v := uint64(binary.LittleEndian.Uint32(b)) | uint64(b[4])<<32
		f.litHdr, f.regen, comp, f.streams = 5, int(v>>4)&0x3ffff, int(v>>22)&0x3ffff, 4
	}
	f.litLen = f.litHdr + comp
	if f.regen == 0 || f.litLen > len(b) {
		return f, false
	}
	return f, true
}

// literalsHeader is the header of a treeless literals section of regen bytes
// in comp bytes of streams: its first n bytes (n = 0 when no header fits).
func literalsHeader(streams, regen, comp int) (h [5]byte, n int) {
	const treeless = 3
	var v uint64
	switch {
	case streams == 1 && regen < 1<<10 && comp < 1<<10:
		v, n = treeless|uint64(regen)<<4|uint64(comp)<<14, 3
	case streams == 1:
		return h, 0
	case regen < 1<<10 && comp < 1<<10:
		v, n = treeless|1<<2|uint64(regen)<<4|uint64(comp)<<14, 3
	case regen < 1<<14 && comp < 1<<14:
		v, n = treeless|2<<2|uint64(regen)<<4|uint64(comp)<<18, 4
	case regen < 1<<18 && comp < 1<<18:
		v, n = treeless|3<<2|uint64(regen)<<4|uint64(comp)<<22, 5
	default:
		return h, 0
	}
	for i := range n {
		h[i] = byte(v >> (8 * i))
	}
	return h, n
}
