package prx

import (
	"encoding/binary"
	"hash/crc32"
	"strconv"
)

// Codec identifies how a frame stores its window.
type Codec uint8

// The codecs, as stored in a frame's first byte.
const (
	CodecRaw  Codec = 0 // the plain payload as is
	CodecZstd Codec = 1 // the plain payload compressed with zstd
	CodecPFOR Codec = 2 // counts and running positions bit-packed with intcomp
)

// NumCodecs is the number of codecs; valid codecs are below it.
const NumCodecs = 3

// String returns "raw", "zstd" or "pfor" ("codec(N)" for an unknown value).
func (c Codec) String() string {
	switch c {
	case CodecRaw:
		return "raw"
	case CodecZstd:
		return "zstd"
	case CodecPFOR:
		return "pfor"
	}
	return "codec(" + strconv.Itoa(int(c)) + ")"
}

// CRCSize is the size of the CRC32C that ends a frame (absent in the inline form).
const CRCSize = 4

// castagnoli is the CRC32C table; hash/crc32 uses the hardware instruction with it.
// It is read-only after package initialisation.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// crc32c returns the CRC32C (Castagnoli) of b.
func crc32c(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// FrameHeader is the parsed header of a frame.
type FrameHeader struct {
	Codec      Codec
	PlainLen   int // plain payload length: the header's len for RAW and ZSTD; 0 for PFOR (not recorded)
	PayloadLen int // stored payload length (len for RAW and PFOR, comp_len for ZSTD)
	HeaderLen  int // bytes before the payload: codec byte, len, and comp_len for ZSTD
	FrameLen   int // HeaderLen + PayloadLen, plus CRCSize in the CRC form
}

// ParseFrameHeader parses the header of the frame at the start of b (in the CRC form
// when withCRC, else the inline form) without checking the CRC or the payload. b must
// hold the whole frame; bytes after it are ignored. It returns an error wrapping
// ErrCorrupt for an unknown codec, a bad uvarint, a declared length above
// limits.MaxBytes or a truncated frame, and ErrInvalidArgument for invalid limits.
func ParseFrameHeader(b []byte, withCRC bool, limits Limits) (FrameHeader, error) {
	lim, err := limits.checked()
	if err != nil {
		return FrameHeader{}, err
	}
	return parseFrameHeader(b, withCRC, &lim)
}

func parseFrameHeader(b []byte, withCRC bool, lim *Limits) (FrameHeader, error) {
	var h FrameHeader
	if len(b) == 0 {
		return h, corruptf(CodecRaw, "empty frame")
	}
	h.Codec = Codec(b[0])
	if h.Codec >= NumCodecs {
		return h, corruptf(h.Codec, "unknown codec %d", b[0])
	}
	l, p, ok := readUvarint32(b, 1)
	if !ok {
		return h, corruptf(h.Codec, "length: bad uvarint")
	}
	if int64(l) > int64(lim.MaxBytes) {
		return h, corruptf(h.Codec, "declared length %d over the limit %d", l, lim.MaxBytes)
	}
	switch h.Codec {
	case CodecRaw:
		h.PlainLen, h.PayloadLen = int(l), int(l)
	case CodecPFOR:
		h.PayloadLen = int(l)
	case CodecZstd:
		h.PlainLen = int(l)
		var cl uint32
		if cl, p, ok = readUvarint32(b, p); !ok {
			return h, corruptf(h.Codec, "compressed length: bad uvarint")
		}
		if int64(cl) > int64(len(b)) {
			return h, corruptf(h.Codec, "compressed length %d but the frame has %d bytes", cl, len(b))
		}
		h.PayloadLen = int(cl)
	}
	h.HeaderLen = p
	h.FrameLen = p + h.PayloadLen
	if withCRC {
		h.FrameLen += CRCSize
	}
	if h.FrameLen > len(b) {
		return h, corruptf(h.Codec, "truncated: %d bytes of a %d-byte frame", len(b), h.FrameLen)
	}
	return h, nil
}

// checkCRC verifies the CRC that ends the frame b[:h.FrameLen].
func checkCRC(b []byte, h *FrameHeader) error {
	body := b[:h.FrameLen-CRCSize]
	want := binary.LittleEndian.Uint32(b[h.FrameLen-CRCSize:])
	if got := crc32c(body); got != want {
		return corruptf(h.Codec, "crc32c %#08x, stored %#08x", got, want)
	}
	return nil
}

// frameSize returns the exact size of a RAW or PFOR frame whose payload is n bytes
// (1 + vlen(n) + n + 4).
func frameSize(n int) int { return 1 + uvarintLen32(uint32(n)) + n + CRCSize }

// zstdFrameSize returns the exact size of a ZSTD frame of plain length u and
// compressed length c (1 + vlen(u) + vlen(c) + c + 4).
func zstdFrameSize(u, c int) int {
	return 1 + uvarintLen32(uint32(u)) + uvarintLen32(uint32(c)) + c + CRCSize
}

// appendCRC appends the CRC32C of dst[start:].
func appendCRC(dst []byte, start int) []byte {
	return binary.LittleEndian.AppendUint32(dst, crc32c(dst[start:]))
}
