package writer

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"os"
	"slices"
	"unsafe"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
)

// Pair counting. The pairs of a field are counted over the terms with df
// >= the minimum pair df ("tracked"), which the postings the window emitter
// receives decide (pairTap), so every build path and merges count the same
// pairs. There are three ways, all giving the same pairs and docs:
//
//   - A build without spills has a forward index of the index (pairfwd.go):
//     each document's term ids by position, recorded as documents are added
//     (past its memory share, in a temp file). The tap keeps only each
//     tracked term's token count; groups reads each document's adjacent
//     tracked tokens off the forward index into one bucket per first term
//     (room for one record per token of the term, so the writes go to a
//     place per term) and sorts a bucket by second term (a counting sort)
//     as it walks the pairs. When the buckets pass MemoryLimit/4, the first
//     terms are cut into ranges that fit, each filled by a pass of its own
//     over the forward index; past maxPairPasses such passes the pairs go
//     to the record sorter (pairRecs) instead, document by document. A
//     term's docs (for co) are read back from the term buffer.
//   - Otherwise (spilled builds, merges, an analyzer that repeats a
//     position) the stream is all there is. It is term-major, and pairs need
//     each document's tokens in position order: the tap keeps the tracked
//     terms' positions (4 bytes each) and per posting its doc and position
//     count, then scatters them into per-document buckets by a counting sort
//     on the doc (one pass; the documents' sizes are known by then) and finds
//     the adjacent tokens of each document with a position-indexed slot
//     table (docPairs).
//   - Past that in-memory counting's share (MemoryLimit/2, estimated from
//     the tokens and postings) the tokens move to an external sorter by
//     (doc, position) that spills sorted runs, and the doc lists to a temp
//     file: slower, the same pairs.
//
// The doc lists of the tracked terms give a candidate pair its
// co-occurrence |A ∩ B| (the documents holding both terms), which the
// selection's gain uses; selectPairs asks for it only where the order
// depends on it.

// A tracked token of one document: position<<32 | term ordinal (so that
// tokens sort by position, then term).
func tokPos(t uint64) uint32 { return uint32(t >> 32) }
func tokOrd(t uint64) uint32 { return uint32(t) }

// pairTap passes a PostingSource through to the emitter and records the
// tracked terms' postings (see above).
type pairTap struct {
	src   PostingSource
	minDF uint64
	docs  uint64 // documents of the segment
	limit int64  // bytes the in-memory counting may take (see newPairTap)

	arena []byte   // the tracked terms' bytes
	ends  []uint32 // arena end of tracked term i
	dfs   []uint64 // df of tracked term i
	cur   int64    // ordinal of the current term, -1 when untracked

	lists u32Store // the docs of every tracked term, term after term
	lends []uint64 // end of tracked term i's docs in lists

	// in memory (toks == nil)
	pos  []uint32 // the tracked tokens' positions, in stream order
	npos []uint32 // positions of each posting, in stream order

	toks      *extSorter // past the limit: k = doc<<32 | position, v = term ordinal
	newSorter func() *extSorter
	raw       []byte // where lazyMap: the mapping that holds pos, npos and lists.mem as sized up front

	// A tap made from a forward index (a build without spills; pairFwd.tap)
	// wraps no stream: it has the tracked terms and their token counts, count
	// reads the pairs off the forward index, and termDocs reads a term's docs
	// back from the term buffer.
	fwd   *pairFwd
	ntok  uint64   // tracked tokens
	tends []uint64 // ntok at the end of tracked term i
}

func (t *pairTap) NextTerm() ([]byte, uint64, bool, error) {
	if t.cur >= 0 {
		t.endTerm()
	}
	term, df, ok, err := t.src.NextTerm()
	t.cur = -1
	if ok && err == nil && df >= t.minDF {
		if len(t.dfs) == math.MaxUint32 {
			return nil, 0, false, errs.Limitf("pairs: more than 2^32-1 terms")
		}
		t.cur = int64(len(t.dfs))
		t.arena = append(t.arena, term...)
		t.ends = append(t.ends, uint32(len(t.arena)))
		t.dfs = append(t.dfs, df)
	}
	return term, df, ok, err
}

