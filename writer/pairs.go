package writer

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
)

// Pair index settings (see Pairs and docs/FORMAT.md, "Pair section").
const (
	// DefaultPairsPercent is the pair budget when Pairs.Percent is 0: 10% of
	// the field's .prx bytes.
	DefaultPairsPercent = 10
	// PairsOff as Pairs.Percent writes no pairs.
	PairsOff = -1
	// DefaultPairsMinDF and PairsMinDFDocs give the minimum pair df when
	// Pairs.MinDF is 0: max(DefaultPairsMinDF, ceil(docs / PairsMinDFDocs),
	// ceil(tokens / 65536)), tokens being the field's positions (its sum of
	// ttf; see minDFUsed).
	DefaultPairsMinDF = 64
	PairsMinDFDocs    = 10000
)

// pairsMinDFTokens is the default rule's share of the field's tokens: a pair
// must be in at least one document per pairsMinDFTokens positions of the
// field. A phrase is asked in proportion to the share of the text that holds
// it, so the text repeated k times keeps the candidates of one copy (every
// pair's df, and the bound, k times as large) instead of admitting pairs k
// times rarer.
const pairsMinDFTokens = 1 << 16

// Pairs configure the phrase-pair index: per field, docs-only
// postings of adjacent term pairs, chosen under a byte budget. The zero value
// is the default (10% of the .prx bytes, the default minimum df).
type Pairs struct {
	// Percent is the budget in percent of the field's .prx bytes (frames in
	// the posting region and inline): 0 = DefaultPairsPercent, PairsOff = no
	// pairs, else 1..100.
	Percent int
	// MinDF is the fewest documents a pair must occur in to be kept: 0 =
	// max(DefaultPairsMinDF, ceil(docs/PairsMinDFDocs), ceil(tokens/65536))
	// (tokens: the field's positions), else >= 1.
	MinDF int
}

// Validate reports an invalid setting (an error wrapping ErrInvalidArgument).
func (p Pairs) Validate() error {
	if p.Percent < PairsOff || p.Percent > 100 {
		return errs.Invalidf("pairs: percent %d (want -1 for off, 0 for the default, or 1..100)", p.Percent)
	}
	if p.MinDF < 0 {
		return errs.Invalidf("pairs: min df %d", p.MinDF)
	}
	return nil
}

// effectivePercent is the budget percent the settings give: 0 when off.
func (p Pairs) effectivePercent() int {
	switch p.Percent {
	case 0:
		return DefaultPairsPercent
	case PairsOff:
		return 0
	}
	return p.Percent
}

// minDFFor returns the minimum pair df for a segment of docs documents
// whose field's tokens are not known (0).
func (p Pairs) minDFFor(docs uint64) uint64 {
	if p.MinDF > 0 {
		return uint64(p.MinDF)
	}
	return max(DefaultPairsMinDF, (docs+PairsMinDFDocs-1)/PairsMinDFDocs)
}

// minDFUsed returns the minimum pair df of a field of tokens positions in a
// segment of docs documents: minDFFor, and under the default rule at least
// ceil(tokens / pairsMinDFTokens). The pair counting tracks terms (a pair's
// df is at most its terms') and counts candidates under the bound of the
// tokens the build counted as it added the documents (a merge knows none:
// minDFFor's bound); writePairs selects under the bound of the field's sum
// of ttf, which equals the build's count.
func (p Pairs) minDFUsed(docs, tokens uint64) uint64 {
	return p.minDFPer(docs, tokens, pairsMinDFTokens)
}

// minDFPer is minDFUsed with per tokens per unit of the minimum df.
func (p Pairs) minDFPer(docs, tokens, per uint64) uint64 {
	m := p.minDFFor(docs)
	if p.MinDF > 0 {
		return m
	}
	return max(m, (tokens+per-1)/per)
}

// pairsMinDF is minDFUsed for w's documents (tests: minDFPer with the
// faults' tokens per unit of df).
func (w *Writer) pairsMinDF(tokens uint64) uint64 {
	if fl := w.opts.faults; fl != nil && fl.pairTokens > 0 {
		return w.opts.Pairs.minDFPer(w.docs, tokens, fl.pairTokens)
	}
	return w.opts.Pairs.minDFUsed(w.docs, tokens)
}

// pairCand is a pair that met the minimum df.
type pairCand struct {
	id       uint64 // a<<32 | b (tracked ordinals)
	df, cost uint64
	gain     uint64 // df·co, or, while !exact, df·min(df(a), df(b)): a bound
	exact    bool
}

