package reader

import (
	"cmp"
	"math"
	"slices"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/prx"
)

// topScratch is the scratch space of top-k searches: their term scorers
// (pooled, [:nscorers] in use).
type topScratch struct {
	scorers  []*termScorer
	nscorers int
	wins     []boundedWin // rankTerm's windows
}

// release empties the scratch for the pool, releasing the scorers' cursors.
func (t *topScratch) release() {
	for _, ts := range t.scorers[:t.nscorers] {
		c, buf, docs, blks := ts.c, ts.prxBuf, ts.dc.docs, ts.dc.blks
		c.Release() // drops a large inflation buffer
		if cap(buf) > maxPooledBytes {
			buf = nil
		}
		if cap(docs) > maxPooledDocs {
			docs, blks = nil, nil
		}
		*ts = termScorer{c: c, prxBuf: buf[:0], dc: docCursor{docs: docs[:0], blks: blks[:0]}}
	}
	t.nscorers = 0
	if cap(t.wins) > maxPooledWins {
		t.wins = nil
	}
	t.wins = t.wins[:0]
}

// exhausted is the doc of a scorer past its last document.
const exhausted = int64(1) << 32

// scorer walks the documents one (sub)query matches, in ascending order, and
// scores the current one.
type scorer interface {
	doc() int64
	// advance moves to the first document >= target (staying put when the
	// current one is already there) and returns it, or exhausted.
	advance(target int64) (int64, error)
	score() (float32, error)
	// maxScore bounds score() over every document.
	maxScore() float32
	// shallow returns a bound of score() over the documents in [target,
	// upTo] and upTo (exhausted when no document is left), without moving:
	// a term reads the impact bounds of the window holding target from its
	// prelude.
	shallow(target int64) (upTo int64, bound float32, err error)
	cost() uint64
	explain() (Explanation, error)
}

// termScorer scores one term: doc ids window by window, its frequency from
// the .prx window's tf column (no position decoded), positions on demand.
type termScorer struct {
	x      *qctx
	t      *termRef
	it     winIter
	dc     docCursor // the current window's doc ids (or block of them)
	i      int       // index into dc.docs; -1 before the first window
	cur    int64
	open   bool        // c reads the current window
	c      *prx.Cursor // kept with the scorer when the query context pools it
	prxBuf []byte
	sim    leafSim
	ub     float32
	query  string
	// blockBound's cache: block bbBlk (-1: none) of the window of load
	// generation bbGen (dc.gen)
	bbBlk   int
	bbGen   uint32
	bbBound float32
	// shallow's window walk (windowed terms): sw is the window sc returned
	// last, swAt the cursor before it (its next window is sw)
	sc, swAt format.WindowCursor
	sw       format.WindowInfo
	sValid   bool
}

// takeScorer returns a term scorer of the query context's pool (its cursor
// and buffers kept from an earlier query; putCtx empties the rest).
func (x *qctx) takeScorer() *termScorer {
	if x.nscorers == len(x.scorers) {
		x.scorers = append(x.scorers, &termScorer{c: new(prx.Cursor)})
	}
	ts := x.scorers[x.nscorers]
	x.nscorers++
	return ts
}

func (x *qctx) newTermScorer(t *termRef, sim leafSim, maxInv float32, query string) *termScorer {
	ts := x.takeScorer()
	*ts = termScorer{x: x, t: t, it: t.windows(0), i: -1, cur: -1, sim: sim, query: query, bbBlk: -1, c: ts.c, prxBuf: ts.prxBuf[:0],
		dc: docCursor{impacts: true, docs: ts.dc.docs[:0], blks: ts.dc.blks[:0]}} // (blockBound reads the impacts)
	if t.e.Class != format.ClassWindowed || sim.inv == nil {
		maxFreq := float32(t.e.TTF - t.e.DF + 1) // no document holds more
		ts.ub = sim.bound(maxFreq, maxInv)
		return ts
	}
	ts.ub = -1 // the largest of the windows' bounds, found at the first maxScore
	return ts
}

// winBound is the bound of a window of the term with these impact bounds.
func (ts *termScorer) winBound(maxTF uint32, minNorm byte) float32 {
	if ts.sim.norms == nil {
		minNorm = 1 // scored as Lucene without norms
	}
	return ts.sim.bound(float32(maxTF), ts.sim.inv[minNorm])
}