func (t *pairTap) NextDoc() (uint32, []uint32, bool, error) {
	doc, pos, ok, err := t.src.NextDoc()
	if !ok || err != nil || t.cur < 0 {
		return doc, pos, ok, err
	}
	if err := t.lists.add(doc); err != nil {
		return 0, nil, false, err
	}
	if t.toks == nil {
		t.pos = append(t.pos, pos...)
		t.npos = append(t.npos, uint32(len(pos)))
		if 20*int64(len(t.pos))+8*int64(len(t.npos)) > t.limit {
			if err := t.toSorter(); err != nil {
				return 0, nil, false, err
			}
		}
		return doc, pos, ok, nil
	}
	for _, p := range pos {
		if err := t.toks.add(uint64(doc)<<32|uint64(p), uint32(t.cur)); err != nil {
			return 0, nil, false, err
		}
	}
	return doc, pos, ok, nil
}

// free releases the token sorter (after counting, or when the field's
// build stops early).
func (t *pairTap) free() {
	if t != nil && t.toks != nil {
		t.toks.free()
		t.toks = nil
	}
}

// close releases every buffer of the tap: t is unusable after.
func (t *pairTap) close() {
	t.free()
	if t.raw != nil {
		_ = unmapRaw(t.raw)
	}
	t.raw, t.pos, t.npos, t.lists.mem = nil, nil, nil, nil
}

// dropTokens lets go of pos and npos: where mapped, the whole pages of
// their part of the mapping go back to the system (lists.mem follows them
// and stays).
func (t *pairTap) dropTokens() {
	if t.raw != nil {
		dropPages(t.raw[:len(t.raw)/3*2/os.Getpagesize()*os.Getpagesize()])
	}
	t.pos, t.npos = nil, nil
}

// sizeBuffers sizes pos, npos and lists.mem for n values each, outside the
// Go heap where lazyMap (no collection cycle for them; close gives them
// back). A slice that grows past n moves to the heap.
func (t *pairTap) sizeBuffers(n uint64) {
	if lazyMap && n >= 1024 {
		if raw, err := mapRaw(int(12 * n)); err == nil {
			t.raw = raw
			all := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(raw))), 3*n)
			t.pos, t.npos, t.lists.mem = all[:0:n], all[n:n:2*n], all[2*n:2*n:3*n]
			return
		}
	}
	t.pos, t.npos, t.lists.mem = make([]uint32, 0, n), make([]uint32, 0, n), make([]uint32, 0, n)
}

// endTerm closes the current tracked term.
func (t *pairTap) endTerm() {
	t.lends = append(t.lends, t.lists.n)
}

// toSorter moves the tokens held in memory to the external sorter (the
// current term's postings so far included) and lets the doc lists spill.
func (t *pairTap) toSorter() error {
	t.toks = t.newSorter()
	var (
		ord  uint32
		next uint64 // end of term ord's postings
		p    int
	)
	if len(t.lends) > 0 {
		next = t.lends[0]
	} else {
		next = t.lists.n
	}
	err := t.lists.each(0, t.lists.n, func(i uint64, doc uint32) error {
		for i == next {
			ord++
			next = t.lists.n
			if int(ord) < len(t.lends) {
				next = t.lends[ord]
			}
		}
		n := int(t.npos[i])
		for _, q := range t.pos[p : p+n] {
			if err := t.toks.add(uint64(doc)<<32|uint64(q), ord); err != nil {
				return err
			}
		}
		p += n
		return nil
	})
	t.dropTokens()
	t.lists.spillable = true
	return err
}

// term returns tracked term i.
func (t *pairTap) term(i uint32) []byte {
	var lo uint32
	if i > 0 {
		lo = t.ends[i-1]
	}
	return t.arena[lo:t.ends[i]]
}

