package reader

import (
	"math"
	"slices"
	"sync"

	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/prx"
)

// postingScratch is the scratch space of term postings: the resolved terms
// of the query (pooled termRefs, [:nterms] in use), decoded windows and doc
// lists, and the union of many doc lists.
type postingScratch struct {
	win    prx.Window
	docBuf []uint32
	docAll []uint32          // every doc of one term of a prefix (appendDocs)
	blks   []format.DocBlock // the directory of a blocked doc window (collect)
	terms  []*termRef
	nterms int
	union  docSet  // unions of many doc lists (prefix expansions)
	cset   candSet // the candidates a list slot's terms are collected against
}

// release empties the scratch for the pool, dropping large buffers.
func (p *postingScratch) release() {
	if cap(p.docAll) > maxPooledDocs {
		p.docAll = nil
	}
	if cap(p.union.bits) > maxPooledDocs/8 || cap(p.union.buf) > maxPooledDocs {
		p.union = docSet{}
	}
	if p.cset.reset(); cap(p.cset.bits) > maxPooledDocs/8 {
		p.cset = candSet{}
	}
	for i := 0; i < p.nterms; i++ {
		p.terms[i].reset()
	}
	p.nterms = 0
}

// termRef is a resolved term of one query: its dict entry, where its postings
// live and (windowed) its parsed prelude, plus the per-query state of the
// conjunction and of its decoded positions. termRefs are pooled in the qctx.
type termRef struct {
	f        *field
	key      []byte // the term (owned copy)
	e        format.Entry
	start    uint64 // absolute offset of the posting data (slim, windowed)
	docStart uint64 // absolute offset of the first doc window (slim, windowed)
	pre      format.Prelude
	preBuf   []byte // the prelude's bytes when read through a ReaderAt
	nWin     int

	// conjunction state: the term's docs that are still candidates, with the
	// window (index into wins) and ordinal within it of each.
	docs  []uint32
	blks  []format.DocBlock // the block directory of a blocked window (leapfrog)
	where []int32
	ords  []uint32
	wins  []winInfo // windows that held a kept doc
	// the decode jobs of the kept docs: x.jobs[job0:job1], in doc order
	job0, job1 int
	kcur, jcur int        // verification cursors into docs and jobs
	cur        prx.Cursor // reads the positions of the window of job jcur
	open       bool       // cur is open on that window
	curWin     winInfo    // the window cur reads (for errors)
}

// winInfo locates one window of a term (absolute offsets).
type winInfo struct {
	idx            int    // window index within the term
	base, last     uint32 // last is MaxUint32 for single-window terms (unknown before decoding)
	docs           int
	docOff, docLen uint64
	prxOff, prxLen uint64
	maxTF          uint32 // windowed: the largest tf of the window (0: unknown)
	minNorm        byte   // windowed: the smallest norm byte of the window
}

func (t *termRef) reset() {
	t.f = nil
	t.e = format.Entry{}
	t.pre = format.Prelude{}
	t.docs, t.where, t.ords = t.docs[:0], t.where[:0], t.ords[:0]
	if cap(t.docs) > maxPooledDocs {
		t.docs, t.where, t.ords = nil, nil, nil
	}
	if cap(t.preBuf) > maxPooledBytes {
		t.preBuf = nil
	}
	t.wins = t.wins[:0]
	t.job0, t.job1 = 0, 0
	t.cur.Release() // drops a large inflation buffer
}

func (t *termRef) name() place {
	return place{index: t.f.meta.Name, term: string(t.key), window: -1}
}

// newTerm returns a pooled termRef for this query.
func (x *qctx) newTerm() *termRef {
	if x.nterms == len(x.terms) {
		x.terms = append(x.terms, &termRef{})
	}
	t := x.terms[x.nterms]
	x.nterms++
	return t
}