func (ts *termScorer) shallow(target int64) (int64, float32, error) {
	if ts.cur == exhausted {
		return exhausted, 0, nil
	}
	if ts.bbBlk >= 0 && ts.bbGen == ts.dc.gen { // the block asked for last, still loaded
		if b := &ts.dc.bw.Blocks[ts.bbBlk]; target >= int64(b.Base) && target <= int64(b.Last) {
			return int64(b.Last), ts.bbBound, nil
		}
	}
	if ts.t.e.Class != format.ClassWindowed {
		return exhausted - 1, ts.ub, nil
	}
	if w := &ts.dc.w; ts.i >= 0 && target >= int64(w.base) && target <= int64(w.last) {
		if ts.dc.blocked { // the bound of the 128-doc block holding target
			return ts.blockBound(uint32(target))
		}
		return int64(w.last), ts.winBound(w.maxTF, w.minNorm), nil
	}
	// Walk on from the window returned last (a few steps), else search.
	if ts.sValid && target >= int64(ts.sw.Base) {
		for n := 0; int64(ts.sw.LastDoc) < target && n < 8; n++ {
			at := ts.sc
			w, ok := ts.sc.Next()
			if !ok {
				return exhausted, 0, nil
			}
			ts.sw, ts.swAt = w, at
		}
	}
	if !ts.sValid || target < int64(ts.sw.Base) || int64(ts.sw.LastDoc) < target {
		j, err := ts.t.find(uint32(min(target, 1<<32-1)))
		if err != nil || j >= ts.t.nWin {
			return exhausted, 0, err
		}
		ts.sc = ts.t.pre.Cursor(j)
		ts.swAt = ts.sc
		ts.sw, _ = ts.sc.Next()
		ts.sValid = true
	}
	return int64(ts.sw.LastDoc), ts.winBound(ts.sw.MaxTF, ts.sw.MinNorm), nil
}

// deepBound is shallow, finer when target lies in a blocked window not
// loaded yet: the window's directory is loaded (no block is decoded) and the
// bound is that of the 128-doc block holding target. target must not be
// behind the window loaded.
func (ts *termScorer) deepBound(target int64) (int64, float32, error) {
	upTo, b, err := ts.shallow(target)
	if err != nil || upTo == exhausted || ts.t.e.Class != format.ClassWindowed {
		return upTo, b, err
	}
	if w := &ts.dc.w; ts.i >= 0 && target >= int64(w.base) && target <= int64(w.last) {
		return upTo, b, nil // the loaded window's bound
	}
	// shallow found the window holding target in the prelude (ts.sw).
	if ts.sw.Docs < format.BlockedMinDocs {
		return upTo, b, nil
	}
	ts.it = winIter{t: ts.t, cur: ts.swAt, i: ts.swAt.Index()}
	if ok, err := ts.load(); err != nil || !ok {
		return upTo, b, err
	}
	return ts.shallow(target)
}

// peak returns the largest frequency and the smallest norm byte the term's
// documents in [target, upTo] can have, from the finest impacts deepBound
// reaches (the 128-doc block holding target, else its window's bounds; a
// term of one window: ttf - df + 1 and norm 0). target must not be behind
// the window loaded.
func (ts *termScorer) peak(target int64) (upTo int64, maxTF uint32, minNorm byte, err error) {
	if ts.t.e.Class != format.ClassWindowed {
		if ts.cur == exhausted {
			return exhausted, 0, 0, nil
		}
		return exhausted - 1, uint32(min(ts.t.e.TTF-ts.t.e.DF+1, 1<<32-1)), 0, nil
	}
	upTo, _, err = ts.deepBound(target) // loads the window holding target if blocked
	if err != nil || upTo == exhausted {
		return upTo, 0, 0, err
	}
	if w := &ts.dc.w; ts.i >= 0 && target >= int64(w.base) && target <= int64(w.last) {
		// deepBound asked blockBound for target's block: it is bbBlk.
		if ts.dc.blocked && ts.bbBlk >= 0 && ts.bbGen == ts.dc.gen {
			if b := &ts.dc.bw.Blocks[ts.bbBlk]; b.NImpacts > 0 {
				return int64(b.Last), b.Impacts[b.NImpacts-1].TF, b.Impacts[0].Norm, nil
			}
		}
		return upTo, w.maxTF, w.minNorm, nil
	}
	return upTo, ts.sw.MaxTF, ts.sw.MinNorm, nil // the prelude's window holding target
}

