package reader

import (
	"bytes"
	"math"
	"slices"

	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/objstore"
)

// Read rounds on an objstore.ReaderAt. A query reads in stages, each needing what
// the one before returned; each stage hands all its byte ranges to Prefetch
// at once, so it costs one round however many ranges it has:
//
//  1. dictionary blocks: the blocks of every term and prefix of the query
//     (those the segment's block cache lacks; for a fuzzy term, every block
//     of the field but those its walk skips), and a small pair section
//     (remotePairs) a phrase may plan with;
//  2. postings heads: for each term found (and each prefix or fuzzy
//     expansion, up to maxPlannedExpansions), a slim term's postings (its doc
//     window alone when not every doc will be read), a windowed term's
//     prelude (by its size), or its whole doc span when every window will be
//     read (a term query's docs, a phrase's rarest term);
//  3. doc windows (collect): the windows of a term that can hold a candidate,
//     and (planSlots) the head of their .prx frames;
//  4. .prx units (fetchUnits): the multi-unit header and the units of the
//     windows holding candidates that hold one.
//
// The reads then run as on a local file, served from what was fetched. A
// stage that guessed short (a prelude longer than its guess) costs a round
// more, never a wrong answer.
const (
	// maxPlannedExpansions bounds the prefix expansions planned in stage 2.
	maxPlannedExpansions = 256
)

// planQuery runs stages 1 and 2 for q on a remote segment (a no-op
// otherwise). Errors are left to the query, which reads again and reports them.
func (x *qctx) planQuery(q Query, countOnly bool) {
	if x.s.remote() == nil {
		return
	}
	var ts []plannedTerm
	walkTerms(q, countOnly, func(t plannedTerm) { ts = append(ts, t) })
	var rs []objstore.Range
	for _, t := range ts {
		f, err := x.s.field(t.field)
		if err != nil {
			continue
		}
		var far *editRows // a fuzzy term's blocks too far to hold a match
		if t.fuzzy != nil {
			far = newEditRows([]rune(t.fuzzy.term), t.fuzzy.maxEdits)
		}
		lo := f.findBlock(t.term)
		switch {
		case t.fuzzy != nil:
			lo = 0 // the walk may read any block
		case t.prefix:
			lo = max0(lo)
		}
		for bi := lo; bi >= 0 && bi < len(f.meta.Blocks); bi++ {
			if bi > lo && t.fuzzy == nil && (!t.prefix || !bytes.HasPrefix(f.meta.FirstTerms[bi], t.term)) {
				break
			}
			if f.slots[bi].Load() == nil && (far == nil || !f.farBlock(far, bi)) {
				info := f.meta.Blocks[bi]
				rs = append(rs, objstore.Range{Off: int64(f.meta.DictOff + info.Offset), Len: int64(info.StoredLen)})
			}
		}
		if m := &f.meta; t.pairs && !x.noPairs && m.PairCount > 0 && f.pairs.Load() == nil && f.remotePairs(x) {
			rs = append(rs, objstore.Range{Off: int64(m.PairsOff), Len: int64(m.PairsLen)}) // (Prefetch skips a repeat)
		}
	}
	x.prefetch(rs)

	// Stage 2. The rarest exact term of each phrase is read whole (its every
	// doc window holds candidates).
	rs = rs[:0]
	rarest := map[int]int{} // phrase -> index in ts
	var e format.Entry
	for i := range ts {
		t := &ts[i]
		f, err := x.s.field(t.field)
		if err != nil {
			continue
		}
		if t.prefix || t.fuzzy != nil {
			maxExp := t.maxExp
			if maxExp <= 0 || maxExp > maxPlannedExpansions {
				maxExp = maxPlannedExpansions
			}
			head := func(_ []byte, e *format.Entry) (bool, error) {
				rs = appendHead(rs, f, e, t.whole)
				return true, nil
			}
			if t.fuzzy != nil {
				if t.fuzzy.check() == nil {
					_ = f.scanFuzzy(x, []rune(t.fuzzy.term), t.fuzzy.maxEdits, maxExp, head)
				}
			} else {
				_ = f.scanPrefix(x, t.term, maxExp, head)
			}
			continue
		}
		if found, err := f.lookup(x, t.term, &e); err != nil || !found {
			continue
		}
		t.e, t.found = e, true
		rs = appendHead(rs, f, &e, t.whole)
		if t.phrase >= 0 {
			if j, ok := rarest[t.phrase]; !ok || e.DF < ts[j].e.DF {
				rarest[t.phrase] = i
			}
		}
	}
	for _, i := range rarest {
		f, _ := x.s.field(ts[i].field)
		rs = appendHead(rs, f, &ts[i].e, true)
	}
	x.prefetch(rs)
}