// resolve looks a term up; nil (and no error) when absent.
func (x *qctx) resolve(f *field, term []byte) (*termRef, error) {
	var e format.Entry
	found, err := f.lookup(x, term, &e)
	if err != nil || !found {
		return nil, err
	}
	return x.resolved(f, term, &e)
}

// resolved builds a termRef from a dict entry (reading the prelude of a
// windowed term).
func (x *qctx) resolved(f *field, term []byte, e *format.Entry) (*termRef, error) {
	t := x.newTerm()
	t.f = f
	t.key = append(t.key[:0], term...)
	t.e = *e
	s := f.seg
	m := &f.meta
	if e.DF > uint64(s.docCount) {
		return nil, s.corrupt(t.name(), "df %d in a segment of %d documents", e.DF, s.docCount)
	}
	switch e.Class {
	case format.ClassInline:
		t.nWin = 1
		return t, nil
	case format.ClassSlim, format.ClassWindowed:
	default:
		return nil, s.corrupt(t.name(), "unknown class %d", e.Class)
	}
	if err := e.CheckLocator(m.PostingLen); err != nil {
		return nil, s.wrap(t.name(), err)
	}
	t.start = m.PostingOff + e.Offset
	t.docStart = t.start + e.PrxLen
	if e.Class == format.ClassSlim {
		t.nWin = 1
		return t, nil
	}
	// Windowed: read exactly the prelude at the start of the doc-postings span.
	head, err := x.readInto(t.docStart, min(e.DocLen, 20), &t.preBuf)
	if err != nil {
		return nil, s.wrap(t.name().in("prelude"), err)
	}
	nw, p, ok1 := bitpack.ReadUvarint(head, 0)
	el, p, ok2 := bitpack.ReadUvarint(head, p)
	if !ok1 || !ok2 || nw == 0 || nw > e.DocLen || el > e.DocLen {
		return nil, s.corrupt(t.name().in("prelude"), "bad header (%d windows, %d entry bytes)", nw, el)
	}
	size := uint64(p) + 24*((nw+format.SuperBlockWindows-1)/format.SuperBlockWindows) + el + 4
	if size > e.DocLen {
		return nil, s.corrupt(t.name().in("prelude"), "%d bytes in a doc span of %d", size, e.DocLen)
	}
	pb, err := x.readInto(t.docStart, size, &t.preBuf)
	if err != nil {
		return nil, s.wrap(t.name().in("prelude"), err)
	}
	sums, verified := t.f.preludes.get(e.Offset)
	verified = verified && !x.fullCheck
	var pre format.Prelude
	var n int
	if verified {
		pre, n, err = format.ParseVerifiedPrelude(pb, sums)
	} else {
		pre, n, err = format.ParsePrelude(pb)
	}
	if err != nil {
		return nil, s.wrap(t.name().in("prelude"), err)
	}
	switch {
	case uint64(n) != size:
		return nil, s.corrupt(t.name().in("prelude"), "%d bytes, header says %d", n, size)
	case pre.DocCount() != e.DF:
		return nil, s.corrupt(t.name().in("prelude"), "%d docs, dict entry says df %d", pre.DocCount(), e.DF)
	case pre.PrxBytes() != e.PrxLen:
		return nil, s.corrupt(t.name().in("prelude"), "%d prx bytes, dict entry says %d", pre.PrxBytes(), e.PrxLen)
	case size+pre.DocBytes() != e.DocLen:
		return nil, s.corrupt(t.name().in("prelude"), "%d+%d doc bytes, dict entry says %d", size, pre.DocBytes(), e.DocLen)
	}
	if !verified {
		t.f.preludes.put(e.Offset, pre.Sums())
	}
	t.pre = pre
	t.nWin = pre.Len()
	t.docStart += size
	return t, nil
}

// verifiedPreludes maps a windowed term (the offset of its postings) to the
// sums of its prelude, once ParsePrelude has verified it. It is safe for
// concurrent use; its size is bounded by the field's windowed terms.
type verifiedPreludes struct {
	mu sync.RWMutex
	m  map[uint64]format.PreludeSums
}

