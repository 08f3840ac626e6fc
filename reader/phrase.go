package reader

import (
	"slices"
	"time"

	"github.com/snii-go/snii/index"
	"github.com/snii-go/snii/prx"
)

// phrasePlan is the execution state of one phrase (or phrase prefix) query.
type phrasePlan struct {
	slots  []slot // distinct slots, later sorted by cost
	slotOf []int  // phrase position -> index into slots (after sorting)
	order  []int  // scratch
}

// slot is one distinct phrase term, or the set of expansions of a prefix.
type slot struct {
	id    int // index before sorting
	terms []*termRef
	cost  uint64 // df, or the sum of the expansions' df
	docs  []uint32
}

func (p *phrasePlan) reset() {
	for i := range p.slots {
		p.slots[i].terms = p.slots[i].terms[:0]
		p.slots[i].docs = p.slots[i].docs[:0]
	}
	p.slots = p.slots[:0]
	p.slotOf = p.slotOf[:0]
}

func (x *qctx) newPlan() *phrasePlan {
	if x.nplans == len(x.plans) {
		x.plans = append(x.plans, &phrasePlan{})
	}
	p := x.plans[x.nplans]
	x.nplans++
	return p
}

func (p *phrasePlan) addSlot() *slot {
	if len(p.slots) < cap(p.slots) {
		p.slots = p.slots[:len(p.slots)+1]
	} else {
		p.slots = append(p.slots, slot{})
	}
	s := &p.slots[len(p.slots)-1]
	s.id = len(p.slots) - 1
	s.terms, s.docs, s.cost = s.terms[:0], s.docs[:0], 0
	return s
}

// phrase evaluates an exact phrase (prefix=false) or a phrase prefix over field
// f. With hasFilter only documents in filter are considered. It appends the
// matching documents to out (or only counts them when countOnly).
func (x *qctx) phrase(f *field, q *phraseQuery, filter []uint32, hasFilter bool, out []uint32, countOnly bool) ([]uint32, int, error) {
	terms := q.terms
	p := x.newPlan()
	// Distinct exact terms become one slot each; repeated terms share theirs.
	nExact := len(terms)
	if q.prefix {
		nExact--
	}
	for i := 0; i < nExact; i++ {
		si := -1
		for j := 0; j < i; j++ {
			if terms[j] == terms[i] {
				si = p.slotOf[j]
				break
			}
		}
		if si < 0 {
			t, err := x.resolve(f, bytesOf(terms[i]))
			if err != nil {
				return out, 0, err
			}
			if t == nil {
				return out, 0, nil // an absent term: no match
			}
			s := p.addSlot()
			s.terms = append(s.terms, t)
			s.cost = t.e.DF
			si = s.id
		}
		p.slotOf = append(p.slotOf, si)
	}
	if q.prefix {
		s := p.addSlot()
		err := f.scanPrefix(x, bytesOf(terms[nExact]), q.maxExp, func(term []byte, e *index.Entry) (bool, error) {
			t, err := x.resolved(f, term, e)
			if err != nil {
				return false, err
			}
			s = &p.slots[len(p.slots)-1] // resolved does not touch slots; keep the pointer fresh anyway
			s.terms = append(s.terms, t)
			s.cost += t.e.DF
			return true, nil
		})
		if err != nil {
			return out, 0, err
		}
		if len(s.terms) == 0 {
			return out, 0, nil
		}
		p.slotOf = append(p.slotOf, s.id)
	}

	// Conjunction in ascending cost (df): each slot only decodes the doc windows
	// that can hold a remaining candidate.
	p.order = p.order[:0]
	for i := range p.slots {
		p.order = append(p.order, i)
	}
	slices.SortStableFunc(p.order, func(a, b int) int {
		ca, cb := p.slots[a].cost, p.slots[b].cost
		switch {
		case ca < cb:
			return -1
		case ca > cb:
			return 1
		}
		return 0
	})
	var cands []uint32
	for k, si := range p.order {
		s := &p.slots[si]
		all := k == 0 && !hasFilter
		in := cands
		if k == 0 && hasFilter {
			in = filter
		}
		for _, t := range s.terms {
			if err := x.collect(t, in, all); err != nil {
				return out, 0, err
			}
		}
		if len(s.terms) == 1 {
			s.docs = append(s.docs[:0], s.terms[0].docs...)
		} else {
			s.docs = x.unionTerms(s.docs[:0], s.terms)
		}
		cands = s.docs
		if len(cands) == 0 {
			return out, 0, nil
		}
	}
	final := cands

	// Only the prx windows that still hold a candidate are read: their ranges
	// are coalesced into batched reads, then decoded selectively.
	for i := range p.slots {
		for _, t := range p.slots[i].terms {
			if len(p.slots[i].terms) == 1 && len(t.docs) == len(final) {
				continue // final is a subset of the slot's docs: the same docs
			}
			t.keep(final)
		}
	}
	if err := x.loadPositions(p); err != nil {
		return out, 0, err
	}

	var t0 time.Time
	if x.profile {
		t0 = time.Now()
	}
	n := 0
	if cap(x.cur) < len(p.slotOf) {
		x.cur = make([]int, len(p.slotOf))
	}
	if cap(x.lists) < len(p.slots) {
		x.lists = make([][]uint32, len(p.slots))
	}
	lists := x.lists[:len(p.slots)]
	// per-term cursors into their kept docs and decode jobs
	for i := range p.slots {
		for _, t := range p.slots[i].terms {
			t.kcur, t.jcur = 0, t.job0
		}
	}
	merged := x.scratch
	for _, d := range final {
		for i := range p.slots {
			s := &p.slots[i]
			if len(s.terms) == 1 {
				lists[i] = x.positionsOf(s.terms[0])
				continue
			}
			merged = merged[:0]
			for _, t := range s.terms {
				if k := t.kcur; k < len(t.docs) && t.docs[k] == d {
					merged = append(merged, x.positionsOf(t)...)
				}
			}
			slices.Sort(merged)
			lists[i] = merged
		}
		if matchPhrase(lists, p.slotOf, x.cur[:len(p.slotOf)]) {
			n++
			if !countOnly {
				out = append(out, d)
			}
		}
	}
	x.scratch = merged
	if x.profile {
		x.count.verify += time.Since(t0)
	}
	return out, n, nil
}

