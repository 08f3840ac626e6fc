package writer

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/format"
)

// Pair index settings (see Pairs and docs/FORMAT.md, "Pair section").
const (
	// DefaultPairsPercent is the pair budget when Pairs.Percent is 0: 10% of
	// the index's .prx bytes.
	DefaultPairsPercent = 10
	// PairsOff as Pairs.Percent writes no pairs.
	PairsOff = -1
	// DefaultPairsMinDF and PairsMinDFDocs give the minimum pair df when
	// Pairs.MinDF is 0: max(DefaultPairsMinDF, ceil(docs / PairsMinDFDocs)).
	DefaultPairsMinDF = 64
	PairsMinDFDocs    = 10000
)

// Pairs configure the phrase-pair index: per logical index, docs-only
// postings of adjacent term pairs, chosen under a byte budget. The zero value
// is the default (10% of the .prx bytes, the default minimum df).
type Pairs struct {
	// Percent is the budget in percent of the index's .prx bytes (frames in
	// the posting region and inline): 0 = DefaultPairsPercent, PairsOff = no
	// pairs, else 1..100.
	Percent int
	// MinDF is the fewest documents a pair must occur in to be kept: 0 =
	// max(DefaultPairsMinDF, ceil(docs/PairsMinDFDocs)), else >= 1.
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

// EffectivePercent is the budget percent the settings give: 0 when off.
func (p Pairs) EffectivePercent() int {
	switch p.Percent {
	case 0:
		return DefaultPairsPercent
	case PairsOff:
		return 0
	}
	return p.Percent
}

// PairsFromPercent returns the settings a segment recorded: percent 0 is off.
func PairsFromPercent(percent int, minDF uint64) Pairs {
	p := Pairs{Percent: percent, MinDF: int(min(minDF, math.MaxInt32))}
	if percent == 0 {
		p.Percent = PairsOff
	}
	return p
}

// minDFFor returns the minimum pair df for a segment of docs documents.
func (p Pairs) minDFFor(docs uint64) uint64 {
	if p.MinDF > 0 {
		return uint64(p.MinDF)
	}
	return max(DefaultPairsMinDF, (docs+PairsMinDFDocs-1)/PairsMinDFDocs)
}

// pairTap passes a PostingSource through to the emitter and records, for
// every term with df >= minDF (a term of a kept pair has at least the pair's
// df), each (doc, position) it occupies: the input of the pair counting. The
// emitter sees exactly the source's stream, so builds and merges, which feed
// the emitter the same postings, count the same pairs.
type pairTap struct {
	src   PostingSource
	minDF uint64
	toks  *extSorter // k = doc<<32 | position, v = term ordinal
	arena []byte     // the tracked terms' bytes
	ends  []uint32   // arena end of tracked term i
	dfs   []uint64   // df of tracked term i
	cur   int64      // ordinal of the current term, -1 when untracked
}

func (t *pairTap) NextTerm() ([]byte, uint64, bool, error) {
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
	if ok && err == nil && t.cur >= 0 {
		for _, p := range pos {
			if err := t.toks.add(uint64(doc)<<32|uint64(p), uint32(t.cur)); err != nil {
				return 0, nil, false, err
			}
		}
	}
	return doc, pos, ok, err
}

// term returns tracked term i.
func (t *pairTap) term(i uint32) []byte {
	var lo uint32
	if i > 0 {
		lo = t.ends[i-1]
	}
	return t.arena[lo:t.ends[i]]
}

// pairCand is a pair that met the minimum df with a positive gain.
type pairCand struct {
	id         uint64 // a<<32 | b (tracked ordinals)
	gain, cost uint64
}

// pairWriter counts the pairs of one index and writes its pair section.
type pairWriter struct {
	w     *Writer
	tap   *pairTap
	pairs *extSorter // k = a<<32 | b, v = doc
	enc   format.DocWindowEncoder
	buf   []byte
	docs  []uint32
	ids   []uint64 // the pairs of one doc
}

// newPairTap wraps src when pairs are on.
// tokens, when not 0, is the index's token count: it sizes the buffer once
// (no growth by copying).
func (w *Writer) newPairTap(src PostingSource, name string, tokens uint64) *pairTap {
	if w.opts.Pairs.EffectivePercent() == 0 || src == nil {
		return nil
	}
	t := &pairTap{
		src: src, minDF: w.opts.Pairs.minDFFor(w.docs), cur: -1,
		toks: newExtSorter(w.opts.MemoryLimit/4, fmt.Sprintf("pair tokens of index %q", name), func() (*tempFile, error) { return w.createTemp(runPrefix) }),
	}
	t.toks.reserve(tokens)
	return t
}

// writePairs writes the pair section of the index whose metadata is m (its
// .prx bytes known) at cw's end, and records it in m.
func (w *Writer) writePairs(cw *countWriter, tap *pairTap, m *format.IndexMeta) error {
	p := w.opts.Pairs
	m.PairsOff = cw.n
	m.PairsPercent = p.EffectivePercent()
	m.PairsMinDF = uint64(p.MinDF)
	m.PairsMinDFUsed = p.minDFFor(w.docs)
	if m.PairsPercent == 0 {
		return nil
	}
	m.PairsAllowance = min(uint64(m.PairsPercent)*(m.PrxBytes+m.InlineFrameBytes)/100, math.MaxUint32)
	if tap == nil {
		return nil
	}
	pw := &pairWriter{w: w, tap: tap,
		pairs: newExtSorter(w.opts.MemoryLimit/4, fmt.Sprintf("pairs of index %q", m.Name), func() (*tempFile, error) { return w.createTemp(runPrefix) })}
	// A doc holds no more distinct pairs than tracked tokens: the token
	// sort's scratch becomes the pair buffer, and the token buffer the pair
	// sort's scratch.
	tap.toks.sortBuf()
	pw.pairs.buf = tap.toks.takeSpare()
	if err := pw.count(); err != nil {
		return fmt.Errorf("writer: index %q: pairs: %w", m.Name, err)
	}
	pw.pairs.spare = tap.toks.takeBuf()
	cands, err := pw.candidates(m.PairsMinDFUsed)
	if err != nil {
		return fmt.Errorf("writer: index %q: pairs: %w", m.Name, err)
	}
	m.PairsEligible = uint64(len(cands))
	sel := selectPairs(cands, m.PairsAllowance)
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

// count turns the tracked tokens, in (doc, position) order, into (pair, doc)
// records: one per distinct pair of tracked terms at positions p, p+1 of a doc.
func (pw *pairWriter) count() error {
	toks := pw.tap.toks
	if len(toks.runs) == 0 { // everything in memory: walk the sorted buffer
		toks.sortBuf()
		return pw.countDocs(toks.buf)
	}
	var doc []rec
	return pw.walk(toks.iter(), func(r rec, ok bool) error {
		if !ok || (len(doc) > 0 && r.k>>32 != doc[0].k>>32) {
			if err := pw.countDocs(doc); err != nil {
				return err
			}
			doc = doc[:0]
		}
		if ok {
			doc = append(doc, r)
		}
		return nil
	})
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

// countDocs adds the pairs of toks: the tokens of whole docs, sorted by
// (doc, position), then term. A pair repeated in a doc is added once.
func (pw *pairWriter) countDocs(toks []rec) error {
	ids := pw.ids[:0]
	flush := func(doc uint32) error {
		if len(ids) > 1 {
			slices.Sort(ids)
			ids = slices.Compact(ids)
		}
		for _, id := range ids {
			if err := pw.pairs.add(id, doc); err != nil {
				return err
			}
		}
		ids = ids[:0]
		return nil
	}
	for i := 0; i < len(toks); {
		if i&0xffff == 0xffff {
			if err := pw.w.ctx.Err(); err != nil {
				return err
			}
		}
		k := toks[i].k
		end := i + 1
		for end < len(toks) && toks[end].k == k {
			end++
		}
		// The tokens at the next position of the same doc (k+1 never
		// crosses into another doc: a position is at most 2^32-2).
		if end < len(toks) && toks[end].k == k+1 {
			e2 := end + 1
			for e2 < len(toks) && toks[e2].k == k+1 {
				e2++
			}
			for _, a := range toks[i:end] {
				for _, b := range toks[end:e2] {
					ids = append(ids, uint64(a.v)<<32|uint64(b.v))
				}
			}
		}
		if end == len(toks) || toks[end].k>>32 != k>>32 { // the doc ends
			if err := flush(uint32(k >> 32)); err != nil {
				return err
			}
		}
		i = end
	}
	pw.ids = ids
	return nil
}

// groups calls fn for each pair with its ascending docs, in pair order.
func (pw *pairWriter) groups(fn func(id uint64, docs []uint32) error) error {
	var id uint64
	docs := pw.docs[:0]
	err := pw.walk(pw.pairs.iter(), func(r rec, ok bool) error {
		if !ok || (len(docs) > 0 && r.k != id) {
			if len(docs) > 0 {
				if err := fn(id, docs); err != nil {
					return err
				}
			}
			docs = docs[:0]
		}
		if ok {
			id = r.k
			docs = append(docs, r.v)
		}
		return nil
	})
	pw.docs = docs
	return err
}

// entry encodes pair id's entry into pw.buf.
func (pw *pairWriter) entry(id uint64, docs []uint32) []byte {
	pw.buf = format.AppendPairEntry(pw.buf[:0], &pw.enc, pw.tap.term(uint32(id>>32)), pw.tap.term(uint32(id)), docs)
	return pw.buf
}

// candidates returns the pairs with df >= minDF and a positive gain
// min(df_a, df_b) - df, with their cost (entry bytes + table slot).
func (pw *pairWriter) candidates(minDF uint64) ([]pairCand, error) {
	var cands []pairCand
	err := pw.groups(func(id uint64, docs []uint32) error {
		df := uint64(len(docs))
		if df < minDF {
			return nil
		}
		lim := min(pw.tap.dfs[id>>32], pw.tap.dfs[uint32(id)])
		if lim <= df {
			return nil
		}
		cands = append(cands, pairCand{id: id, gain: lim - df, cost: uint64(len(pw.entry(id, docs))) + format.PairEntryOverhead})
		return nil
	})
	return cands, err
}

// selectPairs spends allowance bytes on the candidates by decreasing
// gain/cost (ties: pair order), skipping any that no longer fits; it returns
// the kept pairs' ids, ascending.
func selectPairs(cands []pairCand, allowance uint64) []uint64 {
	slices.SortFunc(cands, func(x, y pairCand) int {
		// x first when x.gain/x.cost > y.gain/y.cost: compare x.gain*y.cost with y.gain*x.cost.
		xh, xl := bits.Mul64(x.gain, y.cost)
		yh, yl := bits.Mul64(y.gain, x.cost)
		if xh != yh || xl != yl {
			if xh > yh || (xh == yh && xl > yl) {
				return -1
			}
			return 1
		}
		return cmp.Compare(x.id, y.id)
	})
	var sel []uint64
	var spent uint64
	for _, c := range cands {
		if c.cost <= allowance-spent {
			spent += c.cost
			sel = append(sel, c.id)
		}
	}
	slices.Sort(sel)
	return sel
}

// write writes the entries of the selected pairs (ascending ids) and the
// table; it returns the section's bytes.
func (pw *pairWriter) write(cw *countWriter, sel []uint64) (uint64, error) {
	start := cw.n
	offs := make([]uint32, 0, len(sel))
	k := 0
	err := pw.groups(func(id uint64, docs []uint32) error {
		if k >= len(sel) || sel[k] != id {
			return nil
		}
		k++
		offs = append(offs, uint32(cw.n-start))
		_, err := cw.Write(pw.entry(id, docs))
		return err
	})
	if err != nil {
		return 0, err
	}
	if k != len(sel) {
		return 0, errs.Corruptf("%d of %d selected pairs found again", k, len(sel))
	}
	if _, err := cw.Write(format.AppendPairTrailer(nil, offs)); err != nil {
		return 0, err
	}
	return cw.n - start, nil
}