// termDocs returns the docs of tracked term i (into scratch when read from
// the temp file).
func (t *pairTap) termDocs(i uint32, scratch []uint32) ([]uint32, error) {
	if t.fwd != nil {
		return t.fwd.termDocs(i, scratch)
	}
	var lo uint64
	if i > 0 {
		lo = t.lends[i-1]
	}
	return t.lists.slice(lo, t.lends[i], scratch)
}

// count adds a (pair, doc) record to pw.pairs for every distinct pair of
// tracked terms at adjacent positions of a document.
func (pw *pairWriter) count() error {
	t := pw.tap
	if t.cur >= 0 { // the stream ended inside a tracked term (a source error stops earlier)
		t.endTerm()
		t.cur = -1
	}
	if f := t.fwd; f != nil {
		if f.tracked != uint32(len(t.dfs)) || f.docs() != t.docs {
			return errs.Corruptf("pair counting: %d terms tracked in %d docs, the forward index has %d in %d", len(t.dfs), t.docs, f.tracked, f.docs())
		}
		fl := pw.w.opts.faults
		if f.spilled() && fl != nil {
			fl.pairFwdFile++
		}
		if err := f.toFile(); err != nil {
			return err
		}
		budget := pw.w.opts.MemoryLimit / 4
		if fl != nil && fl.pairBucket > 0 {
			budget = fl.pairBucket
		}
		if fl == nil || !fl.pairRecords {
			if fb := pw.newFwdBuckets(budget); fb != nil {
				fl.countPath(0)
				pw.fb = fb
				return nil // groups fills the buckets
			}
		}
		// A document gives at most one record per tracked token.
		fl.countPath(1)
		pw.pairs.reserve(t.ntok)
		return f.each(2, pw.w.ctx.Err, func(d uint64, slots []uint32, sparse bool) error {
			return f.addPairs(uint32(d), slots, sparse, pw.pairs)
		})
	}
	pw.w.opts.faults.countPath(2)
	if t.toks == nil && t.docs > 4*uint64(len(t.pos))+1<<20 { // a bucket table far larger than the tokens
		if err := t.toSorter(); err != nil {
			return err
		}
	}
	if t.toks != nil {
		err := pw.countSorted()
		t.free() // read: its buffers go before the pairs are selected
		return err
	}
	// A doc holds no more distinct pairs than tracked tokens.
	pw.pairs.reserve(uint64(len(t.pos)))
	return pw.countMemory()
}

// countMemory scatters the tokens held in memory into per-document buckets
// (a counting sort on the doc) and counts each document's pairs.
func (pw *pairWriter) countMemory() error {
	t := pw.tap
	if len(t.pos) == 0 {
		return nil
	}
	docs, _ := t.lists.slice(0, t.lists.n, nil) // in memory on this path
	// off[d+1] counts doc d's tokens, then becomes its bucket's end.
	off := make([]uint32, t.docs+1)
	for i, d := range docs {
		off[d+1] += t.npos[i]
	}
	for d := 1; d < len(off); d++ {
		off[d] += off[d-1]
	}
	// Doc-major tokens, pos<<32 | ord; the pair sort reuses the array as
	// its scratch (a doc has no more distinct pairs than tokens).
	bucket := make([]uint64, len(t.pos))
	fill := off[: len(off)-1 : len(off)-1] // fill[d]: next free slot of doc d
	var ord uint32
	p := 0
	for i, d := range docs {
		for uint64(i) == t.lends[ord] {
			ord++
		}
		n := int(t.npos[i])
		at := fill[d]
		for j, q := range t.pos[p : p+n] {
			bucket[int(at)+j] = uint64(q)<<32 | uint64(ord)
		}
		fill[d] = at + uint32(n)
		p += n
	}
	t.dropTokens() // no longer needed: let the pair records reuse the memory
	// fill[d] is now doc d's end, and doc d starts at doc d-1's end.
	var lo uint32
	for d, hi := range fill {
		if d&0x3fff == 0x3fff {
			if err := pw.w.ctx.Err(); err != nil {
				return err
			}
		}
		if hi-lo >= 2 {
			if err := pw.docPairs(bucket[lo:hi], uint32(d)); err != nil {
				return err
			}
		}
		lo = hi
	}
	pw.pairs.scratch = bucket[:0]
	return nil
}

