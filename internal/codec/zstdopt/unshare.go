package zstdopt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/huff0"
)

// ErrSharedFrame is wrapped by Unshare's errors: a frame naming a shared
// literal table that does not follow the format (the caller reports it as
// corrupt data).
var ErrSharedFrame = errors.New("bad shared-table zstd frame")

// sharedDecoders returns the Huffman decoders of the shared tables, built at
// the first call and read-only after it (huff0 decoders are safe for
// concurrent use).
var sharedDecoders = sync.OnceValues(func() ([NumTables]*huff0.Decoder, error) {
	var ds [NumTables]*huff0.Decoder
	for i := range Tables {
		s, _, err := huff0.ReadTable(Tables[i][8:], nil)
		if err != nil {
			return ds, fmt.Errorf("zstd literal table %d: %w", i+1, err)
		}
		ds[i] = s.Decoder()
	}
	return ds, nil
})

// Unshare returns the frame to give a decoder without dictionaries: frame
// itself when it names no table; for a frame naming shared table k, the same
// frame without the dictionary ID and with its literals decoded with table k
// and stored raw (Literals_Block_Type 0), appended to dst[:0]. The sequences
// are left as they are, so klauspost decodes them with its assembly decoder
// (a frame naming a dictionary goes to its Go decoder) and no decoder holds
// the tables as dictionaries (each costs memory and time to load).
//
// A frame naming a table must be a single-segment frame with a one-byte
// dictionary ID of at most NumTables and one compressed block filling it,
// whose literals decode to at most maxLits bytes; anything else is an error
// wrapping ErrSharedFrame. The frame it returns is at most UnshareGrowth
// bytes longer than frame plus its literals; nothing is allocated beyond
// dst's growth to that.
//
// Raw literals and the sequences after them may take more bytes than the
// frame's content (which klauspost stores at levels 3 and 4, leaving many
// literals in small frames): the content size is the window of a
// single-segment frame and so the most its block may hold, so such a frame
// becomes one that is not single-segment, with a window that holds the
// block (frameHeader).
func Unshare(frame, dst []byte, maxLits int) ([]byte, error) {
	if len(frame) < 6 || binary.LittleEndian.Uint32(frame) != zstdMagic || frame[4]&3 == 0 {
		return frame, nil
	}
	if frame[4]&3 != 1 {
		return nil, fmt.Errorf("%w: a dictionary ID of more than one byte", ErrSharedFrame)
	}
	id := int(frame[5])
	if id < 1 || id > NumTables {
		return nil, fmt.Errorf("%w: dictionary %d (shared tables are 1..%d)", ErrSharedFrame, id, NumTables)
	}
	block, lit, ok := singleBlock(frame, 1)
	if !ok {
		return nil, fmt.Errorf("%w: not a single-segment frame without checksum of one compressed block", ErrSharedFrame)
	}
	b := frame[lit:]
	if b[0]&3 != 3 { // a table of its own, raw or RLE: the dictionary is not used
		return appendUnshared(dst, frame, block, lit), nil
	}
	h, ok := parseHuffLits(b)
	if !ok || h.regen == 0 || h.regen > maxLits {
		return nil, fmt.Errorf("%w: literals of %d bytes in %d (at most %d, %d left)", ErrSharedFrame, h.regen, h.comp, maxLits, len(b)-h.hdr)
	}
	decs, err := sharedDecoders()
	if err != nil {
		return nil, err
	}
	seqs := len(b) - h.hdr - h.comp
	size := rawHeaderLen(h.regen) + h.regen + seqs
	if size > maxBlockSize {
		return nil, fmt.Errorf("%w: literals of %d bytes stored raw make a block of %d bytes (at most %d)", ErrSharedFrame, h.regen, size, maxBlockSize)
	}
	var hb [maxFrameHeader]byte
	hdr := frameHeader(hb[:0], frame, 1, block, size)
	// The new frame is at most its new header, the block header, the raw
	// literals header, the literals and the sequences.
	if need := len(hdr) + 3 + size; cap(dst) < need {
		dst = make([]byte, 0, need)
	}
	// The literals go where the new frame will hold them, after the new
	// headers.
	at := len(hdr) + 3 + rawHeaderLen(h.regen)
	out, err := decodeStreams(decs[id-1], h.streams, dst[at:at:at+h.regen], b[h.hdr:h.hdr+h.comp])
	if err != nil || len(out) != h.regen {
		return nil, fmt.Errorf("%w: literals with table %d: %v", ErrSharedFrame, id, err)
	}
	d := append(dst[:0], hdr...)
	d = appendBlockHeader(d, size)
	d = appendRawLitsHeader(d, h.regen)
	d = d[:len(d)+h.regen] // the literals are already there
	return append(d, b[h.hdr+h.comp:]...), nil
}

