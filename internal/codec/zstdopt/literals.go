package zstdopt

import (
	"encoding/binary"
	"fmt"

	"github.com/klauspost/compress/huff0"
)

// Sharer recodes the literals of zstd frames: in the stream count their
// length calls for, with one of the shared literal tables when it costs few
// enough bytes (Share), or raw (RawLiterals). Its zero value is ready; it is
// not safe for concurrent use (an encoder owns one).
type Sharer struct {
	tabs  [NumTables]*huff0.Scratch
	dec   *huff0.Scratch
	fresh *huff0.Scratch // for literals with a table of their own
	ready bool
	lits  []byte // buffer of the literals
	cur   []byte // the literals of the frame at hand
	hist  [256]uint32
	sec   []byte                // a recoded literals section
	lens  [NumTables][256]uint8 // the tables' code lengths
	syms  []uint8               // the byte values of the literals at hand
}

func (s *Sharer) init() error {
	for i := range s.tabs {
		sc, _, err := huff0.ReadTable(Tables[i][8:], nil)
		if err != nil {
			return fmt.Errorf("zstd literal table %d: %w", i+1, err)
		}
		s.tabs[i] = sc
		// Code lengths: (7 + 8·len) >> 3 = len for one byte value counted 8 times.
		var h [256]uint32
		for c := range h {
			h[c] = 8
			s.lens[i][c] = uint8(sc.EstimateSize(&h))
			h[c] = 0
		}
	}
	s.ready = true
	return nil
}

// FourStreamsMin is the fewest literal bytes Share codes in four Huffman
// streams (fewer go in one): the reference zstd encoder's threshold.
// klauspost's encoder uses four only from 1024 bytes, but a single stream
// decodes one symbol after the other: on the benchmark corpora four streams
// of 256 to 1023 bytes decode in half the time, for about 8 bytes more (a
// 6-byte jump table and the padding of three more streams).
const FourStreamsMin = 256

// SharedSlack is how many bytes longer than the frame EncodeAll made a frame
// may be and still take a shared table. Reading a table of a frame's own
// (huff0.ReadTable) costs more than decoding the literals of a small frame,
// so the slack trades a few bytes for frames that skip that read (docs/FORMAT.md,
// "Shared literal tables"; the measurements are in docs/BENCHMARKS-HISTORY.md).
const SharedSlack = 32

// Share returns frame with its literals recoded, appended to dst[:0], or
// frame itself when it is not one this applies to or keeps its literals as
// they are. The literals go in four streams from FourStreamsMin bytes, in
// one below it, with the shared literal table that gives the smallest frame
// when that frame is at most SharedSlack bytes longer than frame; else with
// a table of their own (frame's, or a new one when the stream count
// changes). No shared table is taken when the literals stored raw and the
// sequences would not fit one block of 128 KiB, which Unshare needs. The
// result decodes to the same bytes: through Unshare and NewDecoder, or with
// any zstd decoder that holds Tables as dictionaries.
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
	streams := 1
	if f.regen >= FourStreamsMin {
		streams = 4
	}
	// The estimate of every table (huff0's EstimateSize) over the byte
	// values present only.
	s.hist = [256]uint32{}
	for _, c := range s.cur {
		s.hist[c]++
	}
	syms := s.syms[:0]
	for c, n := range s.hist {
		if n > 0 {
			syms = append(syms, uint8(c))
		}
	}
	s.syms = syms
	best, bestBits := -1, 0
	for i := range s.lens {
		lens := &s.lens[i]
		bits := 7
		for _, c := range syms {
			bits += int(s.hist[c]) * int(lens[c])
		}
		if b := bits >> 3; best < 0 || b < bestBits {
			best, bestBits = i, b
		}
	}
	// A shared table only where the reader can store the literals raw
	// (Unshare): in one block of at most 128 KiB with the sequences.
	seqs := len(frame) - f.lit - f.litLen
	if bestBits+3 <= f.litLen+SharedSlack && rawHeaderLen(f.regen)+f.regen+seqs <= maxBlockSize {
		if lits := s.recode(&s.sec, s.tabs[best], streams, 3, f.regen); lits != nil && 1+len(lits) <= f.litLen+SharedSlack {
			return rewrite(dst, frame, &f, best+1, lits), nil
		}
	}
	if streams == f.streams {
		return frame, nil
	}
	own := s.recode(&s.sec, nil, streams, 2, f.regen)
	if own == nil {
		return frame, nil
	}
	return rewrite(dst, frame, &f, 0, own), nil
}