// blockBound returns the last doc and the bound of the block of the current
// (blocked) window that holds target (base <= target <= the window's last),
// caching the block last asked for: its bound is computed once.
func (ts *termScorer) blockBound(target uint32) (int64, float32, error) {
	blks := ts.dc.bw.Blocks
	j := ts.bbBlk
	if ts.bbGen != ts.dc.gen || j < 0 || target < blks[j].Base {
		j, ts.bbBlk = 0, -1
	}
	j = ts.dc.bw.Find(j, target)
	if j != ts.bbBlk {
		ts.bbBlk, ts.bbGen, ts.bbBound = j, ts.dc.gen, ts.impactBound(&blks[j])
	}
	return int64(blks[j].Last), ts.bbBound, nil
}

// impactBound is the bound of a block of the term: the best of its impacts.
func (ts *termScorer) impactBound(b *format.DocBlock) float32 {
	var bound float32
	for _, p := range b.Impacts[:b.NImpacts] {
		bound = max(bound, ts.winBound(p.TF, p.Norm))
	}
	return bound
}

func (ts *termScorer) doc() int64 { return ts.cur }
func (ts *termScorer) maxScore() float32 {
	if ts.ub < 0 {
		ts.ub = 0
		c := ts.t.pre.Cursor(0)
		for w, ok := c.Next(); ok; w, ok = c.Next() {
			ts.ub = max(ts.ub, ts.winBound(w.MaxTF, w.MinNorm))
		}
	}
	return ts.ub
}
func (ts *termScorer) cost() uint64 { return ts.t.e.DF }

// load reads the iterator's next window (a blocked window's directory only).
func (ts *termScorer) load() (bool, error) {
	if err := ts.x.check(); err != nil {
		return false, err
	}
	w, ok := ts.it.next()
	if !ok {
		ts.cur = exhausted
		return false, nil
	}
	if err := ts.x.loadWindow(ts.t, &ts.dc, &w); err != nil {
		return false, err
	}
	ts.i, ts.open = 0, false
	return true, nil
}

// seekIn moves to the first doc >= target of the loaded window, if any: in
// the doc ids decoded, or in a later block of a blocked window.
func (ts *termScorer) seekIn(target uint32) (bool, error) {
	dc := &ts.dc
	if n := len(dc.docs); n > 0 && target <= dc.docs[n-1] {
		ts.i = seekGE(dc.docs, max(ts.i, 0), target)
		ts.cur = int64(dc.docs[ts.i])
		return true, nil
	}
	if !dc.blocked || target > dc.w.last {
		return false, nil
	}
	ok, err := ts.x.seekBlock(ts.t, dc, target)
	if err != nil || !ok {
		return false, err
	}
	ts.i = seekGE(dc.docs, 0, target)
	ts.cur = int64(dc.docs[ts.i])
	return true, nil
}

func (ts *termScorer) advance(target int64) (int64, error) {
	if ts.cur >= target || ts.cur == exhausted {
		return ts.cur, nil
	}
	if i := ts.i + 1; ts.i >= 0 && i < len(ts.dc.docs) && int64(ts.dc.docs[i]) >= target { // the next doc
		ts.i, ts.cur = i, int64(ts.dc.docs[i])
		return ts.cur, nil
	}
	if target >= exhausted {
		ts.cur = exhausted
		return ts.cur, nil
	}
	tg := uint32(max(target, 0))
	if d := ts.dc.docs; ts.i >= 0 && len(d) > 0 && tg <= d[len(d)-1] { // in the docs decoded
		// The search starts after the current doc when it is behind target
		// (then the next doc, usually the answer, is checked first).
		lo := ts.i
		if lo < len(d) && d[lo] < tg {
			lo++
		}
		ts.i = seekGE(d, lo, tg)
		ts.cur = int64(d[ts.i])
		return ts.cur, nil
	}
	if ts.i >= 0 {
		if ok, err := ts.seekIn(tg); err != nil || ok {
			return ts.cur, err
		}
	}
	if ts.t.e.Class == format.ClassWindowed {
		j, err := ts.t.find(tg)
		if err != nil {
			return 0, err
		}
		if j >= ts.t.nWin {
			ts.cur = exhausted
			return ts.cur, nil
		}
		if j > ts.dc.w.idx || ts.i < 0 {
			ts.it = ts.t.windows(j)
		}
	} else if ts.i >= 0 { // the only window is behind target
		ts.cur = exhausted
		return ts.cur, nil
	}
	for {
		ok, err := ts.load()
		if err != nil || !ok {
			return ts.cur, err
		}
		if ok, err := ts.seekIn(tg); err != nil || ok {
			return ts.cur, err
		}
	}
}

