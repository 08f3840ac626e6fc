package testkit

import (
	"encoding/binary"
	"hash/crc32"
)

// SetVersions rewrites, in the segment file b, the format version and the
// minimum reader version of its 16-byte header and 32-byte tail (and their
// CRC32C), as a writer of that version would have written them (the layout of
// docs/FORMAT.md, "Header" and "Tail"; package format is not imported, so
// that the packages it imports can use testkit in their tests).
func SetVersions(b []byte, version, minReader uint16) {
	castagnoli := crc32.MakeTable(crc32.Castagnoli)
	binary.LittleEndian.PutUint16(b[4:], version)
	binary.LittleEndian.PutUint16(b[6:], minReader)
	binary.LittleEndian.PutUint32(b[12:], crc32.Checksum(b[:12], castagnoli))
	tb := b[len(b)-32:]
	binary.LittleEndian.PutUint16(tb[20:], version)
	binary.LittleEndian.PutUint16(tb[22:], minReader)
	binary.LittleEndian.PutUint32(tb[28:], crc32.Checksum(tb[:28], castagnoli))
}