// countSorted walks the external sorter's tokens, in (doc, position) order,
// one document at a time.
func (pw *pairWriter) countSorted() error {
	var doc []uint64
	var cur uint32
	return pw.walk(pw.tap.toks.iter(), func(r rec, ok bool) error {
		if !ok || (len(doc) > 0 && uint32(r.k>>32) != cur) {
			if err := pw.docPairs(doc, cur); err != nil {
				return err
			}
			doc = doc[:0]
		}
		if ok {
			cur = uint32(r.k >> 32)
			doc = append(doc, uint64(uint32(r.k))<<32|uint64(r.v))
		}
		return nil
	})
}

// docPairs adds the distinct pairs of one document's tracked tokens (in any
// order) as (pair, doc) records.
func (pw *pairWriter) docPairs(toks []uint64, doc uint32) error {
	if len(toks) < 2 {
		return nil
	}
	lo, hi := tokPos(toks[0]), tokPos(toks[0])
	for _, t := range toks[1:] {
		lo, hi = min(lo, tokPos(t)), max(hi, tokPos(t))
	}
	pw.set.reset(len(toks))
	if span := uint64(hi-lo) + 1; span <= 4*uint64(len(toks))+64 && pw.slotPairs(toks, lo, int(span)) {
		return pw.set.flush(pw.pairs, doc)
	}
	// Several terms at one position (or sparse positions): sort by
	// (position, term) and pair each position's terms with the next one's.
	slices.Sort(toks)
	for i := 0; i < len(toks); {
		p := tokPos(toks[i])
		end := i + 1
		for end < len(toks) && tokPos(toks[end]) == p {
			end++
		}
		if end < len(toks) && p != math.MaxUint32 && tokPos(toks[end]) == p+1 {
			e2 := end + 1
			for e2 < len(toks) && tokPos(toks[e2]) == p+1 {
				e2++
			}
			for _, a := range toks[i:end] {
				for _, b := range toks[end:e2] {
					pw.set.add(uint64(tokOrd(a))<<32 | uint64(tokOrd(b)))
				}
			}
		}
		i = end
	}
	return pw.set.flush(pw.pairs, doc)
}

// slotPairs finds the pairs of toks through a table indexed by position
// (positions lo .. lo+span-1). It returns false, having added nothing, when
// two tokens share a position.
func (pw *pairWriter) slotPairs(toks []uint64, lo uint32, span int) bool {
	if cap(pw.slots) < span+1 {
		pw.slots = make([]int32, 2*(span+1))
		for i := range pw.slots {
			pw.slots[i] = -1
		}
	}
	slots := pw.slots[:span+1] // slot span stays -1: the position after the last
	ok := true
	n := 0
	for i, t := range toks {
		s := tokPos(t) - lo
		if slots[s] >= 0 {
			ok = false
			break
		}
		slots[s] = int32(i)
		n++
	}
	if ok {
		for _, t := range toks {
			if j := slots[tokPos(t)-lo+1]; j >= 0 {
				pw.set.add(uint64(tokOrd(t))<<32 | uint64(tokOrd(toks[j])))
			}
		}
	}
	for _, t := range toks[:n] {
		slots[tokPos(t)-lo] = -1
	}
	return ok
}

// pairSet collects the distinct pair ids of one document: by a linear scan
// for a few tokens, else in an open-addressing table (0 marks an empty slot,
// so ids are stored plus one).
type pairSet struct {
	tab    []uint64
	shft   uint
	linear bool
	ids    []uint64
	hs     []uint64 // the table slots used
}

// setLinear is the most tokens a document may have for the linear scan.
const setLinear = 12