// recode codes s.cur (regen bytes) in streams Huffman streams, with table t
// (treeless, literals type 3) or a table of their own (t nil, type 2), and
// returns the literals section, header included, in *sec; nil when it does
// not code.
func (s *Sharer) recode(sec *[]byte, t *huff0.Scratch, streams, typ, regen int) []byte {
	if t == nil {
		if s.fresh == nil {
			s.fresh = &huff0.Scratch{}
		}
		t = s.fresh
		t.Reuse = huff0.ReusePolicyNone
	} else {
		t.Reuse = huff0.ReusePolicyMust
	}
	var out []byte
	var err error
	if streams == 1 {
		out, _, err = huff0.Compress1X(s.cur, t)
	} else {
		out, _, err = huff0.Compress4X(s.cur, t)
	}
	if err != nil {
		return nil // (incompressible with this table)
	}
	h, n := literalsHeader(typ, streams, regen, len(out))
	if n == 0 {
		return nil
	}
	*sec = append(append((*sec)[:0], h[:n]...), out...)
	return *sec
}

// rewrite appends to dst[:0] the frame f of frame with lits as its literals
// section, naming table id (none when 0).
func rewrite(dst, frame []byte, f *frameLits, id int, lits []byte) []byte {
	b := append(dst[:0], frame[:5]...)
	if id > 0 {
		b[4] |= 1 // Dictionary_ID_Flag 1: a one-byte ID
		b = append(b, byte(id))
	}
	b = append(b, frame[5:f.block]...)
	seqs := frame[f.lit+f.litLen:]
	b = appendBlockHeader(b, len(lits)+len(seqs))
	b = append(b, lits...)
	return append(b, seqs...)
}

// appendBlockHeader appends the header of the last block of a frame, a
// compressed one of size bytes.
func appendBlockHeader(b []byte, size int) []byte {
	bh := uint32(1) | 2<<1 | uint32(size)<<3 // last, compressed
	return append(b, byte(bh), byte(bh>>8), byte(bh>>16))
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
	dec, rest, err := huff0.ReadTable(body[f.hdr:], s.dec)
	if err != nil {
		return f, false
	}
	s.dec = dec
	dec.MaxDecodedSize = f.regen
	if cap(s.lits) < f.regen {
		s.lits = make([]byte, 0, f.regen)
	}
	out, err := decodeStreams(dec.Decoder(), f.streams, s.lits[:0:f.regen], rest)
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
	block  int // offset of the block header
	lit    int // offset of the literals section
	litLen int // its length: header, table and streams
	huffLits
}

// parseFrame accepts a single-segment frame without dictionary or checksum
// holding one compressed block (the last) whose literals are Huffman coded
// with their own table (Literals_Block_Type 2).
func parseFrame(fr []byte) (frameLits, bool) {
	var f frameLits
	if len(fr) < 6 || binary.LittleEndian.Uint32(fr) != zstdMagic || fr[4]&3 != 0 {
		return f, false
	}
	var ok bool
	if f.block, f.lit, ok = singleBlock(fr, 0); !ok || fr[f.lit]&3 != 2 {
		return f, false
	}
	if f.huffLits, ok = parseHuffLits(fr[f.lit:]); !ok || f.regen == 0 {
		return f, false
	}
	f.litLen = f.hdr + f.comp
	return f, true
}