// plannedTerm is a term or prefix of a query, for stages 1 and 2.
type plannedTerm struct {
	field  string
	term   []byte
	prefix bool
	whole  bool // all its doc windows will be read (a term or prefix query's docs)
	maxExp int  // a prefix's (or fuzzy term's) expansion bound
	phrase int  // the phrase it belongs to (a number within the query), -1 if none
	pairs  bool // its phrase may be planned with the field's pairs
	e      format.Entry
	found  bool
	fuzzy  *fuzzyQuery // a fuzzy term (term unset): its dictionary walk
}

// appendHead appends the stage-2 range of a term's postings.
func appendHead(rs []objstore.Range, f *field, e *format.Entry, whole bool) []objstore.Range {
	m := &f.meta
	if e.Class == format.ClassInline || e.CheckLocator(m.PostingLen) != nil {
		return rs
	}
	start := m.PostingOff + e.Offset
	switch {
	case e.Class == format.ClassSlim && !whole:
		return append(rs, objstore.Range{Off: int64(start + e.PrxLen), Len: int64(e.DocLen)}) // its .prx frame: stage 3
	case e.Class == format.ClassSlim:
		return append(rs, objstore.Range{Off: int64(start), Len: int64(e.PrxLen + e.DocLen)})
	case whole:
		return append(rs, objstore.Range{Off: int64(start + e.PrxLen), Len: int64(e.DocLen)})
	default:
		return append(rs, objstore.Range{Off: int64(start + e.PrxLen), Len: int64(min(e.DocLen, preludeGuess(e.DF)))})
	}
}

// preludeGuess is what stage 2 fetches of the prelude of a windowed term of
// df documents: its windows' entries at their longest (18 bytes each; the
// writer splits a window only past a .prx limit, adding one), its
// super-blocks and its header. A longer prelude costs a round more.
func preludeGuess(df uint64) uint64 {
	per := uint64(format.WindowDocs)
	if df >= format.LargeDF {
		per = format.WindowDocsLarge
	}
	nw := df/per + 2
	return 16 + 24*(nw/format.SuperBlockWindows+1) + 18*nw
}

// walkTerms calls fn for each term and prefix of q, numbering its phrases.
func walkTerms(q Query, countOnly bool, fn func(plannedTerm)) {
	w := &termWalk{fn: fn}
	w.walk(q, countOnly)
}

// termWalk lists the terms of a query for planning (planTerms); n numbers
// its phrases.
type termWalk struct {
	n  int
	fn func(plannedTerm)
}

// walk lists the terms of q (none for a nil query).
func (w *termWalk) walk(q Query, countOnly bool) {
	if q != nil {
		q.planTerms(w, countOnly)
	}
}

// planDocWindows runs stage 3 for one term: the doc windows that can hold a
// candidate (all of them when all is set). Those planned with planSlots are
// held already and cost nothing.
func (x *qctx) planDocWindows(t *termRef, cands []uint32, all bool) {
	if x.s.remote() == nil {
		return
	}
	x.prefetch(appendDocWindows(nil, t, cands, all, false))
}

// planSlots runs stage 3 for the slots of a phrase's conjunction: at k = 0 the
// rarest slot's terms, at k = 1 every other slot's terms against the rarest
// slot's docs (a superset of the candidates each will be given), so that
// the conjunction costs two rounds whatever its number of terms. The k = 1
// round also fetches the head of the .prx frame of every window that can
// hold a candidate (the rarest slot's windows holding its kept docs, the
// others' holding one of in), where stage 4 finds the units to fetch.
func (x *qctx) planSlots(p *phrasePlan, k int, in []uint32, all bool) {
	if x.s.remote() == nil || k > 1 {
		return
	}
	slots := p.order[:1]
	if k == 1 {
		slots = p.order[1:]
	}
	var rs []objstore.Range
	for _, si := range slots {
		for _, t := range p.slots[si].terms {
			rs = appendDocWindows(rs, t, in, all, k == 1)
		}
	}
	if k == 1 {
		for _, t := range p.slots[p.order[0]].terms {
			for i := range t.wins {
				if w := &t.wins[i]; t.e.Class != format.ClassInline && unitsPay(supIn(in, w), w) {
					rs = append(rs, prxHead(w))
				}
			}
		}
	}
	x.prefetch(rs)
}

