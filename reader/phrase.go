package reader

import (
	"cmp"
	"slices"
	"time"

	"github.com/snii-go/snii/internal/format"
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
	fresh bool   // one term, decoded in the current verification stage (its docs are the candidates)
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
		err := f.scanPrefix(x, bytesOf(terms[nExact]), q.maxExp, func(term []byte, e *format.Entry) (bool, error) {
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
		return cmp.Compare(ca, cb)
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
	return x.verifyPhrase(p, cands, out, countOnly)
}

// verifyPhrase checks the positions of the candidates (docs holding every slot)
// progressively: the two cheapest slots are decoded and matched first (the
// phrase positions they cover must line up), then each further slot, in
// ascending cost, is decoded only for the candidates still standing and only
// in the .prx windows that hold one; the last stage is the full phrase.
func (x *qctx) verifyPhrase(p *phrasePlan, final []uint32, out []uint32, countOnly bool) ([]uint32, int, error) {
	x.jobs = x.jobs[:0]
	if cap(x.cur) < len(p.slotOf) {
		x.cur = make([]int, len(p.slotOf))
	}
	if cap(x.lists) < len(p.slots) {
		x.lists = make([][]uint32, len(p.slots))
	}
	lists := x.lists[:len(p.slots)]
	surv := final // candidates still standing (final is a slot's docs: filtered into x.surv)
	decoded := 0  // slots decoded so far: p.order[:decoded]
	narrow := true
	keepFresh := false // the last stage was abandoned: its slots still hold exactly surv
	n := 0
	for decoded < len(p.order) {
		// The slots of this stage: the two cheapest at first, then one at a time.
		step := 1
		switch {
		case decoded == 0 && len(p.order) > 1:
			step = 2
		case decoded > 0 && !narrow:
			step = len(p.order) - decoded // the last stage did not narrow much: finish
		}
		if !keepFresh {
			for _, si := range p.order[:decoded] {
				p.slots[si].fresh = false
			}
		}
		keepFresh = false
		for _, si := range p.order[decoded : decoded+step] {
			p.slots[si].fresh = len(p.slots[si].terms) == 1
			for _, t := range p.slots[si].terms {
				if len(p.slots[si].terms) > 1 || len(t.docs) != len(surv) {
					t.keep(surv) // else t.docs is surv already (surv is a subset)
				}
			}
		}
		if err := x.loadPositions(p, p.order[decoded:decoded+step]); err != nil {
			return out, 0, err
		}
		decoded += step
		last := decoded == len(p.order)

		var t0 time.Time
		if x.profile {
			t0 = time.Now()
		}
		// The phrase positions covered by the decoded slots.
		offs, sl := x.offs[:0], x.sl[:0]
		if !last {
			for i, si := range p.slotOf {
				if slices.Contains(p.order[:decoded], si) {
					offs, sl = append(offs, uint32(i)), append(sl, si)
				}
			}
			x.offs, x.sl = offs, sl
		}
		for _, si := range p.order[:decoded] {
			for _, t := range p.slots[si].terms {
				t.kcur, t.jcur = 0, t.job0
			}
		}
		if last && allFresh(p) {
			// No stage narrowed: every slot holds exactly surv (the common case).
			out, n = x.verifyAll(p, surv, out, countOnly)
			if x.profile {
				x.count.verify += time.Since(t0)
			}
			break
		}
		keep := x.surv[:0] // surv filtered (in place when surv is x.surv)
		// rows[i*stride+si]: the index in t.docs of surv[i] for the term t of
		// single-term slot si, kept for the survivors of a stage so that later
		// stages need no lookup.
		stride := len(p.slots)
		if !last && cap(x.rows) < len(surv)*stride {
			x.rows = make([]int32, len(surv)*stride)
		}
		rows := x.rows[:cap(x.rows)]
		merged := x.scratch
		n = 0
		abandon := !last && len(surv) >= 2*probeDocs && x.probeStands(p, surv, decoded, offs, sl, rows, stride)
		for i, d := range surv {
			if abandon {
				break // most candidates stand: narrowing would not pay
			}
			for _, si := range p.order[:decoded] {
				s := &p.slots[si]
				if len(s.terms) == 1 {
					t := s.terms[0]
					if s.fresh { // decoded in this stage: t.docs is surv
						lists[si] = x.positionsOf(t)
						continue
					}
					k := int(rows[i*stride+si])
					t.kcur = k + 1
					for k >= x.jobs[t.jcur].hi {
						t.jcur++
					}
					lists[si] = x.jobs[t.jcur].doc(k)
					continue
				}
				merged = merged[:0]
				for _, t := range s.terms {
					if k := t.kcur; k < len(t.docs) && t.docs[k] <= d {
						if t.docs[k] == d {
							merged = append(merged, x.positionsOf(t)...)
						} else {
							merged = append(merged, x.positionsSeek(t, d)...)
						}
					}
				}
				slices.Sort(merged)
				lists[si] = merged
			}
			var ok bool
			if last {
				ok = matchPhrase(lists, p.slotOf, x.cur[:len(p.slotOf)])
			} else {
				ok = matchSome(lists, offs, sl, x.cur[:len(offs)])
			}
			if !ok {
				continue
			}
			if last {
				n++
				if !countOnly {
					out = append(out, d)
				}
			} else {
				r := len(keep) * stride // <= i*stride: rows are compacted in place
				for _, si := range p.order[:decoded] {
					if ts := p.slots[si].terms; len(ts) == 1 {
						rows[r+si] = int32(ts[0].kcur - 1)
					}
				}
				keep = append(keep, d)
			}
		}
		x.scratch = merged
		if x.profile {
			x.count.verify += time.Since(t0)
		}
		if last {
			break
		}
		if abandon {
			// This stage's slots hold exactly surv (earlier ones are reached
			// through rows): decode the others for surv too and check
			// everything in one last stage.
			narrow, keepFresh = false, true
			continue
		}
		if len(keep) == 0 {
			return out, 0, nil
		}
		// Narrowing pays while it drops candidates: when at least half of them
		// stand, the remaining slots are decoded and checked in one last stage.
		narrow = 2*len(keep) < len(surv)
		x.surv, surv = keep, keep
	}
	return out, n, nil
}

// unionTerms returns the union of the terms' kept docs.
func (x *qctx) unionTerms(dst []uint32, terms []*termRef) []uint32 {
	u := &x.union
	u.reset(x.s.docCount)
	for _, t := range terms {
		u.add(t.docs)
	}
	return u.appendTo(dst[:0])
}

// positionsOf returns the positions of t's current doc (t.docs[t.kcur]) and
// advances its cursors.
func (x *qctx) positionsOf(t *termRef) []uint32 {
	k := t.kcur
	t.kcur++
	j := &x.jobs[t.jcur]
	if k >= j.hi { // jobs are contiguous: the next one holds k
		t.jcur++
		j = &x.jobs[t.jcur]
	}
	return j.win.Doc(k - j.lo)
}

// positionsSeek returns the positions of doc d in t's decoded windows (nil when
// t does not hold d) when d is not t's next doc (t.docs[t.kcur]), advancing t's
// cursors: calls must come in ascending d.
func (x *qctx) positionsSeek(t *termRef, d uint32) []uint32 {
	k := seekGE(t.docs, t.kcur, d)
	if k == len(t.docs) || t.docs[k] != d {
		t.kcur = k
		return nil
	}
	t.kcur = k + 1
	for k >= x.jobs[t.jcur].hi {
		t.jcur++
	}
	j := &x.jobs[t.jcur]
	return j.doc(k)
}

// frameJob is one prx window to decode for one term.
type frameJob struct {
	t      *termRef
	w      int // index into t.wins
	lo, hi int // the term's kept docs in that window: t.docs[lo:hi]
	frame  []byte
	win    *prx.Window // the decoded positions of t.docs[lo:hi]
}

// allFresh reports whether every single-term slot was decoded for exactly the
// current candidates.
func allFresh(p *phrasePlan) bool {
	for i := range p.slots {
		if s := &p.slots[i]; len(s.terms) == 1 && !s.fresh {
			return false
		}
	}
	return true
}

// verifyAll is the last stage when every single-term slot holds exactly the
// candidates: sequential cursors, no lookups.
func (x *qctx) verifyAll(p *phrasePlan, cands []uint32, out []uint32, countOnly bool) ([]uint32, int) {
	lists := x.lists[:len(p.slots)]
	merged := x.scratch
	n := 0
	for _, d := range cands {
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
	return out, n
}

// probeDocs is how many candidates, evenly spread, a narrowing stage checks
// before its pass over all of them: when at least half of them stand, the pass
// would cost about as much as the decoding it saves, and the stage is abandoned.
const probeDocs = 64

// probeStands checks probeDocs candidates spread evenly over surv against the
// phrase positions of the slots decoded so far (offs, sl) and reports whether at
// least half of them stand. It leaves the slots' cursors at their start.
func (x *qctx) probeStands(p *phrasePlan, surv []uint32, decoded int, offs []uint32, sl []int, rows []int32, stride int) bool {
	lists := x.lists[:len(p.slots)]
	merged := x.scratch
	stand := 0
	for j := 0; j < probeDocs; j++ {
		i := j * len(surv) / probeDocs
		d := surv[i]
		for _, si := range p.order[:decoded] {
			s := &p.slots[si]
			if len(s.terms) == 1 {
				t := s.terms[0]
				k := i // fresh: t.docs is surv
				if !s.fresh {
					k = int(rows[i*stride+si])
				}
				for k >= x.jobs[t.jcur].hi {
					t.jcur++
				}
				lists[si] = x.jobs[t.jcur].doc(k)
				continue
			}
			merged = merged[:0]
			for _, t := range s.terms {
				merged = append(merged, x.positionsSeek(t, d)...)
			}
			slices.Sort(merged)
			lists[si] = merged // only a phrase prefix's last slot has several terms
		}
		if matchSome(lists, offs, sl, x.cur[:len(offs)]) {
			stand++
		}
	}
	x.scratch = merged
	for _, si := range p.order[:decoded] {
		for _, t := range p.slots[si].terms {
			t.kcur, t.jcur = 0, t.job0
		}
	}
	return 2*stand >= probeDocs
}

// doc returns the positions of t.docs[k] (lo <= k < hi).
func (j *frameJob) doc(k int) []uint32 { return j.win.Doc(k - j.lo) }

// span is a coalesced byte range of the file.
type span struct{ off, end uint64 }

// coalesceGap is the largest gap between two frames read as one range through a
// ReaderAt (a mapped file reads nothing; its ranges are exact).
const coalesceGap = 1 << 10

// loadPositions reads and selectively decodes the prx windows holding the kept
// docs of every term of the given slots, each into its own (pooled) window; the
// jobs are appended to x.jobs.
func (x *qctx) loadPositions(p *phrasePlan, slotIdx []int) error {
	j0 := len(x.jobs)
	for _, si := range slotIdx {
		for _, t := range p.slots[si].terms {
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
	if err := x.fetchFrames(j0); err != nil {
		return err
	}
	src := x.source()
	for i := j0; i < len(x.jobs); i++ {
		j := &x.jobs[i]
		t := j.t
		w := &t.wins[j.w]
		withCRC := t.e.Class != format.ClassInline
		sel := t.ords[j.lo:j.hi]
		if _, err := src.DecodeSelected(j.frame, withCRC, sel, j.win); err != nil {
			return t.f.seg.wrap(x.prxWinName(t, w), err)
		}
		if src.WindowDocs() != w.docs {
			return t.f.seg.corrupt(x.prxWinName(t, w), "%d docs, the doc window has %d", src.WindowDocs(), w.docs)
		}
		if j.win.Docs() != len(sel) {
			return t.f.seg.corrupt(x.prxWinName(t, w), "decoded %d docs, selected %d", j.win.Docs(), len(sel))
		}
		x.count.prxWindows++
		offs := j.win.Offsets
		for k := range sel {
			if offs[k] == offs[k+1] {
				return t.f.seg.corrupt(x.prxWinName(t, w), "doc %d has no positions", t.docs[j.lo+k])
			}
		}
	}
	return nil
}

// fetchFrames sets the frame bytes of the jobs from j0 on: inline frames come
// from the dict entry; the others are read in coalesced ranges (one read per
// range), in file order.
func (x *qctx) fetchFrames(j0 int) error {
	x.order = x.order[:0]
	for i := j0; i < len(x.jobs); i++ {
		j := &x.jobs[i]
		if j.t.e.Class == format.ClassInline {
			j.frame = j.t.e.Frame
			continue
		}
		x.order = append(x.order, i)
	}
	slices.SortFunc(x.order, func(a, b int) int {
		oa, ob := x.jobs[a].t.wins[x.jobs[a].w].prxOff, x.jobs[b].t.wins[x.jobs[b].w].prxOff
		return cmp.Compare(oa, ob)
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