// zstdMagic is a zstd frame's first four bytes, little-endian.
const zstdMagic = 0xFD2FB528

// singleBlock locates the block of a single-segment frame without checksum
// (the descriptor at fr[4], then idLen bytes of dictionary ID and the content
// size) holding one compressed block, the last, filling it: the offsets of
// the block header and of the literals section, which has at least 5 bytes.
func singleBlock(fr []byte, idLen int) (block, lit int, ok bool) {
	fhd := fr[4]
	if fhd&0x20 == 0 || fhd&0x0c != 0 { // not single segment, a checksum, the reserved bit
		return 0, 0, false
	}
	block = 5 + idLen + [4]int{1, 2, 4, 8}[fhd>>6]
	lit = block + 3
	if len(fr) < lit+5 {
		return 0, 0, false
	}
	bh := uint32(fr[block]) | uint32(fr[block+1])<<8 | uint32(fr[block+2])<<16
	if bh&1 == 0 || (bh>>1)&3 != 2 || lit+int(bh>>3) != len(fr) {
		return 0, 0, false
	}
	return block, lit, true
}

// huffLits is the header of a Huffman-coded literals section (types 2 and 3).
type huffLits struct {
	hdr     int // the header's length
	regen   int // literal bytes
	comp    int // bytes after the header: table (type 2) and streams
	streams int // 1 or 4
}

// parseHuffLits parses the header of the Huffman-coded literals section at b
// (at least 5 bytes); ok is false when its bytes run past b.
func parseHuffLits(b []byte) (h huffLits, ok bool) {
	switch sf := (b[0] >> 2) & 3; sf {
	case 0, 1:
		v := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
		h = huffLits{3, int(v>>4) & 0x3ff, int(v>>14) & 0x3ff, 1 + 3*int(sf)}
	case 2:
		v := binary.LittleEndian.Uint32(b)
		h = huffLits{4, int(v>>4) & 0x3fff, int(v>>18) & 0x3fff, 4}
	default:
		v := uint64(binary.LittleEndian.Uint32(b)) | uint64(b[4])<<32
		h = huffLits{5, int(v>>4) & 0x3ffff, int(v>>22) & 0x3ffff, 4}
	}
	return h, h.hdr+h.comp <= len(b)
}

// decodeStreams decodes the literals' 1 or 4 Huffman streams src with d into
// dst, whose capacity must be exactly their length (Decompress4X decodes
// exactly the capacity it is given).
func decodeStreams(d *huff0.Decoder, streams int, dst, src []byte) ([]byte, error) {
	if streams == 1 {
		return d.Decompress1X(dst, src)
	}
	return d.Decompress4X(dst, src)
}

// literalsHeader is the header of a Huffman-coded literals section of type
// typ (2 with its table, 3 treeless) of regen bytes in comp bytes of streams:
// its first n bytes (n = 0 when no header fits).
func literalsHeader(typ, streams, regen, comp int) (h [5]byte, n int) {
	t := uint64(typ)
	var v uint64
	switch {
	case streams == 1 && regen < 1<<10 && comp < 1<<10:
		v, n = t|uint64(regen)<<4|uint64(comp)<<14, 3
	case streams == 1:
		return h, 0
	case regen < 1<<10 && comp < 1<<10:
		v, n = t|1<<2|uint64(regen)<<4|uint64(comp)<<14, 3
	case regen < 1<<14 && comp < 1<<14:
		v, n = t|2<<2|uint64(regen)<<4|uint64(comp)<<18, 4
	case regen < 1<<18 && comp < 1<<18:
		v, n = t|3<<2|uint64(regen)<<4|uint64(comp)<<22, 5
	default:
		return h, 0
	}
	for i := range n {
		h[i] = byte(v >> (8 * i))
	}
	return h, n
}