// pairWriter counts the pairs of one field and writes its pair section.
type pairWriter struct {
	w      *Writer
	tap    *pairTap
	pairs  *pairRecs
	enc    format.DocWindowEncoder
	buf    []byte
	docs   []uint32
	sorted bool        // pairs.mem is sorted
	fb     *fwdBuckets // the pairs, when read off a forward index into buckets
	minDF  uint64

	set   pairSet // the pairs of one doc
	slots []int32 // position -> token of one doc (-1: none)

	// co-occurrence counting (bothDocs, exceptions)
	both, exc []uint32
	cbuf      []byte      // the complement-form entry being encoded
	entries   pairEntries // the smaller entry of every candidate
	haveA     bool
	aTerm     uint32
	adocs     []uint32 // term aTerm's docs
	aBits     []uint64 // aTerm's docs as a bitmap, when aSet (a term without a bitmap of its own)
	aSet      bool
	bitmaps   map[uint32][]uint64 // the docs of dense terms, by ordinal
	bitsLeft  int64               // bytes bitmaps may still take (with the tap's, MemoryLimit/16)
	scratch   []uint32
}

// newPairTap wraps src when pairs are on.
// tokens, when not 0, is the field's token count: it sizes the buffer once
// (no growth by copying).
func (w *Writer) newPairTap(src PostingSource, name string, tokens uint64) *pairTap {
	if w.opts.Pairs.effectivePercent() == 0 || src == nil {
		return nil
	}
	// The in-memory counting holds, per tracked token, 4 bytes of position,
	// 8 of bucket and up to 8 of (pair, doc) record, and per posting 8: it
	// runs while that stays within MemoryLimit/2; the sorted path holds at
	// most MemoryLimit/4, its records and radix scratch together.
	sorted := w.opts.MemoryLimit / 4
	create := func() (*tempFile, error) { return w.createTemp(runPrefix) }
	t := &pairTap{
		src: src, minDF: w.pairsMinDF(tokens), docs: w.docs, cur: -1, limit: w.opts.MemoryLimit / 2,
		lists: u32Store{limit: int(max(sorted/16, 1024)), create: create},
		newSorter: func() *extSorter {
			return newExtSorter(sorted, fmt.Sprintf("pair tokens of index %q", name), create)
		},
	}
	if tokens > 0 { // sized once (pages never written are usually never faulted in)
		t.sizeBuffers(min(tokens, uint64(t.limit/20)))
	}
	return t
}

// newPairWriter returns the pair counting of field name over tap's terms.
func (w *Writer) newPairWriter(tap *pairTap, name string) *pairWriter {
	// Bitmaps for co take MemoryLimit/16 beside the term buffer (a forward
	// index), MemoryLimit/4 once it is released (the postings path).
	bits := w.opts.MemoryLimit / 16
	if tap.fwd == nil {
		bits = w.opts.MemoryLimit / 4
	}
	pw := &pairWriter{w: w, tap: tap, bitsLeft: bits,
		entries: pairEntries{limit: int(w.opts.MemoryLimit / 64), create: func() (*tempFile, error) { return w.createTemp(runPrefix) }},
		pairs: newPairRecs(len(tap.dfs), w.opts.MemoryLimit/4, func() *extSorter {
			return newExtSorter(w.opts.MemoryLimit/4, fmt.Sprintf("pairs of index %q", name), func() (*tempFile, error) { return w.createTemp(runPrefix) })
		})}
	if fl := w.opts.faults; fl != nil && fl.pairEntries > 0 {
		pw.entries.limit = fl.pairEntries
	}
	if fl := w.opts.faults; fl != nil && fl.pairNoBits {
		pw.bitsLeft = 0
	}
	return pw
}

// countCandidates counts the pairs and returns the eligible ones (see
// candidates).
func (pw *pairWriter) countCandidates() ([]pairCand, error) {
	if err := pw.count(); err != nil {
		return nil, err
	}
	if err := pw.fwdBitmaps(); err != nil {
		return nil, err
	}
	return pw.candidates(pw.tap.minDF)
}

