package reader

import (
	"bytes"

	"github.com/snii-go/snii/internal/format"
)

// Read rounds on a RemoteReaderAt. A query reads in stages, each needing what
// the one before returned; each stage hands all its byte ranges to Prefetch
// at once, so it costs one round however many ranges it has:
//
//  1. dictionary blocks: the blocks of every term and prefix of the query
//     (those the segment's block cache lacks; for a fuzzy term, every block
//     of the field but those its walk skips);
//  2. postings heads: for each term found (and each prefix or fuzzy
//     expansion, up to maxPlannedExpansions), a slim term's postings, a
//     windowed term's prelude, or its whole doc span when small or when every
//     window will be read (a term query's docs);
//  3. doc windows (collect): the windows of a term that can hold a candidate;
//  4. .prx frames (fetchFrames): the frames of the windows holding candidates.
//
// The reads then run as on a local file, served from what was fetched. A
// stage that guessed short (a prelude longer than its guess) costs a round
// more, never a wrong answer.
const (
	// smallDocSpan: a windowed term's doc span up to this size is fetched
	// whole in stage 2 (its windows then cost no round of their own).
	smallDocSpan = 64 << 10
	// preludeGuess is what stage 2 fetches of a larger doc span: its prelude
	// (about 10 bytes per window of up to 1024 docs) and the first windows.
	preludeGuess = 16 << 10
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
	var rs []Range
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
				rs = append(rs, Range{Off: int64(f.meta.DictOff + info.Offset), Len: int64(info.StoredLen)})
			}
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
	e      format.Entry
	found  bool
	fuzzy  *fuzzyQuery // a fuzzy term (term unset): its dictionary walk
}

// appendHead appends the stage-2 range of a term's postings.
func appendHead(rs []Range, f *field, e *format.Entry, whole bool) []Range {
	m := &f.meta
	if e.Class == format.ClassInline || e.CheckLocator(m.PostingLen) != nil {
		return rs
	}
	start := m.PostingOff + e.Offset
	switch {
	case e.Class == format.ClassSlim:
		return append(rs, Range{Off: int64(start), Len: int64(e.PrxLen + e.DocLen)})
	case whole || e.DocLen <= smallDocSpan:
		return append(rs, Range{Off: int64(start + e.PrxLen), Len: int64(e.DocLen)})
	default:
		return append(rs, Range{Off: int64(start + e.PrxLen), Len: int64(min(e.DocLen, preludeGuess))})
	}
}

// walkTerms calls fn for each term and prefix of q, numbering its phrases.
func walkTerms(q Query, countOnly bool, fn func(plannedTerm)) {
	n := 0
	var walk func(q Query, countOnly bool)
	walk = func(q Query, countOnly bool) {
		switch q := q.(type) {
		case *termQuery:
			fn(plannedTerm{field: q.field, term: bytesOf(q.term), whole: !countOnly, phrase: -1})
		case *prefixQuery:
			fn(plannedTerm{field: q.field, term: bytesOf(q.prefix), prefix: true, whole: true, maxExp: q.maxExp, phrase: -1})
		case *fuzzyQuery:
			fn(plannedTerm{field: q.field, fuzzy: q, whole: true, maxExp: q.maxExp, phrase: -1})
		case *phraseQuery:
			id := n
			n++
			for i, t := range q.terms {
				pt := plannedTerm{field: q.field, term: bytesOf(t), phrase: id}
				if q.prefix && i == len(q.terms)-1 {
					pt.prefix, pt.maxExp, pt.phrase = true, q.maxExp, -1
				}
				if len(q.terms) == 1 {
					pt.whole, pt.phrase = true, -1 // a term or prefix query
				}
				fn(pt)
			}
		case *boolQuery:
			for _, c := range q.qs {
				walk(c, false)
			}
		}
	}
	walk(q, countOnly)
}

// planDocWindows runs stage 3 for one term: the doc windows that can hold a
// candidate (all of them when all is set). Those planned with planSlots are
// held already and cost nothing.
func (x *qctx) planDocWindows(t *termRef, cands []uint32, all bool) {
	if x.s.remote() == nil {
		return
	}
	x.prefetch(appendDocWindows(nil, t, cands, all))
}

// planSlots runs stage 3 for the slots of a phrase's conjunction: at k = 0 the
// rarest slot's terms, at k = 1 every other slot's terms against the rarest
// slot's docs (a superset of the candidates each will be given), so that
// the conjunction costs two rounds whatever its number of terms.
func (x *qctx) planSlots(p *phrasePlan, k int, in []uint32, all bool) {
	if x.s.remote() == nil || k > 1 {
		return
	}
	slots := p.order[:1]
	if k == 1 {
		slots = p.order[1:]
	}
	var rs []Range
	for _, si := range slots {
		for _, t := range p.slots[si].terms {
			rs = appendDocWindows(rs, t, in, all)
		}
	}
	x.prefetch(rs)
}

// appendDocWindows appends the doc windows of t that can hold one of cands
// (all of them when all is set).
func appendDocWindows(rs []Range, t *termRef, cands []uint32, all bool) []Range {
	if t.e.Class != format.ClassWindowed {
		return rs
	}
	it := t.windows(0)
	ci := 0
	for {
		w, ok := it.next()
		if !ok {
			break
		}
		if !all {
			if ci == len(cands) {
				break
			}
			if cands[ci] > w.last {
				continue
			}
			for ci < len(cands) && cands[ci] <= w.last {
				ci++
			}
		}
		rs = append(rs, Range{Off: int64(w.docOff), Len: int64(w.docLen)})
	}
	return rs
}

// planFrameReads runs stage 4: the frames of the jobs x.order lists.
func (x *qctx) planFrameReads() {
	if x.s.remote() == nil {
		return
	}
	rs := make([]Range, 0, len(x.order))
	for _, i := range x.order {
		j := &x.jobs[i]
		w := &j.t.wins[j.w]
		rs = append(rs, Range{Off: int64(w.prxOff), Len: int64(w.prxLen)})
	}
	x.prefetch(rs)
}
