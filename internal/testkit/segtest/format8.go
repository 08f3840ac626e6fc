package segtest

import (
	"encoding/binary"
	"os"
	"testing"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/testkit"
)

// Format8 writes to dst a copy of the segment at src as a format-8 writer
// would have written it: each metadata group ends before its skipped
// documents (their bytes stay behind, unreferenced), the directory, header
// and tail say format 8. It returns dst.
func Format8(tb testing.TB, src, dst string) string {
	tb.Helper()
	b := testkit.ReadFile(tb, src)
	tail, err := format.ParseTail(b[len(b)-format.TailSize:])
	if err != nil {
		tb.Fatal(err)
	}
	dir, err := format.DecodeDirectory(b[tail.DirOff : tail.DirOff+tail.DirLen])
	if err != nil {
		tb.Fatal(err)
	}
	for i := range dir.Indexes {
		de := &dir.Indexes[i]
		m, err := format.DecodeIndexMeta(b[de.MetaOff:de.MetaOff+de.MetaLen], dir.Version)
		if err != nil {
			tb.Fatal(err)
		}
		n := 1 // the part's flag
		if m.SkipDocsKnown {
			part := binary.AppendUvarint(nil, uint64(len(m.SkipDocs)))
			next := uint32(0)
			for _, d := range m.SkipDocs {
				part = binary.AppendUvarint(part, uint64(d-next))
				next = d + 1
			}
			n += len(part)
		}
		de.MetaLen -= uint64(n)
		de.MetaCRC = format.Checksum(b[de.MetaOff : de.MetaOff+de.MetaLen])
	}
	dir.Version = format.SkipDocsVersion - 1
	db := format.AppendDirectory(nil, &dir)
	out := append(b[:tail.DirOff:tail.DirOff], db...)
	out = format.AppendTail(out, format.Tail{DirOff: tail.DirOff, DirLen: uint64(len(db)), DirCRC: format.Checksum(db)})
	testkit.SetVersions(out, format.SkipDocsVersion-1, format.SkipDocsVersion-1)
	if err := os.WriteFile(dst, out, 0o644); err != nil {
		tb.Fatal(err)
	}
	return dst
}