func (s *pairSet) reset(n int) {
	s.ids, s.hs = s.ids[:0], s.hs[:0]
	if s.linear = n <= setLinear; s.linear {
		return
	}
	size := 1 << bits.Len(uint(2*n))
	if len(s.tab) < size {
		s.tab = make([]uint64, size)
	}
	s.shft = uint(64 - bits.Len(uint(size-1)))
}

func (s *pairSet) add(id uint64) {
	if s.linear {
		for _, x := range s.ids {
			if x == id {
				return
			}
		}
		s.ids = append(s.ids, id)
		return
	}
	mask := uint64(len(s.tab) - 1)
	for h := (id * 0x9e3779b97f4a7c15) >> s.shft; ; h = (h + 1) & mask {
		switch s.tab[h] {
		case 0:
			s.tab[h] = id + 1
			s.ids = append(s.ids, id)
			s.hs = append(s.hs, h)
			return
		case id + 1:
			return
		}
	}
}

// flush adds the collected ids as records (id, doc) and empties the table.
func (s *pairSet) flush(to *pairRecs, doc uint32) error {
	for _, h := range s.hs {
		s.tab[h] = 0
	}
	for _, id := range s.ids {
		if err := to.add(id, doc); err != nil {
			return err
		}
	}
	return nil
}

// bothDocs appends to dst the documents holding both tracked terms a and b
// (A ∩ B), ascending, in about min(df_b, docs/64) steps plus their number
// (and df_a once per first term a): a dense term (df >= docs/64, so that its bitmap is no larger than
// twice its doc list) gets a bitmap of the segment's docs on first use
// (while the bitmaps' share lasts; past it, the first term of the pairs
// being counted gets a scratch one); two bitmaps are intersected word by
// word, a list is tested against a bitmap, and past maxPairBitmapDocs two
// lists are merged. dst must not alias the writer's scratch.
func (pw *pairWriter) bothDocs(a, b uint32, dst []uint32) ([]uint32, error) {
	ba, err := pw.bitmapOf(a)
	if err != nil {
		return dst, err
	}
	bb, err := pw.bitmapOf(b)
	if err != nil {
		return dst, err
	}
	if ba != nil && bb != nil {
		for i, w := range ba {
			for w &= bb[i]; w != 0; w &= w - 1 {
				dst = append(dst, uint32(i<<6|bits.TrailingZeros64(w)))
			}
		}
		return dst, nil
	}
	if ba == nil && bb != nil {
		a, b, ba, bb = b, a, bb, ba
	}
	if ba != nil { // b is sparse
		return pw.probeDocs(b, ba, dst)
	}
	if !pw.haveA || pw.aTerm != a { // calls come with a ascending: keep a's docs
		if pw.aSet {
			for _, d := range pw.adocs {
				pw.aBits[d>>6] = 0
			}
			pw.aSet = false
		}
		docs, err := pw.tap.termDocs(a, pw.scratch)
		if err != nil {
			return dst, err
		}
		pw.adocs = append(pw.adocs[:0], docs...)
		pw.scratch = docs[:0]
		pw.aTerm, pw.haveA = a, true
		if pw.tap.docs <= maxPairBitmapDocs { // a's docs as a bitmap too, while a lasts
			if pw.aBits == nil {
				pw.aBits = make([]uint64, (pw.tap.docs+63)/64)
			}
			for _, d := range pw.adocs {
				pw.aBits[d>>6] |= 1 << (d & 63)
			}
			pw.aSet = true
		}
	}
	if pw.aSet { // b's docs tested against a's bitmap
		return pw.probeDocs(b, pw.aBits, dst)
	}
	y, err := pw.tap.termDocs(b, pw.scratch)
	if err != nil {
		return dst, err
	}
	pw.scratch = y[:0]
	x := pw.adocs
	for i, j := 0, 0; i < len(x) && j < len(y); {
		switch {
		case x[i] < y[j]:
			i++
		case x[i] > y[j]:
			j++
		default:
			dst = append(dst, x[i])
			i++
			j++
		}
	}
	return dst, nil
}