// openWindow makes the cursor read the current window's .prx frame.
func (ts *termScorer) openWindow() error {
	if ts.open {
		return nil
	}
	x, t := ts.x, ts.t
	frame, withCRC := t.e.Frame, false
	if t.e.Class != format.ClassInline {
		b, err := x.readInto(ts.dc.w.prxOff, ts.dc.w.prxLen, &ts.prxBuf)
		if err != nil {
			return x.s.wrap(x.prxWinName(t, &ts.dc.w), err)
		}
		frame, withCRC = b, true
	}
	if err := x.source().OpenAt(ts.c, frame, withCRC, ts.dc.w.docs, x.verifier(), int64(ts.dc.w.prxOff)); err != nil {
		return x.s.wrap(x.prxWinName(t, &ts.dc.w), err)
	}
	x.count.prxWindows++
	ts.open = true
	return nil
}

// freq returns the term frequency in the current document.
func (ts *termScorer) freq() (int, error) {
	ord := ts.dc.ord0 + ts.i
	if ts.open {
		if tf := ts.c.TF(ord); tf > 0 { // the unit already parsed
			return tf, nil
		}
	} else if err := ts.openWindow(); err != nil {
		return 0, err
	}
	tf, err := ts.c.Seek(ord)
	if err != nil {
		return 0, ts.x.s.wrap(ts.x.prxWinName(ts.t, &ts.dc.w), err)
	}
	return tf, nil
}

// positions appends the positions of the term in the current document.
func (ts *termScorer) positions(dst []uint32) ([]uint32, error) {
	if _, err := ts.freq(); err != nil {
		return dst, err
	}
	dst, err := ts.c.AppendPositions(dst)
	if err != nil {
		return dst, ts.x.s.wrap(ts.x.prxWinName(ts.t, &ts.dc.w), err)
	}
	return dst, nil
}

func (ts *termScorer) score() (float32, error) {
	tf, err := ts.freq()
	if err != nil {
		return 0, err
	}
	return ts.sim.score(float32(tf), uint32(ts.cur)), nil
}

func (ts *termScorer) explain() (Explanation, error) {
	return ts.sim.explainFreq(ts.freq, ts.cur, ts.query)
}

// phraseScorer scores an exact phrase: its documents come from the phrase
// evaluation; its frequency (Lucene's: the number of start positions where
// the whole phrase matches) from the positions of its distinct terms.
type phraseScorer struct {
	listIter
	terms []*termScorer // distinct terms
	slot  []int         // phrase position k -> index into terms
	pos   [][]uint32    // positions of each distinct term in the current doc
	at    []int         // freq's cursor into pos of each phrase position
	sim   leafSim
	ub    float32
	query string
	// skipTo's last range that can beat passTh: [passFrom, passUpTo]
	passFrom, passUpTo int64
	passTh             float32
}

func (ps *phraseScorer) maxScore() float32 { return ps.ub }

// shallow bounds the phrase over [target, upTo] without reading a position:
// its frequency in a document is at most each term's, so each term's bound
// at the phrase's next document d (its terms score with the phrase's idf:
// the impacts of the 128-doc block holding d, or its window's bounds) bounds
// the phrase up to that block's end; the least of them holds up to the
// nearest end.
func (ps *phraseScorer) shallow(target int64) (int64, float32, error) {
	return ps.boundAt(ps.peek(target))
}

// boundAt is shallow at the phrase's document d (exhausted: none).
func (ps *phraseScorer) boundAt(d int64) (int64, float32, error) {
	if d == exhausted {
		return exhausted, 0, nil
	}
	upTo, bound := exhausted-1, ps.ub
	for _, ts := range ps.terms {
		u, b, err := ts.deepBound(d)
		if err != nil {
			return 0, 0, err
		}
		upTo, bound = min(upTo, u), min(bound, b)
	}
	return upTo, bound, nil
}

// skipTo passes the ranges where one of the terms' bounds (at the phrase's
// idf) cannot beat th: the phrase cannot there either, so the widest such
// range is passed, be it the window of a term (its prelude bounds) or a
// 128-doc block (a blocked window's impacts).
func (ps *phraseScorer) skipTo(d int64, th float32) (int64, error) {
	if d >= ps.passFrom && d <= ps.passUpTo && th == ps.passTh {
		return d, nil // within the range found able to beat th last time
	}
	next, upTo := d, exhausted
	for _, ts := range ps.terms {
		u, b, err := ts.shallow(d)
		if err != nil || u == exhausted {
			return exhausted, err
		}
		if b > th {
			if u, b, err = ts.deepBound(d); err != nil || u == exhausted {
				return exhausted, err
			}
		}
		if b <= th {
			next = max(next, u+1)
		}
		upTo = min(upTo, u)
	}
	if next == d {
		ps.passFrom, ps.passUpTo, ps.passTh = d, upTo, th
	}
	return next, nil
}

