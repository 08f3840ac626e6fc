package reader

import (
	"context"
	"slices"

	"github.com/snii-go/snii/internal/codec/format"
)

// loadNorms returns the field's norms section (DocCount bytes, one norm code
// per document; nil when the field stores none). It is read and checked (its
// length and CRC) at the first use and then kept: sliced from the mapping, or
// read into a buffer of its own through the ReaderAt.
func (f *field) loadNorms(x *qctx) ([]byte, error) {
	m := &f.meta
	if !m.HasNorms {
		return nil, nil
	}
	if p := f.norms.Load(); p != nil {
		return *p, nil
	}
	s := f.seg
	var buf []byte
	b, err := x.readInto(m.NormsOff, m.DocCount, &buf)
	if err == nil {
		err = format.CheckNorms(b, m.DocCount, m.NormsCRC)
	}
	if err != nil {
		return nil, s.wrap(place{section: "norms", index: m.Name, window: -1}, err)
	}
	f.norms.Store(&b)
	return b, nil
}

// FieldLengths returns the norms of a field: one byte per document,
// the code of its field length (the number of tokens it indexed; see
// FieldLength), or nil when the field stores no norms. The slice is shared:
// it must not be modified, and it stays valid until Close.
func (s *Segment) FieldLengths(ctx context.Context, name string) (_ []byte, err error) {
	f, err := s.field(name)
	if err != nil {
		return nil, err
	}
	if err := s.acquire(); err != nil {
		return nil, err
	}
	defer s.release()
	x := s.getCtx(ctx, false)
	defer s.putCtx(x)
	if s.guarding() {
		defer s.faultGuard(&err, x, enableFaults())
	}
	return f.loadNorms(x)
}

// FieldLength decodes a norm byte of FieldLengths: the length it stands for.
// Lengths up to 23 are exact; longer ones are rounded down to one of 232
// steps growing by about 12.5% (Lucene 8's norm code, so that BM25 scores
// agree with Lucene's).
func FieldLength(norm byte) uint32 { return format.DecodeNorm(norm) }

// verifyImpact checks a window's impact bounds (its prelude entry) against
// its decoded docs (in x.win) and the field's norms.
func (f *field) verifyImpact(x *qctx, t *termRef, w *winInfo, docs []uint32) error {
	norms, err := f.loadNorms(x)
	if err != nil {
		return err
	}
	bound := func(lo, hi int) (maxTF uint32, minNorm byte) {
		if norms != nil {
			minNorm = 255
		}
		for k := lo; k < hi; k++ {
			maxTF = max(maxTF, uint32(len(x.win.Doc(k))))
			if norms != nil {
				minNorm = min(minNorm, norms[docs[k]])
			}
		}
		return maxTF, minNorm
	}
	if maxTF, minNorm := bound(0, len(docs)); maxTF != w.maxTF || minNorm != w.minNorm {
		return f.seg.corrupt(x.docWinName(t, w), "impact bounds max tf %d, min norm %d; the window holds %d, %d", w.maxTF, w.minNorm, maxTF, minNorm)
	}
	// A window of more than one block is blocked (format 4), and each block's
	// directory entry holds its own bounds.
	src, err := x.readInto(w.docOff, w.docLen, &x.docSrc)
	if err != nil {
		return f.seg.wrap(x.docWinName(t, w), err)
	}
	if blocked := format.IsBlocked(src); blocked != (len(docs) >= format.BlockedMinDocs) {
		return f.seg.corrupt(x.docWinName(t, w), "%d docs, blocked %v: windows of more than %d docs are blocked, the others not", len(docs), blocked, format.DocBlockLen)
	}
	if !format.IsBlocked(src) {
		return nil
	}
	bw, err := format.ParseBlocked(src, len(docs), w.base, w.last, true, true, nil)
	if err == nil {
		err = bw.Locate()
	}
	if err != nil {
		return f.seg.wrap(x.docWinName(t, w), err)
	}
	tfs := make([]uint32, len(docs))
	for k := range tfs {
		tfs[k] = uint32(len(x.win.Doc(k)))
	}
	var imp []format.Impact
	for b, k := range bw.Blocks {
		lo, hi := int(k.Ord), int(k.Ord+k.Docs)
		imp = format.BlockImpacts(docs[lo:hi], tfs[lo:hi], norms, imp)
		if !slices.Equal(imp, k.Impacts[:k.NImpacts]) {
			return f.seg.corrupt(x.docWinName(t, w), "block %d: impact bounds %v; the block holds %v", b, k.Impacts[:k.NImpacts], imp)
		}
		if b+1 < len(bw.Blocks) && k.Last != docs[hi-1] {
			return f.seg.corrupt(x.docWinName(t, w), "block %d: last doc %d, the block holds %d", b, k.Last, docs[hi-1])
		}
	}
	return nil
}