// appendDocWindows appends the doc windows of t that can hold one of cands
// (all of them when all is set), and with heads the head of each one's .prx
// frame (prxHead).
func appendDocWindows(rs []objstore.Range, t *termRef, cands []uint32, all, heads bool) []objstore.Range {
	if t.e.Class != format.ClassWindowed {
		if w := t.single(); heads && t.e.Class == format.ClassSlim && unitsPay(supIn(cands, &w), &w) {
			rs = append(rs, prxHead(&w))
		}
		return rs
	}
	it := t.windows(0)
	ci := 0
	for {
		w, ok := it.next()
		if !ok {
			break
		}
		n := w.docs
		if !all {
			if ci == len(cands) {
				break
			}
			if cands[ci] > w.last {
				continue
			}
			c0 := ci
			for ci < len(cands) && cands[ci] <= w.last {
				ci++
			}
			n = ci - c0
		}
		rs = append(rs, objstore.Range{Off: int64(w.docOff), Len: int64(w.docLen)})
		if heads && unitsPay(n, &w) {
			rs = append(rs, prxHead(&w))
		}
	}
	return rs
}

// unitBytes is what a remote phrase expects a .prx unit holding a candidate
// to cost: a unit holds up to 512 positions, a few hundred bytes.
const unitBytes = 1 << 10

// unitsPay reports whether the .prx units of window w, which can hold n
// candidates, are fetched (after its multi-unit header) rather than its
// whole frame: when the header and a unit per candidate are expected to
// take at most half the frame. A header costs a request of its own; a window
// with many candidates needs most of its units.
func unitsPay(n int, w *winInfo) bool {
	return uint64(n)*unitBytes+headGuess(w.prxLen, w.docs) <= w.prxLen/2
}

// supIn returns the number of docs of sup (ascending) in window w.
func supIn(sup []uint32, w *winInfo) int {
	lo, _ := slices.BinarySearch(sup, w.base)
	if w.last == math.MaxUint32 {
		return len(sup) - lo
	}
	hi, found := slices.BinarySearch(sup[lo:], w.last)
	if found {
		hi++
	}
	return hi
}

// headGuess is the bytes of a .prx frame of n bytes and docs documents fetched
// to read its multi-unit header (2 to 10 bytes a unit, a unit holding up to
// 512 positions): 32 bytes and the less of half a byte per document and a
// sixteenth of the frame. A header that outgrows it costs stage 4 a round
// more, never a wrong answer.
func headGuess(n uint64, docs int) uint64 { return min(n, 32+min(uint64(docs)/2, n/16)) }

// headMax bounds the multi-unit header of a frame of docs documents: a unit
// holds one document or more, an entry takes at most two 5-byte uvarints.
func headMax(docs int) uint64 { return 1 + 5 + 10*uint64(docs) + 4 }

// prxHead is the head of w's .prx frame fetched with its doc window: the whole
// frame when it is that short.
func prxHead(w *winInfo) objstore.Range {
	return objstore.Range{Off: int64(w.prxOff), Len: int64(headGuess(w.prxLen, w.docs))}
}

