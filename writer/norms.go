package writer

import (
	"hash/crc32"
	"io"

	"github.com/snii-go/snii/internal/codec/format"
)

// Norm returns the norm byte of a field length (its tokens, counting the
// positions of skipped ones), as IndexInput.Norms holds them:
// reader.FieldLength decodes it. Lengths up to 23 are exact; longer ones are
// rounded down (Lucene 8's norm code), and lengths over 2^31-1 saturate.
func Norm(length uint64) byte { return format.EncodeNorm(length) }

// zeros is a run of norm bytes of documents of length 0 (nil norms).
var zeros [4096]byte

// writeNorms writes a field's norms section: norms, or docs zero bytes when
// norms is nil (the caller has checked its length).
func writeNorms(w io.Writer, norms []byte, docs uint64) error {
	if norms != nil {
		_, err := w.Write(norms)
		return err
	}
	for docs > 0 {
		n := min(docs, uint64(len(zeros)))
		if _, err := w.Write(zeros[:n]); err != nil {
			return err
		}
		docs -= n
	}
	return nil
}

// normsCRC is the CRC32C of the section writeNorms writes.
func normsCRC(norms []byte, docs uint64) uint32 {
	tab := crc32.MakeTable(crc32.Castagnoli)
	if norms != nil {
		return crc32.Checksum(norms, tab)
	}
	var c uint32
	for docs > 0 {
		n := min(docs, uint64(len(zeros)))
		c = crc32.Update(c, tab, zeros[:n])
		docs -= n
	}
	return c
}
