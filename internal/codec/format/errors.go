package format

import (
	"hash/crc32"

	"github.com/snii-go/snii/internal/errs"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Checksum returns the CRC32C (Castagnoli) of b, the checksum used by every
// section of a segment.
func Checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// VerifyChecksum returns an error wrapping ErrCorrupt when the CRC32C of b is
// not want, which the section named by from records: the directory's CRC is
// in the "tail", the metadata groups' in the "directory". The caller places
// the error (the reader wraps it in a *snii.SegmentError naming the section).
func VerifyChecksum(b []byte, want uint32, from string) error {
	if got := Checksum(b); got != want {
		return errs.Corruptf("crc %08x, %s says %08x", got, from, want)
	}
	return nil
}