// writePairs writes the pair section of the field whose metadata is m (its
// .prx bytes known) at cw's end, and records it in m; pw (nil when the
// index has no terms) has counted the eligible pairs cands.
func (w *Writer) writePairs(cw *countWriter, pw *pairWriter, cands []pairCand, m *format.IndexMeta) error {
	p := w.opts.Pairs
	m.PairsOff = cw.n
	m.PairsPercent = p.effectivePercent()
	m.PairsMinDF = uint64(p.MinDF)
	m.PairsMinDFUsed = w.pairsMinDF(m.SumTTF)
	if m.PairsPercent == 0 {
		return nil
	}
	m.PairsAllowance = min(uint64(m.PairsPercent)*(m.PrxBytes+m.InlineFrameBytes)/100, math.MaxUint32)
	if pw == nil {
		return nil
	}
	// The pairs were counted under the bound the field's tokens gave when
	// known (a build), else under minDFFor (a merge): never above this one.
	if pw.tap.minDF > m.PairsMinDFUsed {
		return fmt.Errorf("writer: index %q: pairs: %w", m.Name, errs.Corruptf("counted for df >= %d, above the field's minimum %d", pw.tap.minDF, m.PairsMinDFUsed))
	}
	cands = slices.DeleteFunc(cands, func(c pairCand) bool { return c.df < m.PairsMinDFUsed })
	m.PairsEligible = uint64(len(cands))
	sel, err := selectPairs(cands, m.PairsAllowance, exactGain)
	if err != nil {
		return fmt.Errorf("writer: index %q: pairs: %w", m.Name, err)
	}
	if len(sel) == 0 {
		return nil
	}
	n, err := pw.write(cw, sel)
	if err != nil {
		return fmt.Errorf("writer: index %q: pairs: %w", m.Name, err)
	}
	m.PairCount, m.PairsLen = uint64(len(sel)), n
	return nil
}

// fwdBitmaps makes, with a forward index, the bitmaps of the dense tracked
// terms (for co), densest first while they fit pw.bitsLeft. With pair
// buckets their bits are set by the buckets' first fill, which reads every
// document before the first pair is passed on; otherwise by a pass of
// their own over the index.
func (pw *pairWriter) fwdBitmaps() error {
	t, f := pw.tap, pw.tap.fwd
	if f == nil {
		return nil
	}
	size := int64((t.docs + 63) / 64)
	// The densest terms first: a term without a bitmap costs its df in
	// every pair it is part of.
	var dense []uint32
	for o, df := range t.dfs {
		if denseTerm(df, t.docs) {
			dense = append(dense, uint32(o))
		}
	}
	slices.SortStableFunc(dense, func(x, y uint32) int { return cmp.Compare(t.dfs[y], t.dfs[x]) })
	var bms [][]uint64 // by ordinal
	for _, o := range dense {
		if 8*size > pw.bitsLeft {
			break
		}
		if bms == nil {
			bms, pw.bitmaps = make([][]uint64, len(t.dfs)), make(map[uint32][]uint64)
		}
		bms[o] = make([]uint64, size)
		pw.bitmaps[o] = bms[o]
		pw.bitsLeft -= 8 * size
	}
	if bms == nil {
		return nil
	}
	if pw.fb != nil && pw.fb.fills == 0 {
		pw.fb.bms = bms
		return nil
	}
	return f.each(1, pw.w.ctx.Err, func(d uint64, slots []uint32, sparse bool) error {
		if sparse {
			slots = slots[:len(slots)/2]
		}
		setBits(f.ords, bms, d, slots)
		return nil
	})
}

// setBits sets bit d in the bitmap (by tracked ordinal) of each term of ids
// (term-buffer ids+1, 0 for none) that has one.
func setBits(ords []uint32, bms [][]uint64, d uint64, ids []uint32) {
	for _, v := range ids {
		if o := ords[v]; o != 0 {
			if bm := bms[o-1]; bm != nil {
				bm[d/64] |= 1 << (d % 64)
			}
		}
	}
}

// free releases the counting's mappings.
func (pw *pairWriter) free() {
	if fl := pw.w.opts.faults; fl != nil && pw.entries.file != nil {
		fl.pairEntryFile++
	}
	if pw.fb != nil {
		pw.w.opts.faults.addPairFills(pw.fb.fills)
		pw.fb.free()
		pw.fb = nil
	}
	if pw.pairs != nil {
		pw.pairs.ext.free()
		pw.pairs.ext = nil
	}
}

// walk calls fn for every record of it, in order, then once with ok false;
// it checks the build's context every 64Ki records.
func (pw *pairWriter) walk(it *recIter, fn func(r rec, ok bool) error) error {
	for n := 0; ; n++ {
		if n&0xffff == 0xffff {
			if err := pw.w.ctx.Err(); err != nil {
				return err
			}
		}
		r, ok, err := it.next()
		if err != nil {
			return err
		}
		if err := fn(r, ok); err != nil || !ok {
			return err
		}
	}
}