// fetchUnits runs stage 4 on a remote segment: it reads the head of each
// frame x.order lists (fetched in stage 3 when it ran, else in a round of its
// own), finds the units holding the job's docs from the multi-unit header,
// fetches them in one round and sets each job's frame: the frame's bytes where
// the header and those units lie (a cursor reading those docs reads nothing
// else; see prx.Cursor). A frame of one unit, or whose header does not
// parse, is read whole (the cursor reports what is wrong with it). The bytes
// counted as read are those spans, however much was fetched.
func (x *qctx) fetchUnits(r objstore.ReaderAt, sup []uint32) error {
	rs := make([]objstore.Range, 0, len(x.order))
	for _, i := range x.order {
		if w := x.jobs[i].win(); unitsPay(supIn(sup, w), w) {
			rs = append(rs, prxHead(w))
		}
	}
	x.prefetch(rs)
	x.ranges = x.ranges[:0]
	var short []int // jobs whose header outgrows its head
	for _, i := range x.order {
		j := &x.jobs[i]
		w := j.win()
		j.frame, j.got = x.alloc(w.prxLen), 0
		if !unitsPay(supIn(sup, w), w) {
			j.s0 = len(x.ranges)
			x.ranges = append(x.ranges, span{0, w.prxLen}) // the whole frame
			j.s1 = len(x.ranges)
			continue
		}
		if err := x.readFrame(r, j, 0, headGuess(w.prxLen, w.docs)); err != nil {
			return err
		}
		if !x.unitSpans(j) {
			short = append(short, i)
		}
	}
	if len(short) > 0 {
		rs = rs[:0]
		for _, i := range short {
			w := x.jobs[i].win()
			rs = append(rs, objstore.Range{Off: int64(w.prxOff), Len: int64(min(w.prxLen, headMax(w.docs)))})
		}
		x.prefetch(rs)
		for _, i := range short {
			j := &x.jobs[i]
			w := j.win()
			if err := x.readFrame(r, j, j.got, min(w.prxLen, headMax(w.docs))); err != nil {
				return err
			}
			if !x.unitSpans(j) {
				x.ranges = append(x.ranges[:j.s0], span{0, w.prxLen}) // unparsable: whole
				j.s1 = len(x.ranges)
			}
		}
	}
	rs = rs[:0]
	for _, i := range x.order {
		j := &x.jobs[i]
		w := j.win()
		for _, sp := range x.ranges[j.s0:j.s1] {
			if sp.end > j.got {
				off := max(sp.off, j.got)
				rs = append(rs, objstore.Range{Off: int64(w.prxOff + off), Len: int64(sp.end - off)})
			}
		}
	}
	x.prefetch(rs)
	for _, i := range x.order {
		j := &x.jobs[i]
		whole := j.got == 0
		for _, sp := range x.ranges[j.s0:j.s1] {
			if sp.end > j.got {
				if err := x.readFrame(r, j, max(sp.off, j.got), sp.end); err != nil {
					return err
				}
			}
		}
		if whole {
			x.unitSpans(j) // the spans a cursor reads, to count them (all held: never false)
		}
		for _, sp := range x.ranges[j.s0:j.s1] {
			x.count.bytesRead += int64(sp.end - sp.off)
			x.count.ranges++
		}
	}
	return nil
}

// readFrame reads bytes [from, to) of job j's frame into j.frame, then holds
// its first to bytes (j.got) when from is j.got.
func (x *qctx) readFrame(r objstore.ReaderAt, j *frameJob, from, to uint64) error {
	w := j.win()
	b := j.frame[from:to]
	if _, err := x.readRemote(r, w.prxOff+from, to-from, &b); err != nil {
		return j.t.f.seg.wrap(x.prxWinName(j.t, w), err)
	}
	if from == j.got {
		j.got = to
	}
	return nil
}

// unitSpans sets the spans of job j (appended to x.ranges) from the first
// j.got bytes of its frame: the multi-unit header and the units holding the
// job's docs, or the whole frame. It returns false, setting no span, when the
// header goes on past j.got.
func (x *qctx) unitSpans(j *frameJob) bool {
	w := j.win()
	f, n := j.frame[:j.got], w.prxLen
	j.s0 = len(x.ranges)
	whole := func() bool {
		x.ranges = append(x.ranges[:j.s0], span{0, n})
		j.s1 = len(x.ranges)
		return true
	}
	more := j.got < n
	if len(f) == 0 || !prx.IsMulti(f) {
		return whole()
	}
	nu, p, ok := bitpack.ReadUvarint(f, 1)
	if !ok {
		return !more && whole()
	}
	if nu < 2 || nu > uint64(w.docs) {
		return whole()
	}
	// The header ends after nu entries and a CRC: find its end first.
	q := p
	for u := uint64(0); u < 2*nu; u++ {
		if _, q, ok = bitpack.ReadUvarint(f, q); !ok {
			return !more && whole()
		}
	}
	end := uint64(q) + prx.CRCSize
	if end > uint64(len(f)) {
		return !more && whole()
	}
	x.ranges = append(x.ranges, span{0, end})
	ords := j.t.ords[j.lo:j.hi]
	base, off := uint64(0), end
	for u := uint64(0); u < nu && len(ords) > 0; u++ {
		d, q1, _ := bitpack.ReadUvarint(f, p)
		l, q2, _ := bitpack.ReadUvarint(f, q1)
		p = q2
		if off+l > n {
			return whole()
		}
		if uint64(ords[0]) < base+d {
			if k := len(x.ranges) - 1; x.ranges[k].end == off {
				x.ranges[k].end = off + l // the next unit: one span
			} else {
				x.ranges = append(x.ranges, span{off, off + l})
			}
			for len(ords) > 0 && uint64(ords[0]) < base+d {
				ords = ords[1:]
			}
		}
		base += d
		off += l
	}
	j.s1 = len(x.ranges)
	return true
}

// win returns the window of job j.
func (j *frameJob) win() *winInfo { return &j.t.wins[j.w] }
