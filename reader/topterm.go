package reader

import (
	"cmp"
	"slices"

	"github.com/snii-go/snii/internal/codec/format"
)

// boundedWin is a window of a term with its impact bound.
type boundedWin struct {
	w     winInfo
	bound float32
}

// maxPooledWins caps the windows list a pooled query context keeps.
const maxPooledWins = 1 << 16

// rankTerm collects the top k of a lone term. A term of one window (inline
// or slim) scores its documents in order while the term's bound can beat the
// k-th score. A windowed term visits its windows best bound first (the
// prelude's (maxTF, minNorm) of each), so that the windows most likely to
// hold the best documents raise the threshold before the others are looked
// at: once the next window's bound cannot beat the k-th score, no later one
// can, and the search ends. Inside a window, a 128-doc block whose impacts
// cannot beat the k-th score is skipped without decoding, and the documents
// of a block are scored only while its bound can still beat it. Documents
// come out of doc order, so a tie with the k-th score enters when its doc is
// smaller (collect).
func (t *topRun) rankTerm(ts *termScorer) error {
	if ts.t.e.Class != format.ClassWindowed { // one window, bounded by the term's bound
		w, ok := ts.it.next()
		if !ok {
			return nil
		}
		if err := t.x.loadWindow(ts.t, &ts.dc, &w); err != nil {
			return err
		}
		ts.i, ts.open = 0, false
		return t.rankDocs(ts, ts.ub)
	}
	wins := t.x.wins[:0]
	it := ts.t.windows(0)
	for w, ok := it.next(); ok; w, ok = it.next() {
		wins = append(wins, boundedWin{w: w, bound: ts.winBound(w.maxTF, w.minNorm)})
	}
	t.x.wins = wins
	slices.SortStableFunc(wins, func(a, b boundedWin) int { return cmp.Compare(b.bound, a.bound) })
	for i := range wins {
		if err := t.x.check(); err != nil {
			return err
		}
		w := &wins[i]
		if !t.beats(w.bound, w.w.base) {
			if w.bound < t.threshold() { // and so is every later window's
				t.skipped += int64(len(wins) - i)
				return nil
			}
			t.skipped++
			continue
		}
		if err := t.rankWindow(ts, &w.w); err != nil {
			return err
		}
	}
	return nil
}

// beats reports whether a document scoring at most bound, numbered first or
// more, can enter the top k.
func (t *topRun) beats(bound float32, first uint32) bool {
	if len(t.h) < t.k {
		return true
	}
	worst := t.h[0]
	return bound > worst.Score || bound == worst.Score && first < worst.Doc
}

// rankWindow scores the documents of window w of the lone term ts that can
// enter the top k: a blocked window block by block, skipping the blocks
// whose impacts cannot beat the k-th score.
func (t *topRun) rankWindow(ts *termScorer, w *winInfo) error {
	x := t.x
	if err := x.loadWindow(ts.t, &ts.dc, w); err != nil {
		return err
	}
	ts.i, ts.open = 0, false
	if !ts.dc.blocked {
		return t.rankDocs(ts, ts.winBound(w.maxTF, w.minNorm))
	}
	for j := range ts.dc.bw.Blocks {
		b := &ts.dc.bw.Blocks[j]
		bound := ts.impactBound(b)
		if !t.beats(bound, b.Base) {
			t.skipped++
			continue
		}
		if _, err := x.seekBlock(ts.t, &ts.dc, b.Base); err != nil {
			return err
		}
		if err := t.rankDocs(ts, bound); err != nil {
			return err
		}
	}
	return nil
}

// rankDocs scores the decoded documents of ts (a window, or a block of one,
// all bounded by bound) while bound can beat the k-th score: each one's
// frequency from the tf column of the window's .prx frame, its norm from
// the field's norms.
func (t *topRun) rankDocs(ts *termScorer, bound float32) error {
	docs := ts.dc.docs
	if len(docs) == 0 {
		return nil
	}
	if err := ts.openWindow(); err != nil {
		return err
	}
	c, sim, ord := ts.c, &ts.sim, ts.dc.ord0
	for i, d := range docs {
		if !t.beats(bound, d) {
			return nil
		}
		tf := c.TF(ord + i) // the unit already parsed, else Seek
		if tf == 0 {
			var err error
			if tf, err = c.Seek(ord + i); err != nil {
				return ts.x.s.wrap(ts.x.prxWinName(ts.t, &ts.dc.w), err)
			}
		}
		t.collect(int64(d), sim.score(float32(tf), d))
	}
	return nil
}

// rankable reports whether root is a lone term rankTerm can rank (scored,
// not an explanation's walk).
func (t *topRun) rankable(root scorer) (*termScorer, bool) {
	ts, ok := root.(*termScorer)
	if !ok || t.explaining || ts.sim.inv == nil {
		return nil, false
	}
	return ts, true
}
