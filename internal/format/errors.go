package format

import (
	"hash/crc32"

	"github.com/snii-go/snii/internal/errs"
)

// Error kinds, re-exported from internal/errs so that errors.Is works with
// either name. Every error returned by this package wraps exactly one of them
// and names the section it concerns ("dict block @123", "prelude", ...).
var (
	ErrCorrupt         = errs.Corrupt
	ErrVersion         = errs.Version
	ErrInvalidArgument = errs.InvalidArgument
	ErrLimit           = errs.Limit
	ErrNotFound        = errs.NotFound
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Checksum returns the CRC32C (Castagnoli) of b, the checksum used by every
// section of a segment.
func Checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// VerifyChecksum returns an error wrapping ErrCorrupt and naming section when
// the CRC32C of b is not want (for the directory, whose CRC is in the tail,
// and metadata groups, whose CRCs are in the directory).
func VerifyChecksum(section string, b []byte, want uint32) error {
	if got := Checksum(b); got != want {
		return errs.Corruptf("%s: crc %08x, want %08x", section, got, want)
	}
	return nil
}