// groups calls fn for each pair with its ascending docs, in pair order
// (with only set, ascending pair ids, it may pass the other pairs by).
func (pw *pairWriter) groups(only []uint64, fn func(id uint64, docs []uint32) error) error {
	if pw.fb != nil {
		return pw.fb.groups(pw.minDF, only, fn)
	}
	if r := pw.pairs; r.ext == nil { // all in memory: walk the sorted records
		if !pw.sorted {
			r.sortMem()
			pw.sorted = true
		}
		for i := 0; i < len(r.mem); {
			if err := pw.w.ctx.Err(); err != nil {
				return err
			}
			key, end := r.mem[i]>>32, i+1
			for end < len(r.mem) && r.mem[end]>>32 == key {
				end++
			}
			id := r.pairID(r.mem[i])
			docs := pw.docs[:0]
			for _, x := range r.mem[i:end] {
				if d := uint32(x); len(docs) == 0 || docs[len(docs)-1] != d { // a forward index repeats a pair's doc
					docs = append(docs, d)
				}
			}
			pw.docs = docs
			if err := fn(id, docs); err != nil {
				return err
			}
			i = end
		}
		return nil
	}
	var id uint64
	docs := pw.docs[:0]
	err := pw.walk(pw.pairs.ext.iter(), func(r rec, ok bool) error {
		if !ok || (len(docs) > 0 && r.k != id) {
			if len(docs) > 0 {
				if err := fn(id, docs); err != nil {
					return err
				}
			}
			docs = docs[:0]
		}
		if ok && (len(docs) == 0 || docs[len(docs)-1] != r.v) {
			id = r.k
			docs = append(docs, r.v)
		}
		return nil
	})
	pw.docs = docs
	return err
}

// entry encodes pair id's list-form entry into pw.buf.
func (pw *pairWriter) entry(id uint64, docs []uint32) []byte {
	pw.buf = format.AppendPairEntry(pw.buf[:0], &pw.enc, pw.tap.term(uint32(id>>32)), pw.tap.term(uint32(id)), docs)
	return pw.buf
}

// complementEntry encodes pair id's complement-form entry into pw.cbuf.
func (pw *pairWriter) complementEntry(id uint64, df, co uint64, exc []uint32) []byte {
	pw.cbuf = format.AppendPairComplement(pw.cbuf[:0], &pw.enc, pw.tap.term(uint32(id>>32)), pw.tap.term(uint32(id)), df, co, exc)
	return pw.cbuf
}

// candidates returns the eligible pairs (df >= minDF) with their exact gain
// (df·co) and cost: the bytes of the smaller of their two entries (the list
// form on a tie) plus the table slot. It keeps that entry in pw.entries.
func (pw *pairWriter) candidates(minDF uint64) ([]pairCand, error) {
	var cands []pairCand
	pw.minDF = minDF
	err := pw.groups(nil, func(id uint64, docs []uint32) error {
		df := uint64(len(docs))
		if df < minDF {
			return nil
		}
		a, b := uint32(id>>32), uint32(id)
		if ub := min(pw.tap.dfs[a], pw.tap.dfs[b]); ub < df { // the counting lost track of a document
			return errs.Corruptf("pair %q %q: in %d docs, a term in %d", pw.tap.term(a), pw.tap.term(b), df, ub)
		}
		e := pw.entry(id, docs)
		co, exc, full, err := pw.exceptions(id, docs, len(e))
		if err != nil {
			return err
		}
		if full { // the complement entry may be the shorter one
			if ce := pw.complementEntry(id, df, co, exc); len(ce) < len(e) {
				e = ce
			}
		}
		cands = append(cands, pairCand{id: id, df: df, gain: df * co, exact: true, cost: uint64(len(e)) + format.PairEntryOverhead})
		return pw.entries.add(id, e)
	})
	if err == nil {
		err = pw.entries.done()
	}
	return cands, err
}

// exactGain is the selection's callback for a candidate whose gain is a
// bound: candidates computes every gain exactly (the complement form's cost
// needs co), so it is never called.
func exactGain(c *pairCand) error {
	return errs.Corruptf("pair candidate %x without its exact gain", c.id)
}

// before reports whether x comes before y in the selection's order: gain/cost
// descending (x.gain·y.cost against y.gain·x.cost, exactly), then id.
func (x *pairCand) before(y *pairCand) bool {
	xh, xl := bits.Mul64(x.gain, y.cost)
	yh, yl := bits.Mul64(y.gain, x.cost)
	if xh != yh || xl != yl {
		return xh > yh || (xh == yh && xl > yl)
	}
	return x.id < y.id
}