func (v *verifiedPreludes) get(off uint64) (format.PreludeSums, bool) {
	v.mu.RLock()
	s, ok := v.m[off]
	v.mu.RUnlock()
	return s, ok
}

func (v *verifiedPreludes) put(off uint64, s format.PreludeSums) {
	v.mu.Lock()
	if v.m == nil {
		v.m = make(map[uint64]format.PreludeSums)
	}
	v.m[off] = s
	v.mu.Unlock()
}

// single returns the only window of an inline or slim term.
func (t *termRef) single() winInfo {
	w := winInfo{last: math.MaxUint32, docs: int(t.e.DF)}
	if t.e.Class == format.ClassSlim {
		w.docOff, w.docLen = t.docStart, t.e.DocLen
		w.prxOff, w.prxLen = t.start, t.e.PrxLen
	}
	return w
}

// winIter walks the windows of a term from some window on.
type winIter struct {
	t    *termRef
	cur  format.WindowCursor
	i    int
	done bool
}

func (t *termRef) windows(from int) winIter {
	it := winIter{t: t, i: from}
	if t.e.Class == format.ClassWindowed {
		it.cur = t.pre.Cursor(from)
	} else {
		it.done = from > 0
	}
	return it
}

// seek moves it forward (never back) so that its next window is the first
// whose last doc is at least doc (see format.WindowCursor.SeekForward); a term
// of one window is left as it is.
func (it *winIter) seek(doc uint32) error {
	t := it.t
	if t.e.Class != format.ClassWindowed {
		return nil
	}
	if err := it.cur.SeekForward(doc); err != nil {
		return t.f.seg.wrap(t.name().in("prelude"), err)
	}
	it.i = it.cur.Index()
	return nil
}

func (it *winIter) next() (winInfo, bool) {
	t := it.t
	if t.e.Class != format.ClassWindowed {
		if it.done {
			return winInfo{}, false
		}
		it.done = true
		it.i++
		return t.single(), true
	}
	w, ok := it.cur.Next()
	if !ok {
		return winInfo{}, false
	}
	wi := winInfo{
		idx: it.i, base: w.Base, last: w.LastDoc, docs: int(w.Docs),
		docOff: t.docStart + w.DocOff, docLen: w.DocLen,
		prxOff: t.start + w.PrxOff, prxLen: w.PrxLen,
		maxTF: w.MaxTF, minNorm: w.MinNorm,
	}
	it.i++
	return wi, true
}

// find returns the first window that may hold doc (nWin when none).
func (t *termRef) find(doc uint32) (int, error) {
	if t.e.Class != format.ClassWindowed {
		return 0, nil
	}
	i, err := t.pre.Find(doc)
	if err != nil {
		return 0, t.f.seg.wrap(t.name().in("prelude"), err)
	}
	return i, nil
}

// decodeDocs decodes the doc ids of one window into dst.
func (x *qctx) decodeDocs(t *termRef, w *winInfo, dst []uint32) ([]uint32, error) {
	s := t.f.seg
	var src []byte
	withCRC := true
	if t.e.Class == format.ClassInline {
		src, withCRC = t.e.Docs, false
	} else {
		var err error
		if src, err = x.readInto(w.docOff, w.docLen, &x.docSrc); err != nil {
			return dst, s.wrap(x.docWinName(t, w), err)
		}
	}
	// intcomp windows decode without allocating when dst has room for the docs
	// plus a quarter of the window's bytes (bounded by the bytes themselves).
	if need := w.docs + len(src)/4 + 16; cap(dst) < need && uint64(w.docs) <= 32*uint64(len(src)) {
		dst = make([]uint32, 0, need)
	}
	mark := false
	if withCRC {
		src, withCRC, mark = x.docWindowCRC(w.docOff, src)
	}
	docs, err := format.DecodeDocWindow(src, w.docs, w.base, withCRC, dst)
	if err != nil {
		return docs, s.wrap(x.docWinName(t, w), err)
	}
	if mark {
		x.s.crcs.MarkVerified(int64(w.docOff))
	}
	x.count.docWindows++
	x.count.docsDecoded += int64(len(docs))
	lastDoc := docs[len(docs)-1]
	if t.e.Class == format.ClassWindowed && lastDoc != w.last {
		return docs, s.corrupt(x.docWinName(t, w), "last doc %d, prelude says %d", lastDoc, w.last)
	}
	if lastDoc >= s.docCount {
		return docs, s.corrupt(x.docWinName(t, w), "doc %d in a segment of %d documents", lastDoc, s.docCount)
	}
	return docs, nil
}