// probeDocs appends to dst the docs of tracked term t whose bit is set in
// bm, ascending: straight off its kept varint gaps when the pair counting
// has them (pairFwd.termDocs), else from its doc list.
func (pw *pairWriter) probeDocs(t uint32, bm []uint64, dst []uint32) ([]uint32, error) {
	if f := pw.tap.fwd; f != nil {
		if l, ok := f.cache[t]; ok {
			return l.probe(bm, dst), nil
		}
	}
	docs, err := pw.tap.termDocs(t, pw.scratch)
	if err != nil {
		return dst, err
	}
	pw.scratch = docs[:0]
	for _, d := range docs {
		if bm[d>>6]>>(d&63)&1 != 0 {
			dst = append(dst, d)
		}
	}
	return dst, nil
}

// exceptions returns co = |A ∩ B| for pair id (terms a, b) holding docs,
// and the documents of A ∩ B without the pair (in pw.exc) when its
// complement entry may be shorter than listLen bytes (the list entry's);
// else exc is nil and full false.
func (pw *pairWriter) exceptions(id uint64, docs []uint32, listLen int) (co uint64, exc []uint32, full bool, err error) {
	a, b := uint32(id>>32), uint32(id)
	exc = pw.exc[:0]
	ba, err := pw.bitmapOf(a)
	if err != nil {
		return 0, nil, false, err
	}
	bb, err := pw.bitmapOf(b)
	if err != nil {
		return 0, nil, false, err
	}
	if ba != nil && bb != nil {
		for i, w := range ba {
			co += uint64(bits.OnesCount64(w & bb[i]))
		}
		if !pw.mayComplement(a, b, uint64(len(docs)), co, listLen) {
			return co, nil, false, pw.checkCo(a, b, docs, co)
		}
		// Word by word: the pair's docs (a subset of A ∩ B) are cleared
		// from each word of A ∩ B, and what is left are the exceptions.
		j := 0
		for i, w := range ba {
			if w &= bb[i]; w == 0 {
				continue
			}
			for ; j < len(docs) && int(docs[j]>>6) == i; j++ {
				w &^= 1 << (docs[j] & 63)
			}
			for ; w != 0; w &= w - 1 {
				exc = append(exc, uint32(i<<6|bits.TrailingZeros64(w)))
			}
		}
	} else {
		both, err := pw.bothDocs(a, b, pw.both[:0])
		pw.both = both[:0]
		if err != nil {
			return 0, nil, false, err
		}
		co = uint64(len(both))
		if !pw.mayComplement(a, b, uint64(len(docs)), co, listLen) {
			return co, nil, false, pw.checkCo(a, b, docs, co)
		}
		i := 0
		for _, d := range both {
			for i < len(docs) && docs[i] < d {
				i++
			}
			if i < len(docs) && docs[i] == d {
				continue
			}
			exc = append(exc, d)
		}
	}
	pw.exc = exc[:0]
	if uint64(len(docs))+uint64(len(exc)) != co { // the counting lost track of a document
		return 0, nil, false, errs.Corruptf("pair %q %q: in %d docs, its terms together in %d, %d of them without it", pw.tap.term(a), pw.tap.term(b), len(docs), co, len(exc))
	}
	return co, exc, true, nil
}

// mayComplement reports whether the complement entry of pair (a, b) in df
// docs, its terms together in co, may be shorter than listLen bytes.
func (pw *pairWriter) mayComplement(a, b uint32, df, co uint64, listLen int) bool {
	return format.PairComplementMinLen(len(pw.tap.term(a)), len(pw.tap.term(b)), df, co) < listLen
}

// checkCo checks that the pair's terms are together in at least its docs.
func (pw *pairWriter) checkCo(a, b uint32, docs []uint32, co uint64) error {
	if co < uint64(len(docs)) { // the counting lost track of a document
		return errs.Corruptf("pair %q %q: in %d docs, its terms together in %d", pw.tap.term(a), pw.tap.term(b), len(docs), co)
	}
	return nil
}