// docBound bounds the phrase's score in the current document from its terms'
// frequencies (the phrase occurs at most as often as each), reading no
// position.
func (ps *phraseScorer) docBound() (float32, error) {
	f := math.MaxInt
	for _, t := range ps.terms {
		tf, err := termFreq(t, ps.cur)
		if err != nil {
			return 0, err
		}
		f = min(f, tf)
	}
	return ps.sim.score(float32(f), uint32(ps.cur)), nil
}

// termFreq returns the frequency of a phrase's term in doc, which the phrase
// matched.
func termFreq(t *termScorer, doc int64) (int, error) {
	d, err := t.advance(doc)
	if err != nil {
		return 0, err
	}
	if d != doc {
		return 0, t.x.s.corrupt(t.t.name(), "doc %d matches the phrase but does not hold the term", doc)
	}
	return t.freq()
}

// wholeBound is the shallow answer of a scorer without finer bounds.
func wholeBound(cur int64, ub float32) (int64, float32, error) {
	if cur == exhausted {
		return exhausted, 0, nil
	}
	return exhausted - 1, ub, nil
}

// listIter walks an ascending doc list (cur -1 before the first).
type listIter struct {
	docs []uint32
	i    int
	cur  int64
}

func newListIter(docs []uint32) listIter { return listIter{docs: docs, i: -1, cur: -1} }

// peek returns the first document >= target without moving, or exhausted.
func (l *listIter) peek(target int64) int64 {
	if l.cur >= target || l.cur == exhausted {
		return l.cur
	}
	i := seekGE(l.docs, max(l.i, 0), uint32(min(target, 1<<32-1)))
	if i == len(l.docs) || int64(l.docs[i]) < target {
		return exhausted
	}
	return int64(l.docs[i])
}

func (l *listIter) doc() int64   { return l.cur }
func (l *listIter) cost() uint64 { return uint64(len(l.docs)) }

func (l *listIter) advance(target int64) (int64, error) {
	if l.cur >= target || l.cur == exhausted {
		return l.cur, nil
	}
	l.i = seekGE(l.docs, max(l.i, 0), uint32(min(target, 1<<32-1)))
	if l.i == len(l.docs) || int64(l.docs[l.i]) < target {
		l.cur = exhausted
	} else {
		l.cur = int64(l.docs[l.i])
	}
	return l.cur, nil
}

// freq counts the phrase's start positions in the current document.
func (ps *phraseScorer) freq() (int, error) {
	if err := termPositions(ps.terms, ps.cur, ps.pos); err != nil {
		return 0, err
	}
	return phraseStarts(ps.pos, ps.slot, ps.at), nil
}

// phraseStarts counts the start positions p where an exact phrase occurs:
// those where every phrase position k holds its term (pos[slot[k]], the
// ascending positions of each distinct term) at p + k. at is scratch, one
// per phrase position.
func phraseStarts(pos [][]uint32, slot []int, at []int) int {
	// Merge: the starts p ascend, so each offset k's wanted position p + k
	// does, and its cursor at[k] into its term's positions only moves on.
	clear(at)
	n := 0
	for _, p := range pos[slot[0]] {
		ok := true
		for k := 1; k < len(slot) && ok; k++ {
			l, want := pos[slot[k]], uint64(p)+uint64(k)
			j := at[k]
			for j < len(l) && uint64(l[j]) < want {
				j++
			}
			if j == len(l) {
				return n // no later start can match
			}
			at[k], ok = j, uint64(l[j]) == want
		}
		if ok {
			n++
		}
	}
	return n
}

func (ps *phraseScorer) score() (float32, error) {
	e, err := ps.sim.explainFreq(ps.freq, ps.cur, "")
	return e.Score, err
}

func (ps *phraseScorer) explain() (Explanation, error) {
	return ps.sim.explainFreq(ps.freq, ps.cur, ps.query)
}

// constScorer gives every document of a list the score 1 (prefix queries, as
// Lucene's constant-score rewrite of multi-term queries).
type constScorer struct {
	listIter
	query string
}