func (x *qctx) docWinName(t *termRef, w *winInfo) place {
	return place{section: "doc window", index: t.f.meta.Name, term: string(t.key), window: w.idx}
}

func (x *qctx) prxWinName(t *termRef, w *winInfo) place {
	return place{section: "prx window", index: t.f.meta.Name, term: string(t.key), window: w.idx}
}

// collect fills t.docs/where/ords with the term's docs that are in cands (all
// its docs when all is set), decoding only the doc windows that can hold a
// candidate. Windows are skipped with the prelude (binary search) when the
// candidates are sparse compared with the windows.
func (x *qctx) collect(t *termRef, cands []uint32, all bool) error {
	t.docs, t.where, t.ords, t.wins = t.docs[:0], t.where[:0], t.ords[:0], t.wins[:0]
	if !all && len(cands) == 0 {
		return nil
	}
	x.planDocWindows(t, cands, all) // remote segments: one round
	sparse := len(cands)*gallopRatio < t.nWin
	it := t.windows(0)
	ci := 0
	total := 0
	for {
		if !all && ci == len(cands) {
			return nil
		}
		w, ok := it.next()
		if !ok {
			break
		}
		if err := x.check(); err != nil {
			return err
		}
		ce := 0
		if !all {
			c := cands[ci]
			if w.last < c {
				if sparse {
					if err := it.seek(c); err != nil {
						return err
					}
				}
				continue
			}
			ce = len(cands)
			if w.last != math.MaxUint32 {
				ce = seekGE(cands, ci, w.last+1)
			}
		}
		wIdx := int32(len(t.wins))
		kept := len(t.docs)
		if !all && t.e.Class == format.ClassWindowed && w.docs >= format.BlockedMinDocs {
			// Few candidates in a blocked window: decode only their blocks.
			ok, err := x.collectBlocks(t, &w, cands[ci:ce], wIdx)
			if err != nil {
				return err
			}
			if ok {
				ci = ce
				if len(t.docs) > kept {
					t.wins = append(t.wins, w)
				}
				continue
			}
		}
		docs, err := x.decodeDocs(t, &w, x.docBuf)
		x.docBuf = docs
		if err != nil {
			return err
		}
		total += len(docs)
		if all {
			n0 := len(t.docs)
			n1 := n0 + len(docs)
			t.docs = append(t.docs, docs...)
			t.where = slices.Grow(t.where, len(docs))[:n1]
			t.ords = slices.Grow(t.ords, len(docs))[:n1]
			where, ords := t.where[n0:n1], t.ords[n0:n1]
			for k := range where {
				where[k] = wIdx
				ords[k] = uint32(k)
			}
		} else {
			x.matchWindow(t, cands[ci:ce], docs, wIdx, 0)
			ci = ce
		}
		if len(t.docs) > kept {
			t.wins = append(t.wins, w)
		}
	}
	if all && uint64(total) != t.e.DF {
		return t.f.seg.corrupt(t.name(), "windows hold %d docs, dict entry says df %d", total, t.e.DF)
	}
	return nil
}

