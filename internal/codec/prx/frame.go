package prx

import (
	"hash/crc32"
	"strconv"
)

// Codec identifies how a unit frame stores its positions.
type Codec uint8

// The codecs, as stored in a frame's first byte.
const (
	CodecRaw  Codec = 0 // uvarints
	CodecZstd Codec = 1 // the RAW positions payload compressed with zstd
	CodecPFOR Codec = 2 // packed 128-value blocks
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

// CRCSize is the size of the CRC32C that ends a unit frame and a multi-unit header
// (absent in the inline form).
const CRCSize = 4

// castagnoli is the CRC32C table; hash/crc32 uses the hardware instruction with it.
// It is read-only after package initialisation.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// crc32c returns the CRC32C (Castagnoli) of b.
func crc32c(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }
