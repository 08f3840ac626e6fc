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
// the tables as dictionaries (about 43 KB and 0.1 ms each to load).
//
// A frame naming a table must be a single-segment frame with a one-byte
// dictionary ID of at most NumTables and one compressed block filling it,
// whose literals decode to at most maxLits bytes; anything else is an error
// wrapping ErrSharedFrame. Nothing is allocated beyond dst's growth to the
// frame's length plus its literals.
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
		return appendUnshared(dst, frame, block, lit, nil, 0), nil
	}
	h, ok := parseHuffLits(b)
	if !ok || h.regen == 0 || h.regen > maxLits {
		return nil, fmt.Errorf("%w: literals of %d bytes in %d (at most %d, %d left)", ErrSharedFrame, h.regen, h.comp, maxLits, len(b)-h.hdr)
	}
	decs, err := sharedDecoders()
	if err != nil {
		return nil, err
	}
	// The new frame is at most the old one plus the literals: header bytes
	// only shrink (the dictionary ID goes, a raw header is at most 3 bytes).
	if need := len(frame) + h.regen; cap(dst) < need {
		dst = make([]byte, 0, need)
	}
	// The literals go where the new frame will hold them, after the new
	// headers (the frame header loses one byte; the raw literals header is
	// rawHeaderLen bytes).
	at := lit - 1 + rawHeaderLen(h.regen)
	out, err := decodeStreams(decs[id-1], h.streams, dst[at:at:at+h.regen], b[h.hdr:h.hdr+h.comp])
	if err != nil || len(out) != h.regen {
		return nil, fmt.Errorf("%w: literals with table %d: %v", ErrSharedFrame, id, err)
	}
	return appendUnshared(dst, frame, block, lit, out, h.hdr+h.comp), nil
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

// appendUnshared writes into dst[:0] the frame without its dictionary ID:
// with raw literals lits replacing the first litLen bytes of the block when
// lits is not nil (lits must already sit in dst where they go), else with the
// block as it is.
func appendUnshared(dst, frame []byte, block, lit int, lits []byte, litLen int) []byte {
	d := append(dst[:0], frame[:4]...)
	d = append(d, frame[4]&^3)
	d = append(d, frame[6:block]...)
	rest := frame[lit:]
	size := len(rest)
	if lits != nil {
		rest = frame[lit+litLen:]
		size = rawHeaderLen(len(lits)) + len(lits) + len(rest)
	}
	d = appendBlockHeader(d, size)
	if lits != nil {
		n := len(lits)
		switch rawHeaderLen(n) {
		case 1:
			d = append(d, byte(n<<3))
		case 2:
			d = append(d, byte(1<<2|n<<4), byte(n>>4))
		default:
			d = append(d, byte(3<<2|n<<4), byte(n>>4), byte(n>>12))
		}
		d = d[:len(d)+n] // the literals are already there
	}
	return append(d, rest...)
}