// appendDocs appends every doc of t to out, each doc window decoded straight
// into out's spare room: a term's answer needs none of the per-doc
// bookkeeping collect keeps for positions.
func (x *qctx) appendDocs(t *termRef, out []uint32) ([]uint32, error) {
	x.planDocWindows(t, nil, true) // remote segments: one round
	n0 := len(out)
	// Room for every doc up front when the bytes can hold them (a corrupt
	// df must not make the reader allocate: a doc takes at least 1/64 byte
	// in any doc window form, see docsFit); the windows grow it otherwise.
	if df := t.e.DF; df <= uint64(t.f.seg.docCount) && docsFit(df, t.e.DocLen+uint64(len(t.e.Docs))) {
		out = slices.Grow(out, int(df)+16)
	}
	it := t.windows(0)
	for {
		w, ok := it.next()
		if !ok {
			break
		}
		if err := x.check(); err != nil {
			return out, err
		}
		// decodeDocs decodes in place given the room it asks for (see there).
		if docsFit(uint64(w.docs), w.docLen+uint64(len(t.e.Docs))) {
			out = slices.Grow(out, w.docs+int(min(w.docLen/4, uint64(w.docs)))+16)
		}
		n := len(out)
		docs, err := x.decodeDocs(t, &w, out[n:n])
		if err != nil {
			return out[:n], err
		}
		if len(docs) > 0 && &docs[0] == &out[:n+1][n] {
			out = out[:n+len(docs)]
		} else {
			out = append(out, docs...)
		}
	}
	if got := len(out) - n0; uint64(got) != t.e.DF {
		return out, t.f.seg.corrupt(t.name(), "windows hold %d docs, dict entry says df %d", got, t.e.DF)
	}
	return out, nil
}

// docsFit reports whether n doc ids can be held in a doc window of the given
// bytes: at most 64 per byte (a blocked window's 128 docs take a block token
// and at least two directory bytes; uvarint gaps and intcomp take more), plus
// a block's worth.
func docsFit(n, bytes uint64) bool { return n <= 64*bytes+128 }

// collectBlocks matches cands (all within window w) against the blocks of w
// that can hold them, when w is blocked and the candidates are fewer than a
// quarter of its docs; ok false leaves w to be decoded whole.
func (x *qctx) collectBlocks(t *termRef, w *winInfo, cands []uint32, wIdx int32) (bool, error) {
	if len(cands)*4 > w.docs {
		return false, nil
	}
	src, err := x.readInto(w.docOff, w.docLen, &x.docSrc)
	if err != nil {
		return false, t.f.seg.wrap(x.docWinName(t, w), err)
	}
	if !format.IsBlocked(src) {
		return false, nil
	}
	if w.last >= t.f.seg.docCount {
		return false, t.f.seg.corrupt(x.docWinName(t, w), "last doc %d in a segment of %d documents", w.last, t.f.seg.docCount)
	}
	src, withCRC, mark := x.docWindowCRC(w.docOff, src)
	bw, err := format.ParseBlocked(src, w.docs, w.base, w.last, withCRC, false, x.blks)
	if err != nil {
		return false, t.f.seg.wrap(x.docWinName(t, w), err)
	}
	if mark {
		x.s.crcs.MarkVerified(int64(w.docOff))
	}
	x.blks = bw.Blocks
	x.count.docWindows++
	b := 0
	for i := 0; i < len(cands); {
		if b = bw.Find(b, cands[i]); b == len(bw.Blocks) {
			break
		}
		blk := &bw.Blocks[b] // cands[i] is in [blk.Base, blk.Last]
		e := len(cands)
		if blk.Last < math.MaxUint32 {
			e = seekGE(cands, i, blk.Last+1)
		}
		docs, err := bw.Decode(b, x.docBuf)
		x.docBuf = docs
		if err != nil {
			return false, t.f.seg.wrap(x.docWinName(t, w), err)
		}
		x.count.docBlocks++
		x.count.docsDecoded += int64(len(docs))
		x.matchWindow(t, cands[i:e], docs, wIdx, int(blk.Ord))
		i = e
		b++
	}
	return true, nil
}

