package reader

import (
	"cmp"
	"context"
	"math"
	"slices"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii/internal/errs"
)

// TopOptions tune a Top search. A nil *TopOptions is valid: BM25 with k1 =
// 1.2, b = 0.75 and the segment's own statistics.
type TopOptions struct {
	// BM25 overrides the similarity's parameters (nil: k1 = 1.2, b = 0.75).
	BM25 *BM25
	// Stats supplies collection-wide statistics (nil: this segment's). See
	// CollectionStats.
	Stats CollectionStats
	// Filter, when set, ranks only these documents (a caller's set such as a
	// time range), as SearchOptions.Filter restricts a search: the statistics
	// stay the segment's (or Stats), and a block of a term's postings
	// holding none of them is skipped without decoding. Ids past the
	// segment's documents are ignored.
	Filter *roaring.Bitmap
	// Explain fills each hit's Explanation.
	Explain bool
	// Records fills each hit's Record with its stored record, read in one
	// batch after the search (see Records); a segment without a store fails
	// with an error wrapping snii.ErrNotFound.
	Records bool
	// Profile, when set, receives what the search did (overwritten).
	Profile *Profile
	// SkipMissingFields makes a query part on a field the segment does not
	// have match nothing (see SearchOptions.SkipMissingFields).
	SkipMissingFields bool
}

// Hit is one document of a ranked result.
type Hit struct {
	Doc         uint32
	Score       float32
	Explanation *Explanation // with TopOptions.Explain
	Record      []byte       // with TopOptions.Records: the stored record (the hits share one buffer)
}

// Top returns the k best-scoring documents matching q, best first, ties by
// ascending doc id (Lucene's order). Term and Phrase queries score with BM25
// (a phrase's frequency is the number of positions where it starts, a sloppy
// phrase's the sum of 1/(1+length) over its matches as Lucene 8 enumerates
// them, a phrase's idf the sum of its terms'); And and Or add their matching
// clauses' scores;
// Prefix and PhrasePrefix give every match the constant score 1. k <= 0 is
// an invalid-argument error.
//
// Top does not score every match when it need not: a top-level Or runs
// MaxScore over ranges of documents (clauses whose bounds over a range add
// up to no more than the k-th best score so far only score the documents the
// others match there), and the search ends
// once no clause can beat the k-th best score. A term's bound is its score
// at its largest possible frequency (ttf - df + 1) in the field's shortest
// document.
func (s *Segment) Top(ctx context.Context, q Query, k int, o *TopOptions) ([]Hit, error) {
	hits, _, err := s.top(ctx, q, k, o)
	return hits, err
}

