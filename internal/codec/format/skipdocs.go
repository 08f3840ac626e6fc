package format

import (
	"encoding/binary"
	"math"

	"github.com/snii-go/snii/internal/errs"
)

// SkipDocsVersion is the first format version whose metadata groups end
// with the field's skipped documents (IndexMeta.SkipDocs).
const SkipDocsVersion = 9

// appendSkipDocs appends the metadata group's last part:
//
//	u8 known (0 or 1) | when 1: uvarint n | n × uvarint gap
//
// the first gap is the first document, each later one the distance to the
// previous document less one.
func appendSkipDocs(dst []byte, m *IndexMeta) []byte {
	if !m.SkipDocsKnown {
		return append(dst, 0)
	}
	dst = append(dst, 1)
	dst = binary.AppendUvarint(dst, uint64(len(m.SkipDocs)))
	next := uint32(0)
	for _, d := range m.SkipDocs {
		dst = binary.AppendUvarint(dst, uint64(d-next))
		next = d + 1
	}
	return dst
}

// decodeSkipDocs reads the part appendSkipDocs writes into m, whose stats
// are decoded: the documents are below DocCount and strictly ascending (by
// construction of the gaps), at most SkippedTokens of them, and an unknown
// list needs skipped tokens (a field that skipped none has an empty list).
func (r *reader) decodeSkipDocs(m *IndexMeta) error {
	switch r.u8() {
	case 0:
		if !r.ok() || m.SkippedTokens == 0 {
			return errs.Corruptf("skipped documents: missing, or unknown for a field that skipped no token")
		}
		return nil
	case 1:
	default:
		return errs.Corruptf("skipped documents flag %d (want 0 or 1)", r.b[r.off-1])
	}
	n := r.uvarint()
	if !r.ok() || n > uint64(r.remaining()) || n > m.SkippedTokens {
		return errs.Corruptf("%d skipped documents in %d bytes (%d skipped tokens)", n, r.remaining(), m.SkippedTokens)
	}
	m.SkipDocsKnown = true
	if n == 0 {
		return nil
	}
	docs := make([]uint32, n)
	next := uint64(0)
	for i := range docs {
		g := r.uvarintMax(math.MaxUint32)
		if !r.ok() || g >= m.DocCount-next {
			return errs.Corruptf("skipped document %d truncated or past the %d documents", i, m.DocCount)
		}
		docs[i] = uint32(next + g)
		next += g + 1
	}
	m.SkipDocs = docs
	return nil
}
