package reader

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/snii-go/snii/internal/codec/format"
)

// phraseScratch is the scratch space of phrases: their plans ([:nplans] in
// use), the decode jobs of their frames and the verifier's buffers.
type phraseScratch struct {
	plans   []*phrasePlan
	nplans  int
	jobs    []frameJob
	order   []int
	ranges  []span
	lists   [][]uint32
	posBufs [][]uint32 // per slot: positions of the document being verified
	leaps   []leap     // the leapfrog walk of a simple phrase
	cur     []int
	mergeAt []int32 // mergeTermDocs' scratch
	mergeCI []int32
}

// release empties the scratch for the pool, dropping large buffers.
func (p *phraseScratch) release() {
	if cap(p.mergeAt) > maxPooledDocs || cap(p.mergeCI) > maxPooledDocs {
		p.mergeAt, p.mergeCI = nil, nil
	}
	for i := 0; i < p.nplans; i++ {
		p.plans[i].reset()
	}
	p.nplans = 0
	p.jobs = p.jobs[:0]
	p.ranges = p.ranges[:0]
	for i := range p.lists {
		p.lists[i] = nil
	}
}

// phrasePlan is the execution state of one phrase (or phrase prefix) query.
type phrasePlan struct {
	slots  []slot // distinct slots, later sorted by cost
	slotOf []int  // phrase position -> index into slots (after sorting)
	order  []int  // scratch
	slop   int    // > 0: a sloppy phrase (sloppy.go)
	sloppy sloppy
	// chain: the candidates are in the list of every adjacent pair of the
	// phrase (an exact phrase of single terms; pairs.go), so a candidate whose
	// inner terms each occur once (an inner double twice) matches without a
	// position read (chainProves).
	chain bool
	// excl: documents that lack a kept pair of adjacent phrase terms
	// (ascending; complement-form pairs): no candidate among them matches.
	excl []uint32
	// incl, when on: the docs of kept list-form pairs of the phrase, for the
	// leapfrog; only they can match.
	incl docFilter
	// holds: bit k when the pair of phrase terms k and k+1 holds in every
	// candidate verified (pairUse.holds; see impliedSlots); implies: those
	// that can imply a term (setOffsets).
	holds, implies uint64
	// implied is impliedSlots in the last document impliedOf was asked of
	// (impliedValid: there was one since setOffsets), whose slots occurring once
	// were impliedOnce, those of them on ZSTD units not inflated yet impliedPending.
	implied, impliedOnce, impliedPending uint64
	impliedValid                         bool
	// lazy: every slot is one term at one offset, no slop, and some couple
	// can imply (setOffsets): the term frequencies are read by lazyTFs,
	// which skips the slots it implies.
	lazy   bool
	leapOf []int // the leapfrog's leap of each slot (phraseLeapfrog)
	// unread: the leapfrog's slots whose frequency in the document being
	// verified is not read yet (their .prx unit not parsed; verifyLeap):
	// matchStream checks them last, in ascending df, reading each only when
	// the slots before it all line up. Zero outside verifyLeap.
	unread uint64
	check  []int // matchStream's order of the slots it reads: the anchor, then the checks
	starts []int // leapFreq's cursor of each phrase position
	// sup: the rarest slot's docs, the candidates stage 3 of a remote
	// segment planned the other slots' windows for (see unitsPay)
	sup []uint32
	// checkOf: check is matchStream's order for the staged plan's candidates
	// when implied is checkOf (checkValid; lazyReplay)
	checkOf    uint64
	checkValid bool
}

// slot is one distinct phrase term, or the set of expansions of a prefix.
type slot struct {
	id         int // index before sorting
	terms      []*termRef
	cost       uint64 // df, or the sum of the expansions' df
	docs       []uint32
	offs       []uint32 // the phrase offsets of this slot
	tf         int      // occurrences in the document being verified
	key        int      // matchStream's order: tf, plus 1<<30 when reading it inflates a ZSTD unit (unread: after all)
	pairs      []uint64 // several terms: (doc<<32 | term index) of their kept docs
	pairDocIdx []int32  // the index of each of pairs in its term's docs
	pairStart  int      // the pairs of the document being verified: pairs[pairStart:pairEnd]
	pairEnd    int
	// streaming state (one offset): one term's cursor, or (list) the
	// current position of each of the expansions the document holds
	// (liststream.go)
	pos     uint32
	ok      bool
	started bool
	heads   []uint64
}

// isList reports whether s is a prefix's expansions (verified from their
// merged positions) rather than one term.
func (s *slot) isList() bool { return len(s.terms) > 1 }