func (cs *constScorer) maxScore() float32 { return 1 }
func (cs *constScorer) shallow(target int64) (int64, float32, error) {
	return wholeBound(cs.cur, 1)
}
func (cs *constScorer) score() (float32, error) {
	return 1, nil
}
func (cs *constScorer) explain() (Explanation, error) {
	return Explanation{Query: cs.query, Score: 1}, nil
}

// sumScore adds child scores as Lucene's boolean scorers do: in float64,
// rounded to float32 once.
type sumScore struct {
	kids  []scorer
	cur   int64
	query string
	ub    float32
}

func (b *sumScore) doc() int64        { return b.cur }
func (b *sumScore) maxScore() float32 { return b.ub }
func (b *sumScore) shallow(target int64) (int64, float32, error) {
	return wholeBound(b.cur, b.ub)
}

// conjScorer matches the documents all its children match; it walks them
// cheapest first and explains them in the query's order (which does not
// depend on the segment).
type conjScorer struct {
	sumScore
	inQuery []scorer
}

func newConj(kids []scorer, query string) *conjScorer {
	byCost := slices.Clone(kids)
	slices.SortStableFunc(byCost, func(a, b scorer) int { return cmp.Compare(a.cost(), b.cost()) })
	var ub float64
	for _, k := range kids {
		ub += float64(k.maxScore())
	}
	return &conjScorer{sumScore{kids: byCost, cur: -1, query: query, ub: roundUp(ub)}, kids}
}

func (c *conjScorer) cost() uint64 { return c.kids[0].cost() }

func (c *conjScorer) advance(target int64) (int64, error) {
	if c.cur >= target || c.cur == exhausted {
		return c.cur, nil
	}
	d := target
	for {
		agree := true
		for _, k := range c.kids {
			got, err := k.advance(d)
			if err != nil {
				return 0, err
			}
			if got == exhausted {
				c.cur = exhausted
				return c.cur, nil
			}
			if got > d {
				d, agree = got, false
				break
			}
		}
		if agree {
			c.cur = d
			return d, nil
		}
	}
}

func (c *conjScorer) score() (float32, error) {
	var s float64
	for _, k := range c.kids {
		v, err := k.score()
		if err != nil {
			return 0, err
		}
		s += float64(v)
	}
	return float32(s), nil
}

func (b *sumScore) explainKids(on func(k scorer) bool) (Explanation, error) {
	e := Explanation{Query: b.query}
	var s float64
	for _, k := range b.kids {
		if !on(k) {
			continue
		}
		ke, err := k.explain()
		if err != nil {
			return Explanation{}, err
		}
		s += float64(ke.Score)
		e.Children = append(e.Children, ke)
	}
	e.Score = float32(s)
	return e, nil
}

func (c *conjScorer) explain() (Explanation, error) {
	b := c.sumScore
	b.kids = c.inQuery
	return b.explainKids(func(scorer) bool { return true })
}

// disjScorer matches the documents any child matches (a nested Or; the top
// level Or runs MaxScore instead, see topRun.maxScore).
type disjScorer struct{ sumScore }

func newDisj(kids []scorer, query string) *disjScorer {
	var ub float64
	for _, k := range kids {
		ub += float64(k.maxScore())
	}
	return &disjScorer{sumScore{kids: kids, cur: -1, query: query, ub: roundUp(ub)}}
}

func (d *disjScorer) cost() uint64 {
	var c uint64
	for _, k := range d.kids {
		c += k.cost()
	}
	return c
}

func (d *disjScorer) advance(target int64) (int64, error) {
	if d.cur >= target || d.cur == exhausted {
		return d.cur, nil
	}
	m := exhausted
	for _, k := range d.kids {
		got, err := k.advance(target)
		if err != nil {
			return 0, err
		}
		m = min(m, got)
	}
	d.cur = m
	return m, nil
}

func (d *disjScorer) score() (float32, error) {
	var s float64
	for _, k := range d.kids {
		if k.doc() != d.cur {
			continue
		}
		v, err := k.score()
		if err != nil {
			return 0, err
		}
		s += float64(v)
	}
	return float32(s), nil
}

func (d *disjScorer) explain() (Explanation, error) {
	return d.explainKids(func(k scorer) bool { return k.doc() == d.cur })
}

// roundUp rounds a float64 bound up to a float32.
func roundUp(v float64) float32 {
	f := float32(v)
	if float64(f) < v {
		f = nextUp(f)
	}
	return f
}