// top is Top, also returning how many documents it scored in full.
func (s *Segment) top(ctx context.Context, q Query, k int, o *TopOptions) (_ []Hit, scored int64, err error) {
	if q == nil {
		return nil, 0, errs.Invalidf("reader: nil query")
	}
	if k <= 0 {
		return nil, 0, errs.Invalidf("reader: top %d (want k >= 1)", k)
	}
	var opts TopOptions
	if o != nil {
		opts = *o
	}
	p := defaultBM25()
	if opts.BM25 != nil {
		p = *opts.BM25
	}
	if err := p.validate(); err != nil {
		return nil, 0, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if err := s.acquire(); err != nil {
		return nil, 0, err
	}
	defer s.release()
	var t0 time.Time
	if opts.Profile != nil {
		t0 = time.Now()
	}
	x := s.getCtx(ctx, opts.Profile != nil)
	defer s.putCtx(x)
	if s.guarding() {
		defer s.faultGuard(&err, x, enableFaults())
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	if opts.SkipMissingFields {
		q = s.withoutMissing(q)
	}
	t := &topRun{x: x, p: p, o: &opts, k: k}
	defer t.release()
	if t.filter, err = s.searchFilter(&SearchOptions{Filter: opts.Filter}); err != nil {
		return nil, 0, err
	}
	hits, err := t.run(q)
	if err != nil {
		return nil, 0, err
	}
	if opts.Explain && len(hits) > 0 {
		if err := t.explain(q, hits); err != nil {
			return nil, 0, err
		}
	}
	if opts.Records && len(hits) > 0 {
		if err := x.hitRecords(hits); err != nil {
			return nil, 0, err
		}
	}
	if opts.Profile != nil {
		opts.Profile.fill(x, time.Since(t0))
	}
	return hits, t.scored, nil
}

// topRun is one Top search.
type topRun struct {
	x       *qctx
	p       BM25
	o       *TopOptions
	k       int
	fields  []*fieldSim
	h       hitHeap
	scored  int64 // documents scored (for tests: MaxScore skips some)
	skipped int64 // blocks skipped by their bounds
	bounded int64 // documents not scored: their own bound (docBounder) could not enter
	// explaining: the scorers are built for Explain, which labels each part
	// of the breakdown with its query (the search itself needs no labels).
	explaining bool
	// filter: the documents TopOptions.Filter allows.
	filter docFilter
	// lists: the doc lists of the scorers (phrases, prefixes), given back
	// to the query context when the search is done
	lists [][]uint32
	// root: the query ranked (a phrase that is the whole query is ranked as
	// the phrase engine finds its matches, see phraseStream)
	root Query
}

// release gives the scorers' doc lists back to the query context.
func (t *topRun) release() {
	for _, l := range t.lists {
		t.x.put(l)
	}
	t.lists = nil
}

// label returns q's text for an explanation, when explaining.
func (t *topRun) label(q Query) string {
	if !t.explaining {
		return ""
	}
	return q.String()
}

// build returns the scorer of q, or nil when q matches nothing.
func (t *topRun) build(q Query) (scorer, error) {
	if q == nil {
		return nil, errs.Invalidf("reader: nil query")
	}
	return q.scorer(t)
}

func (t *topRun) termScorer(field, term, query string) (scorer, error) {
	f, err := t.x.s.field(field)
	if err != nil {
		return nil, err
	}
	tr, err := t.x.resolve(f, bytesOf(term))
	if err != nil || tr == nil {
		return nil, err
	}
	fs, err := t.simFor(f)
	if err != nil {
		return nil, err
	}
	sim := t.leaf(fs, []string{term}, []uint64{tr.e.DF})
	return t.filtered(t.x.newTermScorer(tr, sim, fs.maxInv, query)), nil
}

func (t *topRun) phraseScorer(q *phraseQuery) (scorer, error) {
	pt, err := t.phraseTerms(q)
	if err != nil || pt == nil {
		return nil, err
	}
	ps := &phraseScorer{query: t.label(q), terms: pt.terms, slot: pt.slot, passFrom: exhausted}
	ps.pos = make([][]uint32, len(ps.terms))
	ps.at = make([]int, len(ps.slot))
	ps.sim = pt.sim
	ps.ub = ps.sim.bound(float32(pt.minMaxTF), pt.fs.maxInv)
	return t.phraseDocs(q, pt, ps, &ps.listIter)
}

// phraseTerms is what a phrase's scorer starts from: its distinct terms and
// their statistics.
type phraseTerms struct {
	terms []*termScorer // distinct terms
	slot  []int         // phrase offset -> index into terms
	fs    *fieldSim
	sim   leafSim // the phrase's idf: the sum of its terms', repeats included
	// the largest frequency any term can have in a document (ttf - df + 1):
	// the smallest over the terms, and the sum over the phrase offsets
	minMaxTF, sumMaxTF uint64
}

// phraseTerms resolves the terms of the (exact or sloppy) phrase q; nil when
// one is absent (nothing matches).
func (t *topRun) phraseTerms(q *phraseQuery) (*phraseTerms, error) {
	x := t.x
	f, err := x.s.field(q.field)
	if err != nil {
		return nil, err
	}
	pt := &phraseTerms{minMaxTF: math.MaxUint64}
	dfs := make([]uint64, len(q.terms))
	maxTF := make([]uint64, 0, len(q.terms))
	refs := make([]*termRef, 0, len(q.terms))
	for k, term := range q.terms {
		j := slices.Index(q.terms[:k], term)
		if j >= 0 {
			pt.slot = append(pt.slot, pt.slot[j])
			dfs[k] = dfs[j]
			pt.sumMaxTF += maxTF[pt.slot[j]]
			continue
		}
		tr, err := x.resolve(f, bytesOf(term))
		if err != nil || tr == nil {
			return nil, err
		}
		dfs[k] = tr.e.DF
		m := tr.e.TTF - tr.e.DF + 1
		maxTF = append(maxTF, m)
		pt.minMaxTF = min(pt.minMaxTF, m)
		pt.sumMaxTF += m
		pt.slot = append(pt.slot, len(refs))
		refs = append(refs, tr)
	}
	if pt.fs, err = t.simFor(f); err != nil {
		return nil, err
	}
	fs := pt.fs
	pt.sim = t.leaf(fs, q.terms, dfs)
	// The terms score with the phrase's idf: a term's bound over a block is
	// then a bound of the phrase's score there (see phraseScorer.shallow).
	for _, tr := range refs {
		pt.terms = append(pt.terms, x.newTermScorer(tr, pt.sim, fs.maxInv, ""))
	}
	return pt, nil
}

func (t *topRun) constScorer(q Query) (scorer, error) {
	docs, err := t.x.eval(q, t.filter)
	t.lists = append(t.lists, docs)
	if err != nil || len(docs) == 0 {
		return nil, err
	}
	return &constScorer{listIter: newListIter(docs), query: t.label(q)}, nil
}

// run collects the top k.
func (t *topRun) run(q Query) ([]Hit, error) {
	t.root = q
	root, err := t.build(q)
	if err != nil || root == nil || t.filter.on && len(t.filter.ids) == 0 {
		return []Hit{}, err
	}
	if d, ok := root.(*disjScorer); ok && len(d.kids) > 1 {
		err = t.maxScore(d.kids)
	} else if ts, ok := t.rankable(root); ok {
		err = t.rankTerm(ts)
	} else {
		err = t.all(root)
	}
	if err != nil {
		return nil, err
	}
	best := slices.Clone([]heapHit(t.h))
	slices.SortFunc(best, func(a, b heapHit) int { // best first: higher score, then lower doc
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Doc, b.Doc)
	})
	hits := make([]Hit, len(best))
	for i, b := range best {
		hits[i] = Hit{Doc: b.Doc, Score: b.Score}
	}
	return hits, nil
}

// threshold returns the score a document must beat to enter the top k
// (-Inf until k documents are collected).
func (t *topRun) threshold() float32 {
	if len(t.h) < t.k {
		return float32(math.Inf(-1))
	}
	return t.h[0].Score
}

// collect offers a document: it displaces the worst of the top k when it
// scores higher, or equal with a smaller doc (documents offered in ascending
// order never do: an equal score never displaces an earlier document).
func (t *topRun) collect(doc int64, score float32) {
	t.scored++
	if len(t.h) < t.k {
		t.h.push(heapHit{Doc: uint32(doc), Score: score})
		return
	}
	if w := t.h[0]; score > w.Score || score == w.Score && uint32(doc) < w.Doc {
		t.h.replaceTop(heapHit{Doc: uint32(doc), Score: score})
	}
}

// docBounder is a scorer that bounds its current document's score more
// cheaply than it scores it (a phrase: from its terms' frequencies, with no
// position read).
type docBounder interface {
	docBound() (float32, error)
}

// offer scores root's current document d and collects it, unless db (root's
// docBounder, or nil) bounds it below what can enter the top k.
func (t *topRun) offer(root scorer, db docBounder, d int64) error {
	if db != nil && len(t.h) == t.k {
		b, err := db.docBound()
		if err != nil {
			return err
		}
		if !t.beats(b, uint32(d)) {
			t.bounded++
			return nil
		}
	}
	s, err := root.score()
	if err != nil {
		return err
	}
	t.collect(d, s)
	return nil
}

// all scores the documents of root that can enter the top k: once k are
// collected, a block whose bound (root.shallow) cannot beat the threshold is
// skipped without decoding, a document whose own bound (docBounder) cannot is
// not scored, and the search stops once root cannot.
func (t *topRun) all(root scorer) error {
	db, _ := root.(docBounder)
	target := int64(0)
	for {
		if err := t.x.check(); err != nil {
			return err
		}
		th := t.threshold()
		if root.maxScore() <= th {
			return nil
		}
		if len(t.h) == t.k {
			upTo, b, err := root.shallow(target)
			if err != nil || upTo == exhausted {
				return err
			}
			if b <= th {
				t.skipped++
				target = upTo + 1
				continue
			}
			d, err := root.advance(target)
			if err != nil || d == exhausted {
				return err
			}
			if d > upTo { // in a later block: check its bound first
				target = d
				continue
			}
			// Reading the window may give a finer bound (its 128-doc block's):
			// check it before scoring (which opens the window's positions).
			u2, b2, err := root.shallow(d)
			if err != nil {
				return err
			}
			if b2 <= th {
				t.skipped++
				target = u2 + 1
				continue
			}
			// Every document of [d, u2] is bounded by b2: score them one after
			// the other without asking for bounds again, while b2 can still
			// beat the threshold (which only rises).
			for n := 1; ; n++ {
				if err := t.offer(root, db, d); err != nil {
					return err
				}
				target = d + 1
				if b2 <= t.threshold() || n&255 == 0 {
					break // the bounds again (and the context, now and then)
				}
				if d, err = root.advance(target); err != nil || d == exhausted {
					return err
				}
				if d > u2 {
					target = d
					break
				}
			}
			continue
		}
		d, err := root.advance(target)
		if err != nil || d == exhausted {
			return err
		}
		s, err := root.score()
		if err != nil {
			return err
		}
		t.collect(d, s)
		target = d + 1
	}
}

// explain fills the hits' explanations with a fresh scorer tree, walked to
// each hit in doc order.
func (t *topRun) explain(q Query, hits []Hit) error {
	t.explaining = true
	root, err := t.build(q)
	if err != nil {
		return err
	}
	order := make([]int, len(hits))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(hits[a].Doc, hits[b].Doc) })
	for _, i := range order {
		d, err := root.advance(int64(hits[i].Doc))
		if err != nil {
			return err
		}
		if d != int64(hits[i].Doc) {
			return errs.Corruptf("reader: explain: doc %d no longer matches %s", hits[i].Doc, q)
		}
		e, err := root.explain()
		if err != nil {
			return err
		}
		hits[i].Explanation = &e
	}
	return nil
}

// heapHit is a hit in the heap: no pointer, so that moving one costs no
// write barrier.
type heapHit struct {
	Doc   uint32
	Score float32
}

// hitHeap is a min-heap of the worst hit on top: lower score, or equal score
// and larger doc.
type hitHeap []heapHit

// less reports whether hit i is worse than hit j.
func (h hitHeap) less(i, j int) bool {
	if h[i].Score != h[j].Score {
		return h[i].Score < h[j].Score
	}
	return h[i].Doc > h[j].Doc
}

// push adds v.
func (h *hitHeap) push(v heapHit) {
	*h = append(*h, v)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s.less(i, p) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

// replaceTop puts v in place of the worst hit and restores the order.
func (h hitHeap) replaceTop(v heapHit) {
	h[0] = v
	for i, n := 0, len(h); ; {
		m := 2*i + 1
		if m >= n {
			return
		}
		if r := m + 1; r < n && h.less(r, m) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

func nextUp(f float32) float32 { return math.Nextafter32(f, float32(math.Inf(1))) }