// UnshareGrowth bounds how many bytes longer than a frame plus its literals
// the frame Unshare returns is: a frame header with a window descriptor and a
// four-byte content size is at most 3 bytes longer than one with a one-byte
// dictionary ID and the shortest content size field (a raw literals header
// is no longer than the Huffman one it replaces).
const UnshareGrowth = 3

// maxBlockSize is the most bytes a zstd block may hold (Block_Maximum_Size
// is the smaller of this and the frame's window).
const maxBlockSize = 128 << 10

// maxFrameHeader bounds the frame headers frameHeader writes.
const maxFrameHeader = 18

// frameHeader appends to b the header of the frame Unshare or RawLiterals
// writes for frame (a single-segment frame with a dictionary ID of idLen
// bytes, 0 or 1, whose block header is at offset block) when its block holds
// size bytes: frame's header without the dictionary ID when size fits the
// content size, which is then the window; else a frame that is not
// single-segment, with the same content size (four bytes) and the smallest
// window that holds both the content and the block (RFC 8878 section
// 3.1.1.1.2).
func frameHeader(b, frame []byte, idLen, block, size int) []byte {
	fcs := contentSize(frame[4]>>6, frame[5+idLen:block])
	if uint64(size) <= fcs {
		b = append(b, frame[:4]...)
		b = append(b, frame[4]&^3)
		return append(b, frame[5+idLen:block]...)
	}
	need := max(uint64(size), fcs)
	wd := byte(0)
	for e := 0; e < 32; e++ {
		base := uint64(1) << (10 + e)
		if base*15/8 < need { // (the largest window of this exponent)
			continue
		}
		m := uint64(0)
		for base+base/8*m < need {
			m++
		}
		wd = byte(e<<3) | byte(m)
		break
	}
	b = append(b, frame[:4]...)
	b = append(b, 2<<6) // Frame_Content_Size_Flag 2 (four bytes), not single-segment
	b = append(b, wd)
	return binary.LittleEndian.AppendUint32(b, uint32(fcs))
}

// contentSize reads a Frame_Content_Size field of a single-segment frame
// (flag: its Frame_Content_Size_Flag; f: the field).
func contentSize(flag byte, f []byte) uint64 {
	switch flag {
	case 0:
		return uint64(f[0])
	case 1:
		return uint64(binary.LittleEndian.Uint16(f)) + 256
	case 2:
		return uint64(binary.LittleEndian.Uint32(f))
	}
	return binary.LittleEndian.Uint64(f)
}

// appendRawLitsHeader appends the header of a raw literals section of n
// bytes (Literals_Block_Type 0, in the smallest size format).
func appendRawLitsHeader(d []byte, n int) []byte {
	switch rawHeaderLen(n) {
	case 1:
		return append(d, byte(n<<3))
	case 2:
		return append(d, byte(1<<2|n<<4), byte(n>>4))
	}
	return append(d, byte(3<<2|n<<4), byte(n>>4), byte(n>>12))
}

// rawHeaderLen is the length of a raw literals header of n bytes.
func rawHeaderLen(n int) int {
	switch {
	case n < 32:
		return 1
	case n < 4096:
		return 2
	}
	return 3
}

// appendUnshared writes into dst[:0] the frame without its dictionary ID,
// its block as it is.
func appendUnshared(dst, frame []byte, block, lit int) []byte {
	d := frameHeader(dst[:0], frame, 1, block, 0) // (an empty block fits any content)
	d = appendBlockHeader(d, len(frame)-lit)
	return append(d, frame[lit:]...)
}