// unionTerms returns the union of the terms' kept docs.
func (x *qctx) unionTerms(dst []uint32, terms []*termRef) []uint32 {
	dst = dst[:0]
	for _, t := range terms {
		dst = append(dst, t.docs...)
	}
	slices.Sort(dst)
	return slices.Compact(dst)
}

// positionsOf returns the positions of t's current kept doc (t.docs[t.kcur])
// and advances its cursors.
func (x *qctx) positionsOf(t *termRef) []uint32 {
	k := t.kcur
	t.kcur++
	j := &x.jobs[t.jcur]
	if k >= j.hi {
		t.jcur++
		j = &x.jobs[t.jcur]
	}
	return j.win.Doc(k - j.lo)
}

// frameJob is one prx window to decode for one term.
type frameJob struct {
	t      *termRef
	w      int // index into t.wins
	lo, hi int // the term's kept docs in that window: t.docs[lo:hi]
	frame  []byte
	win    *prx.Window // the decoded positions of t.docs[lo:hi]
}

// span is a coalesced byte range of the file.
type span struct{ off, end uint64 }

// coalesceGap is the largest gap between two frames read as one range through a
// ReaderAt (a mapped file reads nothing; its ranges are exact).
const coalesceGap = 1 << 10

// loadPositions reads and selectively decodes the prx windows holding the kept
// docs of every term of the plan, each into its own (pooled) window.
func (x *qctx) loadPositions(p *phrasePlan) error {
	x.jobs = x.jobs[:0]
	for i := range p.slots {
		for _, t := range p.slots[i].terms {
			t.job0 = len(x.jobs)
			for lo := 0; lo < len(t.docs); {
				w := t.where[lo]
				hi := lo + 1
				for hi < len(t.docs) && t.where[hi] == w {
					hi++
				}
				if len(x.jobs) == len(x.wins) {
					x.wins = append(x.wins, &prx.Window{})
				}
				x.jobs = append(x.jobs, frameJob{t: t, w: int(w), lo: lo, hi: hi, win: x.wins[len(x.jobs)]})
				lo = hi
			}
			t.job1 = len(x.jobs)
		}
	}
	if err := x.fetchFrames(); err != nil {
		return err
	}
	src := x.source()
	for i := range x.jobs {
		j := &x.jobs[i]
		t := j.t
		w := &t.wins[j.w]
		withCRC := t.e.Class != index.ClassInline
		if _, err := src.DecodeSelected(j.frame, withCRC, t.ords[j.lo:j.hi], j.win); err != nil {
			return t.f.seg.wrap(x.prxWinName(t, w), err)
		}
		if j.win.Docs() != j.hi-j.lo {
			return t.f.seg.corrupt(x.prxWinName(t, w), "decoded %d docs, selected %d", j.win.Docs(), j.hi-j.lo)
		}
		x.count.prxWindows++
		for k := 0; k < j.win.Docs(); k++ {
			if j.win.Offsets[k] == j.win.Offsets[k+1] {
				return t.f.seg.corrupt(x.prxWinName(t, w), "doc %d has no positions", t.docs[j.lo+k])
			}
		}
	}
	return nil
}

// fetchFrames sets the frame bytes of every job: inline frames come from the
// dict entry; the others are read in coalesced ranges (one read per range), in
// file order.
func (x *qctx) fetchFrames() error {
	x.order = x.order[:0]
	for i := range x.jobs {
		j := &x.jobs[i]
		if j.t.e.Class == index.ClassInline {
			j.frame = j.t.e.Frame
			continue
		}
		x.order = append(x.order, i)
	}
	slices.SortFunc(x.order, func(a, b int) int {
		oa, ob := x.jobs[a].t.wins[x.jobs[a].w].prxOff, x.jobs[b].t.wins[x.jobs[b].w].prxOff
		switch {
		case oa < ob:
			return -1
		case oa > ob:
			return 1
		}
		return 0
	})
	gap := uint64(coalesceGap)
	if x.s.data != nil {
		gap = 0
	}
	for k := 0; k < len(x.order); {
		first := &x.jobs[x.order[k]]
		w := &first.t.wins[first.w]
		sp := span{off: w.prxOff, end: w.prxOff + w.prxLen}
		e := k + 1
		for e < len(x.order) {
			j := &x.jobs[x.order[e]]
			wj := &j.t.wins[j.w]
			if wj.prxOff > sp.end+gap {
				break
			}
			sp.end = max(sp.end, wj.prxOff+wj.prxLen)
			e++
		}
		b, err := x.read(sp.off, sp.end-sp.off)
		if err != nil {
			return first.t.f.seg.wrap(x.prxWinName(first.t, w), err)
		}
		for ; k < e; k++ {
			j := &x.jobs[x.order[k]]
			wj := &j.t.wins[j.w]
			rel := wj.prxOff - sp.off
			j.frame = b[rel : rel+wj.prxLen]
		}
	}
	return nil
}
