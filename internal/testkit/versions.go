package testkit

import (
	"encoding/binary"

	"github.com/snii-go/snii/internal/format"
)

// SetVersions rewrites, in the segment file b, the format version and the
// minimum reader version of its header and tail (and their CRCs), as a writer
// of that version would have written them.
func SetVersions(b []byte, version, minReader uint16) {
	binary.LittleEndian.PutUint16(b[4:], version)
	binary.LittleEndian.PutUint16(b[6:], minReader)
	binary.LittleEndian.PutUint32(b[12:], format.Checksum(b[:12]))
	tb := b[len(b)-format.TailSize:]
	binary.LittleEndian.PutUint16(tb[20:], version)
	binary.LittleEndian.PutUint16(tb[22:], minReader)
	binary.LittleEndian.PutUint32(tb[28:], format.Checksum(tb[:28]))
}