// addDoc keeps doc d, found at ordinal ord of the term's window wIdx.
func (t *termRef) addDoc(d uint32, wIdx int32, ord int) {
	t.docs = append(t.docs, d)
	t.where = append(t.where, wIdx)
	t.ords = append(t.ords, uint32(ord))
}

// matchWindow appends the candidates found in a window's docs (merging, or
// galloping in the window when it is much larger than the candidates).
func (x *qctx) matchWindow(t *termRef, cands, docs []uint32, wIdx int32, ord0 int) {
	if x.cset.on && len(cands)*gallopRatio > len(docs) {
		x.matchSet(t, docs, wIdx, ord0) // a list slot's term against many candidates
		return
	}
	if len(cands)*gallopRatio <= len(docs) {
		x.count.docsVisited += int64(len(cands))
		j := 0
		for _, c := range cands {
			j = seekGE(docs, j, c)
			if j == len(docs) {
				return
			}
			if docs[j] == c {
				t.addDoc(c, wIdx, ord0+j)
				j++
			}
		}
		return
	}
	if len(docs)*gallopRatio <= len(cands) {
		// Few docs against many candidates (a prefix expansion against the
		// docs of a frequent term): gallop in the candidates, so the cost
		// follows the docs, not the candidates.
		i := 0
		x.count.docsVisited += int64(len(docs))
		for j, d := range docs {
			i = seekGE(cands, i, d)
			if i == len(cands) {
				return
			}
			if cands[i] == d {
				t.addDoc(d, wIdx, ord0+j)
				i++
			}
		}
		return
	}
	x.count.docsVisited += int64(mergeWindow(t, cands, docs, wIdx, ord0))
}

// mergeWindow is matchWindow's merge of cands and docs (neither much the
// larger): it walks the docs, the candidate to find held in a register, and
// moves to the next candidate only at a doc at or beyond it. It returns how
// many candidates and docs it stepped past.
func mergeWindow(t *termRef, cands, docs []uint32, wIdx int32, ord0 int) int {
	if len(cands) == 0 {
		return 0
	}
	i, c := 0, cands[0]
	for j, d := range docs {
		if d < c {
			continue
		}
		for c < d { // candidates that are not in the window
			if i++; i == len(cands) {
				return i + j
			}
			c = cands[i]
		}
		if c == d {
			t.addDoc(c, wIdx, ord0+j)
			if i++; i == len(cands) {
				return i + j + 1
			}
			c = cands[i]
		}
	}
	return i + len(docs)
}

// keep restricts t's conjunction state to the docs in final (ascending), in
// place: it walks the shorter of final and t.docs and gallops in the other (a
// prefix's rare expansion against many candidates, or a frequent term against
// few).
func (t *termRef) keep(final []uint32) {
	n := 0
	if len(t.docs) < len(final) {
		// Few docs (a prefix's rare expansion): walk them, galloping in final.
		j := 0
		for k, d := range t.docs {
			j = seekGE(final, j, d)
			if j == len(final) {
				break
			}
			if final[j] == d {
				t.docs[n], t.where[n], t.ords[n] = d, t.where[k], t.ords[k]
				n++
				j++
			}
		}
	} else {
		k := 0
		for _, d := range final {
			k = seekGE(t.docs, k, d)
			if k == len(t.docs) {
				break
			}
			if t.docs[k] == d {
				t.docs[n], t.where[n], t.ords[n] = d, t.where[k], t.ords[k]
				n++
				k++
			}
		}
	}
	t.docs, t.where, t.ords = t.docs[:n], t.where[:n], t.ords[:n]
}