func (p *phrasePlan) reset() {
	for i := range p.slots {
		p.slots[i].terms = p.slots[i].terms[:0]
		p.slots[i].docs = p.slots[i].docs[:0]
	}
	p.slots = p.slots[:0]
	p.slotOf = p.slotOf[:0]
	p.chain, p.excl = false, nil
	p.incl = docFilter{}
	p.holds, p.implies = 0, 0
	p.sup = nil
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

// expansionSlot adds to p the slot of the terms scan calls its function with
// (a prefix's or a pattern's expansions); ok is false when there are none.
func (x *qctx) expansionSlot(p *phrasePlan, f *field, scan func(fn func([]byte, *format.Entry) (bool, error)) error) (ok bool, err error) {
	s := p.addSlot()
	err = scan(func(term []byte, e *format.Entry) (bool, error) {
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
		return false, err
	}
	return len(s.terms) > 0, nil
}

// phrase evaluates a phrase (see phrasePlain), first through the field's
// pairs when they answer it or narrow its candidates enough.
func (x *qctx) phrase(f *field, q *phraseQuery, filter docFilter, out []uint32, countOnly bool) ([]uint32, int, error) {
	if x.noPairs || f.meta.PairCount == 0 || q.slop != 0 || !f.remotePairs(x) { // a sloppy phrase's terms need not be adjacent
		return x.phrasePlain(f, q, filter, pairUse{}, out, countOnly)
	}
	nExact := len(q.terms)
	if q.prefix {
		nExact--
	}
	if nExact == 2 && !q.prefix {
		e, ok, err := x.pairEntry(f, q.terms[0], q.terms[1])
		if err != nil {
			return out, 0, err
		}
		if ok {
			return x.phraseFromPair(f, q, &e, filter, out, countOnly)
		}
	}
	if nExact < 2 || (nExact == 2 && !q.prefix) {
		return x.phrasePlain(f, q, filter, pairUse{}, out, countOnly)
	}
	cands, use, plan, err := x.pairCandidates(f, q.terms[:nExact], filter, q.prefix)
	if err != nil {
		return out, 0, err
	}
	switch plan {
	case planFilter:
		defer x.put(cands)
		if len(cands) == 0 {
			return out, 0, nil
		}
		return x.phrasePlain(f, q, only(cands), use, out, countOnly)
	case planExclude:
		defer x.put(use.excl)
		defer x.put(use.incl.ids)
		return x.phrasePlain(f, q, filter, use, out, countOnly)
	}
	return x.phrasePlain(f, q, filter, pairUse{}, out, countOnly)
}

// phrasePlain evaluates an exact phrase (prefix=false) or a phrase prefix over field
// f from its terms' postings (phrase may call it with pair candidates as the filter). Only documents in filter are considered. It appends the
// matching documents to out (or only counts them when countOnly). chain says
// the filter is the intersection of every adjacent pair's list of an exact
// phrase (pairs.go, chainProves).
func (x *qctx) phrasePlain(f *field, q *phraseQuery, filter docFilter, use pairUse, out []uint32, countOnly bool) ([]uint32, int, error) {
	terms := q.terms
	p := x.newPlan()
	p.slop = q.slop
	p.chain, p.excl = use.chain, use.excl
	p.incl = use.incl
	p.holds = use.holds
	// Distinct exact terms become one slot each; repeated terms share theirs.
	nExact := len(terms)
	if q.prefix {
		nExact--
	}
	for i := 0; i < nExact; i++ {
		if q.pats != nil && q.pats[i] != nil { // a PatternPhrase's pattern
			ok, err := x.patternSlot(p, f, q.pats[i], q.maxExp)
			if err != nil || !ok {
				return out, 0, err
			}
			p.slotOf = append(p.slotOf, len(p.slots)-1)
			continue
		}
		si := -1
		for j := 0; j < i; j++ {
			if terms[j] == terms[i] && (q.pats == nil || q.pats[j] == nil) {
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
		ok, err := x.expansionSlot(p, f, func(fn func([]byte, *format.Entry) (bool, error)) error {
			return f.scanPrefix(x, bytesOf(terms[nExact]), q.maxExp, fn)
		})
		if err != nil || !ok {
			return out, 0, err
		}
		p.slotOf = append(p.slotOf, len(p.slots)-1)
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
	// (The leapfrog reads window by window: on a remote segment each would be a
	// round, so there the conjunction below plans its reads by stage.)
	if p.slop > 0 {
		p.sloppy.setup(p.slotOf)
	}
	if !filter.on && leapfrogPhrase(p) && x.s.remote() == nil {
		return x.phraseLeapfrog(p, out, countOnly)
	}
	if p.incl.on && !filter.on { // (the pair plan meant the leapfrog: the lists' docs filter)
		filter = p.incl
	}
	var cands []uint32
	for k, si := range p.order {
		s := &p.slots[si]
		if x.preStagePays(p, k, cands) {
			kept, err := x.preStage(p, k, cands)
			defer x.put(kept)
			if err != nil || len(kept) == 0 {
				return out, 0, err
			}
			cands = kept
		}
		all := k == 0 && !filter.on
		in := cands
		if k == 0 && filter.on {
			in = filter.ids
		}
		x.planSlots(p, k, in, all) // remote segments: one round for k = 0, one for the rest
		if err := x.collectSlot(s, in, all); err != nil {
			return out, 0, err
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

// verifyPhrase checks the candidates (ascending docs that hold every slot) one
// at a time, streaming: per candidate it reads each slot's term frequency from
// the .prx windows' tf columns (no position decoded), drops the candidate when a
// slot occurs fewer times than the phrase needs it, then walks the positions of
// the slot with the fewest occurrences (the anchor) and moves the other slots'
// cursors forward only as far as each proposed start needs, decoding 128-value
// blocks as they are reached. It stops at the first match of a document.
func (x *qctx) verifyPhrase(p *phrasePlan, cands []uint32, out []uint32, countOnly bool) ([]uint32, int, error) {
	p.setOffsets() // the offsets of each slot in the phrase
	return x.verifyAt(p, cands, out, countOnly)
}

// verifyAt is verifyPhrase of a plan whose slots' offsets are set (p.setOffsets,
// or a pre-check's own: prestage.go).
func (x *qctx) verifyAt(p *phrasePlan, cands []uint32, out []uint32, countOnly bool) ([]uint32, int, error) {
	// Whether every slot is one term at one offset (the streaming case).
	simple, single := true, true // single: every slot at one offset
	for i := range p.slots {
		s := &p.slots[i]
		if s.isList() {
			simple = false
		}
		if len(s.offs) > 1 {
			simple, single = false, false
		}
	}
	shape := shapeOther
	switch {
	case simple:
		shape = shapeSimple
	case single:
		shape = shapeLists
	}
	if p.slop > 0 && leapfrogPhrase(p) {
		p.sloppy.bindCursors(p)
	}
	if len(p.slots) == 1 && len(p.slots[0].terms) == 1 && len(p.slotOf) == 1 {
		n := len(cands)
		if !countOnly {
			out = append(out, cands...)
		}
		return out, n, nil
	}
	// Restrict every term to the candidates and fetch the frames of the windows
	// that hold them (one coalesced batch). The last slot of the conjunction
	// (p.order is its cost order) made the candidates: its terms' docs are
	// among them already.
	last := p.order[len(p.order)-1]
	for i := range p.slots {
		for _, t := range p.slots[i].terms {
			if i != last && (len(p.slots[i].terms) > 1 || len(t.docs) != len(cands)) {
				t.keep(cands)
			}
		}
	}
	x.jobs = x.jobs[:0]
	p.sup = p.slots[p.order[0]].docs // (p.order is the cost order until allSlots)
	all := x.allSlots(p)
	if err := x.planFrames(p, all); err != nil {
		return out, 0, err
	}
	var ranked *candSet // the candidates, ranked, when they are dense enough (mergeTermDocs)
	for i := range p.slots {
		s := &p.slots[i]
		if len(s.terms) > 1 {
			if ranked == nil && rankPays(cands) {
				x.cset.setRanked(cands)
				ranked = &x.cset
			}
			s.pairs, s.pairDocIdx, x.mergeAt, x.mergeCI = mergeTermDocs(s.pairs, s.pairDocIdx, s.terms, cands, ranked, x.mergeAt, x.mergeCI)
			s.pairStart, s.pairEnd = 0, 0
		}
		for _, t := range s.terms {
			t.kcur, t.jcur = 0, t.job0
			t.open = false
		}
	}
	if ranked != nil {
		ranked.reset()
	}
	n := 0
	lists := x.lists[:0]
	excl := p.excl
	if x.profile {
		defer x.verifyEnd(x.verifyStart())
	}
	// A ranked search of distinct single terms (qctx.rank) on a local segment
	// is handed the candidates and matches, as the leapfrog hands them
	// (phraseRank). (A remote one lists its matches: its reads are planned
	// by stage, the ranking's bound reads are not.)
	rankIt := x.rank != nil && shape == shapeSimple && p.slop == 0 && len(p.slots) == len(p.slotOf) && x.s.remote() == nil
	from := uint32(0) // rankIt: the candidates below it cannot enter the top k
	for ci, d := range cands {
		if ci&63 == 63 {
			if err := x.check(); err != nil {
				return out, 0, err
			}
		}
		if len(excl) > 0 {
			if k := seekGE(excl, 0, d); k < len(excl) && excl[k] == d {
				excl = excl[k+1:]
				continue // it lacks a kept pair of the phrase
			} else {
				excl = excl[k:]
			}
		}
		f := 0
		if rankIt {
			if d < from {
				continue
			}
			next, err := x.rank.next(d)
			if err != nil || next > math.MaxUint32 {
				return out, n, err
			}
			if next != int64(d) {
				from = uint32(next)
				continue
			}
			if p.chain { // a match proved once-occurring occurs once
				if ok, err := x.chainProves(p, d, ci); err != nil {
					return out, n, err
				} else if ok {
					if x.rank.worth(d, 1) {
						n++
						x.rank.match(d, 1)
						if n == x.limit {
							break
						}
					}
					continue
				}
			}
			if x.rank.bounding() { // else the bound is read only for a match
				if f, err = x.slotsBound(p, d, ci); err != nil {
					return out, n, err
				}
				if f == 0 || !x.rank.worth(d, f) {
					continue
				}
			}
		}
		ok, err := x.matchDoc(p, d, ci, shape, &lists)
		if err != nil {
			return out, 0, err
		}
		if ok && rankIt {
			n++
			if f != 1 { // (1: the phrase occurs once, by slotsBound)
				if f, err = x.slotsFreq(p, d, ci); err != nil {
					return out, n, err
				}
			}
			x.rank.match(d, f)
			if n == x.limit {
				break
			}
			continue
		}
		if ok {
			n++
			if !countOnly {
				out = append(out, d)
			}
			if n == x.limit {
				break // SearchOptions.Limit: the lowest ids are found
			}
		}
	}
	x.lists = lists
	return out, n, nil
}

// slotsBound is leapBound for verifyAt's ranked candidates (distinct single
// terms, one offset each): the fewest times a slot occurs in candidate d
// (number ci), which bounds the phrase's starts there; each slot's cursor is
// moved to d.
func (x *qctx) slotsBound(p *phrasePlan, d uint32, ci int) (int, error) {
	f := math.MaxInt
	for i := range p.slots {
		t := p.slots[i].terms[0]
		tf, err := x.seekTerm(t, termIndex(t, d, ci))
		if err != nil {
			return 0, err
		}
		f = min(f, tf)
	}
	return f, nil
}

// slotsFreq is leapFreq for verifyAt's ranked matches: the starts of the
// phrase in candidate d (number ci), counted from the slots' cursors back at
// the document's first positions (leapStarts), or 1 when a slot occurs once.
func (x *qctx) slotsFreq(p *phrasePlan, d uint32, ci int) (int, error) {
	a := 0
	for i := range p.slots {
		s := &p.slots[i]
		t := s.terms[0]
		tf, err := x.seekTerm(t, termIndex(t, d, ci))
		if err != nil {
			return 0, err
		}
		s.tf, s.started = tf, false
		if tf < p.slots[a].tf {
			a = i
		}
	}
	if p.slots[a].tf == 1 {
		return 1, nil
	}
	return x.leapStarts(p, a)
}

// allSlots returns the indexes of every slot (scratch).
func (x *qctx) allSlots(p *phrasePlan) []int {
	p.order = p.order[:0]
	for i := range p.slots {
		p.order = append(p.order, i)
	}
	return p.order
}

// mergeTermDocs lists (doc, term index) of the terms' kept docs, by doc then
// term, with the index of each in its term's docs (idx): a counting sort on the
// candidate each doc is (every kept doc is one of cands, see termRef.keep),
// found in cs (cands, ranked) or, when cs is nil, by galloping in cands;
// linear in the docs and the candidates. at and cis are scratch, returned for
// reuse.
func mergeTermDocs(dst []uint64, idx []int32, terms []*termRef, cands []uint32, cs *candSet, at, cis []int32) ([]uint64, []int32, []int32, []int32) {
	n := len(cands)
	at = slices.Grow(at[:0], n+1)[:n+1]
	clear(at)
	cis = cis[:0]
	for _, t := range terms {
		g := 0 // the gallop's start in cands
		for _, d := range t.docs {
			j := -1
			if cs != nil {
				j = cs.index(d)
			} else if g = seekGE(cands, g, d); g < n && cands[g] == d {
				j = g
			}
			cis = append(cis, int32(j)) // -1: not a candidate (keep drops these), left out
			if j >= 0 {
				at[j+1]++
			}
		}
	}
	for i := 1; i < len(at); i++ {
		at[i] += at[i-1]
	}
	m := int(at[n])
	dst = slices.Grow(dst[:0], m)[:m]
	idx = slices.Grow(idx[:0], m)[:m]
	k := 0
	for ti, t := range terms {
		for i, d := range t.docs {
			if ci := cis[k]; ci >= 0 {
				dst[at[ci]] = uint64(d)<<32 | uint64(ti)
				idx[at[ci]] = int32(i)
				at[ci]++
			}
			k++
		}
	}
	return dst, idx, at, cis
}

// parsedTF is seekTerm's common case, small enough to inline: t's
// frequency in t.docs[k] (ascending k; jobs: x.jobs) when the unit parsed
// holds it, its cursor moved there; else 0 (call seekTerm).
func parsedTF(t *termRef, k int, jobs []frameJob) int {
	if t.open && k < jobs[t.jcur].hi {
		if tf := t.cur.TF(int(t.ords[k])); tf > 0 {
			t.kcur = k
			return tf
		}
	}
	return 0
}

// seekTerm moves t's cursor to t.docs[k] (ascending k) and returns its tf.
func (x *qctx) seekTerm(t *termRef, k int) (int, error) {
	for k >= x.jobs[t.jcur].hi {
		t.jcur++
		t.open = false
	}
	if t.open { // the common case: the unit holding it is parsed
		if tf := t.cur.TF(int(t.ords[k])); tf > 0 {
			t.kcur = k
			return tf, nil
		}
	}
	j := &x.jobs[t.jcur]
	if !t.open {
		w := &t.wins[j.w]
		withCRC := t.e.Class != format.ClassInline
		if err := x.source().OpenAt(&t.cur, j.frame, withCRC, w.docs, x.verifier(), int64(w.prxOff)); err != nil {
			return 0, t.f.seg.wrap(x.prxWinName(t, w), err)
		}
		x.count.prxWindows++
		t.open, t.curWin = true, *w
	}
	tf, err := t.cur.Seek(int(t.ords[k]))
	if err != nil {
		return 0, t.f.seg.wrap(x.prxWinName(t, &t.wins[j.w]), err)
	}
	t.kcur = k
	return tf, nil
}

// termErr wraps the cursor error of t, if any.
func (x *qctx) termErr(t *termRef) error {
	if err := t.cur.Err(); err != nil {
		return t.f.seg.wrap(x.prxWinName(t, &t.curWin), err)
	}
	return nil
}

// termIndex returns the index of candidate d (candidate number ci) in the
// kept docs of t: ci itself when t holds every candidate (verifyPhrase keeps
// each single-term slot to exactly the candidates), else found from t.kcur.
func termIndex(t *termRef, d uint32, ci int) int {
	if ci < len(t.docs) && t.docs[ci] == d {
		return ci
	}
	return t.indexAfter(d)
}

// indexAfter is termIndex's search from t.kcur, kept out of line so that
// termIndex inlines.
//
//go:noinline
func (t *termRef) indexAfter(d uint32) int { return seekGE(t.docs, t.kcur, d) }

// matchDoc verifies the phrase in candidate d (candidate number ci).
func (x *qctx) matchDoc(p *phrasePlan, d uint32, ci int, shape phraseShape, lists *[][]uint32) (bool, error) {
	if p.chain {
		if ok, err := x.chainProves(p, d, ci); ok || err != nil {
			return ok, err
		}
	}
	if p.lazy && shape == shapeSimple {
		if ok, err := x.lazyReplay(p, d, ci); err != nil {
			return false, err
		} else if ok {
			return x.streamMatch(p, 0, true)
		}
		implied, err := x.lazyTFs(p, nil, d, ci)
		if err != nil {
			return false, err
		}
		p.checkOf, p.checkValid = implied, true // (matchStream orders p.check first)
		return x.matchStream(p, implied)
	}
	// Term frequencies first: a slot that occurs fewer times than the phrase
	// needs it rules the document out before any position is decoded.
	for i := range p.slots {
		s := &p.slots[i]
		s.tf = 0
		if len(s.terms) == 1 {
			t := s.terms[0]
			tf, err := x.seekTerm(t, termIndex(t, d, ci))
			if err != nil {
				return false, err
			}
			s.tf = tf
		} else {
			s.pairStart = s.pairEnd // past the pairs of the candidates before
			for s.pairStart < len(s.pairs) && uint32(s.pairs[s.pairStart]>>32) < d {
				s.pairStart++
			}
			s.pairEnd = s.pairStart
			for s.pairEnd < len(s.pairs) && uint32(s.pairs[s.pairEnd]>>32) == d {
				t, k := s.terms[uint32(s.pairs[s.pairEnd])], int(s.pairDocIdx[s.pairEnd])
				s.pairEnd++
				tf, err := x.seekTerm(t, k)
				if err != nil {
					return false, err
				}
				s.tf += tf
			}
		}
		if s.tf < len(s.offs) {
			return false, nil
		}
	}
	if p.slop > 0 && leapfrogPhrase(p) {
		return x.matchSloppy(p)
	}
	if shape == shapeSimple && p.slop == 0 {
		return x.matchStream(p, impliedNow(p))
	}
	if p.slop == 0 && leapfrogPhrase(p) {
		return x.matchMixed(p) // single terms, some repeated: streamed
	}
	// Prefix expansions, every slot at one offset: streamed, each expansion
	// read only as far as the match needs (liststream.go).
	if shape == shapeLists && p.slop == 0 {
		return x.matchStream(p, impliedNow(p))
	}
	// Repeated terms (or a sloppy phrase of expansions): materialize each
	// slot's positions of this document, expansions merged, and match
	// anchored on the fewest.
	ls := (*lists)[:0]
	for i := range p.slots {
		s := &p.slots[i]
		buf := x.slotBuf(i)
		if len(s.terms) == 1 {
			var err error
			if buf, err = s.terms[0].cur.AppendPositions(buf); err != nil {
				return false, x.termErr(s.terms[0])
			}
		} else {
			for _, pr := range s.pairs[s.pairStart:s.pairEnd] {
				t := s.terms[uint32(pr)]
				var err error
				if buf, err = t.cur.AppendPositions(buf); err != nil {
					return false, x.termErr(t)
				}
			}
			if s.pairEnd-s.pairStart > 1 { // one expansion's positions are sorted already
				slices.Sort(buf)
			}
		}
		x.setSlotBuf(i, buf)
		ls = append(ls, buf)
	}
	*lists = ls
	if p.slop > 0 {
		return p.sloppy.match(ls, p.slotOf, p.slop), nil
	}
	return matchPhrase(ls, p.slotOf, x.cur[:0]), nil
}

// slotBuf returns slot i's reusable position buffer, emptied.
func (x *qctx) slotBuf(i int) []uint32 {
	for len(x.posBufs) <= i {
		x.posBufs = append(x.posBufs, nil)
	}
	return x.posBufs[i][:0]
}

func (x *qctx) setSlotBuf(i int, b []uint32) { x.posBufs[i] = b }

// streamTo moves the slot's stream (its one term's positions in the current
// document, read from the cursor one at a time, or its expansions' merged) to
// its first position >= want and reports whether there is one (s.pos).
func (s *slot) streamTo(want uint32) bool {
	if s.isList() {
		s.pos, s.ok = s.atLeast(want)
		return s.ok
	}
	c := &s.terms[0].cur
	if !s.started {
		s.pos, s.ok = c.Pos()
		s.started = true
	}
	if s.ok && s.pos < want {
		s.pos, s.ok = c.NextAtLeast(want)
	}
	return s.ok
}

// matchStream matches a phrase of distinct slots at one offset each (single
// terms, or expansions merged as read) in the current document of every
// slot's cursor, walking the anchor's positions and moving the others forward
// only as needed (each position is read at most once). The implied slots
// (impliedSlots) are not read.
func (x *qctx) matchStream(p *phrasePlan, implied uint64) (bool, error) {
	return x.streamMatch(p, implied, false)
}

// streamMatch is matchStream; when ordered, the slots' order (p.check, the
// anchor first), keys and streams are set already (lazyReplay) and implied
// is not looked at.
func (x *qctx) streamMatch(p *phrasePlan, implied uint64, ordered bool) (bool, error) {
	slots := p.slots
	// A slot whose unit is a ZSTD unit not inflated yet comes after those
	// whose positions cost no inflation (slot.key): a document they rule out
	// saves it.
	unread := p.unread
	ord := p.check
	if !ordered {
		// The anchor: the fewest occurrences; the others are checked by key
		// ascending. One insertion sort of the slots read (not implied) in the
		// plan's buffer (a phrase has few slots) gives both: its first is the
		// anchor.
		ord = ord[:0]
		for i := range slots {
			if implied>>i&1 != 0 {
				continue
			}
			s := &slots[i]
			s.started = false
			key := s.tf
			if unread != 0 && unread>>i&1 != 0 {
				key = unreadKey + p.leapOf[i] // the leaps ascend in df
			} else if !s.isList() && s.terms[0].cur.Pending() {
				key += 1 << 30
			}
			s.key = key
			j := len(ord)
			ord = append(ord, i)
			for j > 0 && slots[ord[j-1]].key > key {
				ord[j] = ord[j-1]
				j--
			}
			ord[j] = i
		}
		p.check = ord
	}
	a := ord[0]
	ord = ord[1:]
	as := &slots[a]
	aoff := as.offs[0]
	pos, ok := as.first()
	for ok {
		if pos < aoff {
			pos, ok = as.next()
			continue
		}
		start := pos - aoff
		next := start // the smallest start the other slots still allow
		matched := true
		for _, i := range ord {
			s := &slots[i]
			want := start + s.offs[0]
			if want < start {
				return false, nil // overflow: no later start fits
			}
			if unread != 0 && unread>>i&1 != 0 {
				// Its frequency (and unit) first: the slots before it
				// line up at this start.
				unread &^= 1 << i
				tf, err := x.leapTF(&x.leaps[p.leapOf[i]])
				if err != nil {
					return false, err
				}
				s.tf = tf
			}
			if !s.streamTo(want) {
				return false, x.slotErr(s)
			}
			if s.pos != want {
				matched = false
				if s.pos >= s.offs[0] {
					next = max(next, s.pos-s.offs[0])
				}
				break
			}
		}
		if matched {
			return true, nil
		}
		// Move the anchor to the first position that can start at or after
		// next (and after start): at least aoff + max(next, start+1).
		if w := uint64(aoff) + max(uint64(next), uint64(start)+1); w > 1<<32-1 {
			return false, x.slotErr(as) // no start fits in 32 bits
		} else if pos < uint32(w) {
			pos, ok = as.atLeast(uint32(w))
		}
	}
	return false, x.slotErr(as)
}

// unreadKey orders matchStream's unread slots (p.unread) after every read
// one, a ZSTD one not inflated yet included.
const unreadKey = 3 << 29

// impliedSlots returns the slots (bit i: slot i) matchStream need not read in
// the current document: slot j is implied by a neighbour i across a pair that
// holds in the document (one of p.implies, the couples of p.holds that can
// imply: setOffsets) when term i occurs once in it. The pair puts
// term j right next to some occurrence of term i; there is one, which any
// match places at its phrase offset, so term j is at its own. A slot that
// implies another is itself read (it is never implied), so every implication
// rests on a position matchStream checks: two once-occurring neighbours do not
// imply each other. The couples are taken in phrase order; of two
// once-occurring neighbours the one on a ZSTD unit not inflated yet is
// implied, else the later. once and pending are the slots occurring once in the
// document and those of them on a ZSTD unit not inflated yet (impliedOf).
func impliedSlots(p *phrasePlan, once, pending uint64) uint64 {
	var implied, source uint64
	for h := p.implies; h != 0; h &= h - 1 {
		k := bits.TrailingZeros64(h) // the couple of phrase terms k, k+1
		a, b := p.slotOf[k], p.slotOf[k+1]
		oa, ob := once>>a&1 != 0, once>>b&1 != 0
		// Of two once-occurring neighbours, imply the one whose unit is not
		// inflated yet (reading the other costs no inflation).
		preferA := oa && ob && pending>>a&1 != 0 && pending>>b&1 == 0
		switch {
		case !preferA && oa && implied>>a&1 == 0 && source>>b&1 == 0 && implied>>b&1 == 0:
			implied |= 1 << b
			source |= 1 << a
		case ob && implied>>b&1 == 0 && source>>a&1 == 0 && implied>>a&1 == 0:
			implied |= 1 << a
			source |= 1 << b
		}
	}
	return implied
}

// impliedNow is impliedOf when some couple of p can imply a term, else 0.
func impliedNow(p *phrasePlan) uint64 {
	if p.implies == 0 {
		return 0
	}
	return impliedOf(p)
}

// lazyTFs reads the term frequencies of a lazy plan's slots (p.lazy) in the
// current document (d, candidate number ci; the leapfrog's when ls is not
// nil) into their s.tf, but for those of the slots it returns: the slots
// impliedSlots implies. A frequency its cursor's parsed unit holds is read
// at once; a slot whose unit would have to be parsed is read only when no
// once-occurring neighbour across a pair that holds implies it, those being
// read one at a time in slot order (each may imply the next), so an implied
// slot's window is not even opened. impliedSlots is given the slots known to
// occur once: every implication rests on a slot that does. Every slot is
// one term at one offset and each candidate holds every term, so no
// frequency rules the document out.
func (x *qctx) lazyTFs(p *phrasePlan, ls []leap, d uint32, ci int) (uint64, error) {
	var once, pending, unread uint64
	if ls != nil {
		for i := range ls {
			l := &ls[i]
			tf := 0
			if l.open {
				tf = l.t.cur.TF(l.c.ord0 + l.k)
			}
			l.s.tf = tf
			switch si := p.order[i]; tf {
			case 0:
				unread |= 1 << si
			case 1:
				once |= 1 << si
				if l.t.cur.Pending() {
					pending |= 1 << si
				}
			}
		}
	} else {
		slots, jobs := p.slots, x.jobs
		for i := range slots {
			s := &slots[i]
			t := s.terms[0]
			k := termIndex(t, d, ci)
			for k >= jobs[t.jcur].hi {
				t.jcur++
				t.open = false
			}
			tf := 0
			if t.open {
				if tf = t.cur.TF(int(t.ords[k])); tf > 0 {
					t.kcur = k
				}
			}
			s.tf = tf
			switch tf {
			case 0:
				unread |= 1 << i
			case 1:
				once |= 1 << i
				if t.cur.Pending() {
					pending |= 1 << i
				}
			}
		}
	}
	x.count.tfReads += int64(len(p.slots) - bits.OnesCount64(unread))
	for {
		implied := impliedFor(p, once, pending)
		rest := unread &^ implied
		if rest == 0 {
			return implied, nil
		}
		i := bits.TrailingZeros64(rest)
		unread &^= 1 << i
		s := &p.slots[i]
		var tf int
		var err error
		if ls != nil {
			tf, err = x.leapTF(&ls[p.leapOf[i]])
		} else {
			t := s.terms[0]
			tf, err = x.seekTerm(t, termIndex(t, d, ci))
		}
		if err != nil {
			return 0, err
		}
		x.count.tfReads++
		if s.tf = tf; tf == 1 {
			once |= 1 << i
			if s.terms[0].cur.Pending() {
				pending |= 1 << i
			}
		}
	}
}

// lazyReplay verifies candidate d (number ci) of a lazy staged plan as an
// earlier one when the slots that one read are as they were: it reads the
// term frequencies of the slots matchStream read there (p.check, the
// anchor first: the slots p.implied does not imply) and reports whether
// each occurs once exactly when it did as p.implied was chosen
// (p.impliedOnce), on a unit in the same state then (a ZSTD unit not
// inflated yet, or not: p.impliedPending), and their keys keep
// matchStream's order. Then p.implied holds again: each implied slot is
// next to a source's one occurrence across a pair that holds in every
// candidate, and the source, occurring once, is among the slots read. The
// implied slots are not read, not even their frequencies, and streamMatch
// walks p.check as it is. Otherwise lazyTFs and matchStream decide (the
// frequencies read here are read again from the units parsed).
func (x *qctx) lazyReplay(p *phrasePlan, d uint32, ci int) (bool, error) {
	if !p.checkValid || !p.impliedValid || p.checkOf != p.implied {
		return false, nil
	}
	slots, jobs := p.slots, x.jobs
	was, pend := p.impliedOnce, p.impliedPending
	prev, prevI := -1, -1
	for n, i := range p.check {
		s := &slots[i]
		t := s.terms[0]
		k := termIndex(t, d, ci)
		tf := parsedTF(t, k, jobs)
		if tf == 0 {
			var err error
			if tf, err = x.seekTerm(t, k); err != nil {
				return false, err
			}
		}
		pending := t.cur.Pending()
		key := tf
		if pending {
			key += 1 << 30
		}
		once := tf == 1
		if once != (was>>i&1 != 0) || once && pending != (pend>>i&1 != 0) || key < prev || key == prev && i < prevI {
			x.count.tfReads += int64(n + 1)
			return false, nil
		}
		s.tf, s.key, s.started = tf, key, false
		prev, prevI = key, i
	}
	x.count.tfReads += int64(len(p.check))
	return true, nil
}

// impliedOf is impliedSlots of the slots' frequencies (s.tf) in the current
// document (impliedFor).
func impliedOf(p *phrasePlan) uint64 {
	var once, pending uint64
	for i := range p.slots {
		if s := &p.slots[i]; s.tf == 1 {
			once |= 1 << i
			if s.terms[0].cur.Pending() {
				pending |= 1 << i
			}
		}
	}
	return impliedFor(p, once, pending)
}

// impliedFor is impliedSlots(p, once, pending), kept for the next document: the
// answer depends only on which slots occur once in the document and which of
// those are on a ZSTD unit not inflated yet, and neighbouring candidates
// mostly agree on both.
func impliedFor(p *phrasePlan, once, pending uint64) uint64 {
	if !p.impliedValid || once != p.impliedOnce || pending != p.impliedPending {
		p.impliedOnce, p.impliedPending, p.implied, p.impliedValid = once, pending, impliedSlots(p, once, pending), true
	}
	return p.implied
}

// setOffsets sets each slot's phrase offsets, and p.implies: the couples of
// p.holds that can imply a term (both slots one term at one offset; slots
// 0..63, which impliedSlots' masks hold).
func (p *phrasePlan) setOffsets() {
	for i := range p.slots {
		p.slots[i].offs = p.slots[i].offs[:0]
	}
	for i, si := range p.slotOf {
		p.slots[si].offs = append(p.slots[si].offs, uint32(i))
	}
	p.implies, p.impliedValid, p.lazy, p.checkValid = 0, false, false, false
	if len(p.slots) > 64 {
		return
	}
	one := func(s *slot) bool { return !s.isList() && len(s.offs) == 1 }
	for h := p.holds; h != 0; h &= h - 1 {
		k := bits.TrailingZeros64(h)
		if k+1 >= len(p.slotOf) {
			break
		}
		if one(&p.slots[p.slotOf[k]]) && one(&p.slots[p.slotOf[k+1]]) {
			p.implies |= 1 << k
		}
	}
	p.lazy = p.implies != 0 && p.slop == 0
	for i := range p.slots {
		p.lazy = p.lazy && one(&p.slots[i])
	}
}

// first, next and atLeast walk the anchor slot of matchStream: its term's
// cursor, or its list.
func (s *slot) first() (uint32, bool) {
	if s.isList() {
		return s.listFirst()
	}
	return s.terms[0].cur.Pos()
}

func (s *slot) next() (uint32, bool) {
	if s.isList() {
		return s.listNext()
	}
	return s.terms[0].cur.Next()
}

func (s *slot) atLeast(w uint32) (uint32, bool) {
	if s.isList() {
		return s.listAtLeast(w)
	}
	return s.terms[0].cur.NextAtLeast(w)
}

// phraseShape is how verifyPhrase matches a document (matchDoc).
type phraseShape uint8

const (
	shapeSimple phraseShape = iota // distinct single terms, one offset each: streamed
	shapeLists                     // one offset each, some slots prefix expansions: streamed, expansions merged as read
	shapeOther                     // repeated terms: materialized
)

// planFrames builds one decode job per (term, window holding a kept doc) of the
// given slots and fetches their frames (x.jobs).
func (x *qctx) planFrames(p *phrasePlan, slotIdx []int) error {
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
				x.jobs = append(x.jobs, frameJob{t: t, w: int(w), lo: lo, hi: hi})
				lo = hi
			}
			t.job1 = len(x.jobs)
		}
	}
	return x.fetchFrames(j0, p.sup)
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

// frameJob is one prx window to decode for one term.
type frameJob struct {
	t      *termRef
	w      int // index into t.wins
	lo, hi int // the term's kept docs in that window: t.docs[lo:hi]
	frame  []byte
	// remote segments: the spans of the frame read (x.ranges[s0:s1], relative
	// to the frame), and how many of its first bytes are held in frame
	s0, s1 int
	got    uint64
}

// span is a coalesced byte range of the file.
type span struct{ off, end uint64 }

// coalesceGap is the largest gap between two frames read as one range through a
// ReaderAt (a mapped file reads nothing; its ranges are exact).
const coalesceGap = 1 << 10

// fetchFrames sets the frame bytes of the jobs from j0 on: inline frames come
// from the dict entry; the others are read in coalesced ranges (one read per
// range), in file order, or on a remote segment as fetchUnits says (sup: the
// rarest slot's docs).
func (x *qctx) fetchFrames(j0 int, sup []uint32) error {
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
	if r := x.s.remote(); r != nil {
		return x.fetchUnits(r, sup) // the headers and the units the jobs need
	}
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

// patternSlot adds to p the slot of a pattern's expansions; ok is false when
// the pattern matches no term.
func (x *qctx) patternSlot(p *phrasePlan, f *field, pat *pattern, maxExp int) (ok bool, err error) {
	return x.expansionSlot(p, f, func(fn func([]byte, *format.Entry) (bool, error)) error {
		return f.scanPattern(x, pat, maxExp, fn)
	})
}