// bitmapOf returns the bitmap of dense term t's docs (nil for a sparse term,
// when the segment has more than maxPairBitmapDocs documents, or when the
// bitmaps made so far took their share of memory).
func (pw *pairWriter) bitmapOf(t uint32) ([]uint64, error) {
	docs := pw.tap.docs
	if !denseTerm(pw.tap.dfs[t], docs) {
		return nil, nil
	}
	if pw.bitmaps == nil {
		pw.bitmaps = make(map[uint32][]uint64)
	}
	if bm, ok := pw.bitmaps[t]; ok {
		return bm, nil
	}
	size := int64((docs + 63) / 64)
	if 8*size > pw.bitsLeft {
		return nil, nil
	}
	pw.bitsLeft -= 8 * size
	ds, err := pw.tap.termDocs(t, pw.scratch)
	if err != nil {
		return nil, err
	}
	pw.scratch = ds[:0]
	bm := make([]uint64, size)
	for _, d := range ds {
		bm[d>>6] |= 1 << (d & 63)
	}
	pw.bitmaps[t] = bm
	return bm, nil
}

// denseTerm reports whether the co-occurrence counting keeps a term in df of
// docs documents as a bitmap (no larger than twice its doc list).
func denseTerm(df, docs uint64) bool { return docs <= maxPairBitmapDocs && df*64 >= docs }

// maxPairBitmapDocs: segments with more documents count co-occurrences by
// merging doc lists only.
const maxPairBitmapDocs = 1 << 27

// u32Store is an append-only list of uint32 values: in memory, or, once
// spillable and past its limit, in a temp file (read back with ReadAt).
type u32Store struct {
	mem       []uint32
	n         uint64 // values added
	limit     int    // values kept in memory once spillable
	spillable bool
	file      *tempFile
	create    func() (*tempFile, error)
	flushed   uint64 // values in the file
	out, raw  []byte
}

func (s *u32Store) add(v uint32) error {
	s.mem = append(s.mem, v)
	s.n++
	if s.spillable && len(s.mem) >= s.limit {
		return s.flush()
	}
	return nil
}

// flush writes the values in memory to the file.
func (s *u32Store) flush() error {
	if s.file == nil {
		f, err := s.create()
		if err != nil {
			return err
		}
		s.file = f
	}
	b := s.out[:0]
	for _, v := range s.mem {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	s.out = b
	if _, err := s.file.Write(b); err != nil {
		return fmt.Errorf("writer: spill pair doc lists: %w", err)
	}
	s.flushed += uint64(len(s.mem))
	s.mem = s.mem[:0]
	return nil
}

// slice returns values [lo, hi): a view of memory when nothing was spilled,
// else read into scratch.
func (s *u32Store) slice(lo, hi uint64, scratch []uint32) ([]uint32, error) {
	if s.file == nil {
		return s.mem[lo:hi], nil
	}
	if s.flushed < s.n { // the tail, so that every value is in the file
		if err := s.flush(); err != nil {
			return nil, err
		}
	}
	need := int(4 * (hi - lo))
	if cap(s.raw) < need {
		s.raw = make([]byte, need)
	}
	raw := s.raw[:need]
	if _, err := s.file.ReadAt(raw, int64(4*lo)); err != nil {
		return nil, errs.Corruptf("writer: read pair doc lists: %v", err)
	}
	out := scratch[:0]
	for i := 0; i < need; i += 4 {
		out = append(out, binary.LittleEndian.Uint32(raw[i:]))
	}
	return out, nil
}

// each calls fn with every value of [lo, hi) and its index.
func (s *u32Store) each(lo, hi uint64, fn func(i uint64, v uint32) error) error {
	vs, err := s.slice(lo, hi, nil)
	if err != nil {
		return err
	}
	for k, v := range vs {
		if err := fn(lo+uint64(k), v); err != nil {
			return err
		}
	}
	return nil
}