// selectPairs spends allowance bytes on the candidates by decreasing
// gain/cost (ties: pair order), skipping any that no longer fits; it returns
// the kept pairs' ids, ascending. It walks a heap ordered by the gains as
// known: a candidate on top with an exact gain is the next of the exact
// order (every other one's true place is no earlier than its bound's), one
// with a bound gets its exact gain (exact, called once per candidate) and
// goes back; a candidate that no longer fits is dropped unresolved (the room
// only shrinks). So co is computed only for the candidates the walk reaches
// while they fit, and the result is that of the full sort.
func selectPairs(cands []pairCand, allowance uint64, exact func(*pairCand) error) ([]uint64, error) {
	h := pairHeap(cands)
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
	var sel []uint64
	var spent uint64
	for len(h) > 0 {
		c := &h[0]
		switch {
		case c.cost > allowance-spent: // never fits
		case !c.exact:
			if err := exact(c); err != nil {
				return nil, err
			}
			h.down(0)
			continue
		default:
			spent += c.cost
			sel = append(sel, c.id)
		}
		h[0] = h[len(h)-1]
		h = h[:len(h)-1]
		h.down(0)
	}
	slices.Sort(sel)
	return sel, nil
}

// pairHeap is a binary heap of candidates, the first in the order on top.
type pairHeap []pairCand

func (h pairHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r].before(&h[l]) {
			m = r
		}
		if !h[m].before(&h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// write writes the entries of the selected pairs (ascending ids) and the
// table; it returns the section's bytes.
func (pw *pairWriter) write(cw *countWriter, sel []uint64) (uint64, error) {
	start := cw.n
	offs := make([]uint32, 0, len(sel))
	es := &pw.entries
	k := 0
	for _, id := range sel {
		for k < len(es.ids) && es.ids[k] < id {
			k++
		}
		if k == len(es.ids) || es.ids[k] != id {
			return 0, errs.Corruptf("selected pair %x is not a candidate", id)
		}
		e, err := es.entry(k, pw.buf[:0])
		if err != nil {
			return 0, err
		}
		if es.file != nil { // e is pw.buf's memory (else a view of es.mem)
			pw.buf = e[:0]
		}
		offs = append(offs, uint32(cw.n-start))
		if _, err := cw.Write(e); err != nil {
			return 0, err
		}
	}
	if _, err := cw.Write(format.AppendPairTrailer(nil, offs)); err != nil {
		return 0, err
	}
	return cw.n - start, nil
}

// pairEntries holds the entries of the candidates, in pair order: in memory
// up to limit bytes, then appended to a temp file.
type pairEntries struct {
	ids    []uint64 // the candidates' pair ids, ascending
	ends   []uint64 // ends[i]: the end of entry i
	mem    []byte   // the bytes after the file's
	limit  int
	file   *tempFile
	inFile uint64 // bytes in file
	create func() (*tempFile, error)
}

// add appends pair id's entry e.
func (p *pairEntries) add(id uint64, e []byte) error {
	p.mem = append(p.mem, e...)
	p.ids = append(p.ids, id)
	p.ends = append(p.ends, p.inFile+uint64(len(p.mem)))
	if len(p.mem) > p.limit {
		return p.flush()
	}
	return nil
}

// done ends the adding: with a file, every entry goes to it.
func (p *pairEntries) done() error {
	if p.file == nil {
		return nil
	}
	return p.flush()
}

// flush appends the entries in memory to the file.
func (p *pairEntries) flush() error {
	if p.file == nil {
		f, err := p.create()
		if err != nil {
			return err
		}
		p.file = f
	}
	if _, err := p.file.Write(p.mem); err != nil {
		return fmt.Errorf("writer: spill pair entries: %w", err)
	}
	p.inFile += uint64(len(p.mem))
	p.mem = p.mem[:0]
	return nil
}

// entry returns entry i (read into dst when in the file).
func (p *pairEntries) entry(i int, dst []byte) ([]byte, error) {
	var lo uint64
	if i > 0 {
		lo = p.ends[i-1]
	}
	hi := p.ends[i]
	if p.file == nil {
		return p.mem[lo:hi], nil
	}
	dst = slices.Grow(dst[:0], int(hi-lo))[:hi-lo]
	if _, err := p.file.ReadAt(dst, int64(lo)); err != nil {
		return nil, errs.Corruptf("writer: read pair entries: %v", err)
	}
	return dst, nil
}
