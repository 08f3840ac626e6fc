package reader

import (
	"math"
	"math/bits"
	"slices"

	"github.com/snii-go/snii/internal/codec/format"
)

// leap is one term's postings walked by the leapfrog conjunction: its current
// doc window (decoded into the term's docs buffer) and the position in it, and
// the prx cursor of that window, opened when a candidate needs it.
type leap struct {
	t    *termRef
	it   winIter
	c    docCursor // the current window's doc ids (a block of them when blocked)
	k    int       // index into c.docs
	done bool
	open bool
	s    *slot  // the term's slot
	off  uint32 // s.offs[0], kept here: read for every candidate
}

// leapfrogPhrase reports whether every slot of p is one term (no prefix
// expansions; a term may repeat): the leapfrog case.
func leapfrogPhrase(p *phrasePlan) bool {
	for i := range p.slots {
		if len(p.slots[i].terms) != 1 {
			return false
		}
	}
	return len(p.slots) > 1 || len(p.slotOf) > 1
}

// phraseLeapfrog evaluates a phrase of single terms in one pass: the rarest term leads,
// the others are advanced to each of its docs (galloping inside a decoded doc
// window, skipping windows through the prelude), and a doc that all terms hold
// is verified at once from the tf columns and positions of its windows. No
// candidate list is built, no doc is visited twice.
func (x *qctx) phraseLeapfrog(p *phrasePlan, out []uint32, countOnly bool) ([]uint32, int, error) {
	p.setOffsets()
	if p.slop > 0 {
		p.sloppy.bindCursors(p)
	}
	if cap(x.leaps) < len(p.order) {
		x.leaps = make([]leap, len(p.order))
	}
	ls := x.leaps[:len(p.order)]
	mixed := false               // a term repeats
	for i, si := range p.order { // ascending df: ls[0] leads
		s := &p.slots[si]
		t := s.terms[0]
		ls[i] = leap{t: t, it: t.windows(0), c: docCursor{docs: t.docs[:0], blks: t.blks[:0]}, k: 0, s: s, off: s.offs[0]}
		mixed = mixed || len(s.offs) > 1
	}
	p.leapOf = slices.Grow(p.leapOf[:0], len(p.slots))[:len(p.slots)]
	for i, si := range p.order {
		p.leapOf[si] = i
	}
	defer func() {
		for i := range ls {
			// keep the buffers with the term
			ls[i].t.docs, ls[i].t.blks = ls[i].c.docs[:0], ls[i].c.blks[:0]
			ls[i] = leap{}
		}
	}()
	// A chain plan proves a candidate from the tf of the inner terms
	// (chainProves): their leaps.
	var innerBuf [8]int
	inner := innerBuf[:0]
	if p.chain {
		for _, si := range p.slotOf[1 : len(p.slotOf)-1] {
			for k := range ls {
				if ls[k].s == &p.slots[si] {
					inner = append(inner, k)
					break
				}
			}
		}
	}
	if !p.incl.on && x.rank == nil { // counting or listing every match
		if twoTight(p, ls, mixed) && !x.profile {
			return x.leapTwo(p, ls, out, countOnly)
		}
		if chainPair(p, ls, inner) {
			return x.leapChain(p, ls, inner, mixed, out, countOnly)
		}
		return x.leapPlain(p, ls, inner, mixed, out, countOnly)
	}
	excl, incl := p.excl, p.incl.ids
	ei := 0 // excl[:ei] lie below the documents still to verify
	n := 0
	target := uint32(0)
	for {
		if p.incl.on { // only the docs of the kept list-form pairs can match
			k := seekGE(incl, 0, target)
			if incl = incl[k:]; len(incl) == 0 {
				return out, n, nil
			}
			target = incl[0]
		}
		d, ok, err := x.nextCommon(ls, target)
		if !ok || err != nil {
			return out, n, err
		}
		if p.incl.on && d != incl[0] {
			target = d // (the loop's start moves to the next pair doc from d)
			continue
		}
		// Verify d (leapVerify): not when it is in excl (the documents
		// lacking a kept pair, walked forward by index).
		if excluded(excl, &ei, d) {
			if d == math.MaxUint32 {
				return out, n, nil
			}
			target = d + 1
			continue
		}
		// A ranked search: can d enter its top k? (f: the most times the
		// phrase can occur in d, by its terms' frequencies)
		var f int
		if x.rank != nil {
			next, err := x.rank.next(d)
			if err != nil || next > math.MaxUint32 {
				return out, n, err
			}
			if next != int64(d) {
				target = uint32(next)
				continue
			}
			if f, err = x.leapBound(ls); err != nil {
				return out, n, err
			}
			if f == 0 || !x.rank.worth(d, f) {
				if d == math.MaxUint32 {
					return out, n, nil
				}
				target = d + 1
				continue
			}
		}
		if ok, err = x.leapVerify(p, ls, inner, mixed); err != nil {
			return out, n, err
		}
		if ok {
			n++
			if x.rank != nil {
				if f > 1 { // else the phrase occurs once: leapBound
					if f, err = x.leapFreq(p, ls); err != nil {
						return out, n, err
					}
				}
				if f > 0 {
					x.rank.match(d, f)
				}
			} else if !countOnly {
				out = append(out, d)
			}
			if n == x.limit {
				return out, n, nil // SearchOptions.Limit: the lowest ids are found
			}
		}
		if d == math.MaxUint32 {
			return out, n, nil
		}
		target = d + 1
	}
}

// leapPlain is phraseLeapfrog's loop for a phrase that neither ranks nor
// is restricted to kept pair lists (p.incl): the fewest values live across
// its calls, and a chain's proof by one inner term inline (most candidates
// of a chain plan), for the instructions each candidate costs.
func (x *qctx) leapPlain(p *phrasePlan, ls []leap, inner []int, mixed bool, out []uint32, countOnly bool) ([]uint32, int, error) {
	excl := p.excl
	ei, n := 0, 0
	target := uint32(0)
	for {
		d, ok, err := x.nextCommon(ls, target)
		if !ok || err != nil {
			return out, n, err
		}
		// Not when d lacks a kept pair (excl, walked forward by index).
		if excluded(excl, &ei, d) {
			if d == math.MaxUint32 {
				return out, n, nil
			}
			target = d + 1
			continue
		}
		if ok = p.chain && innerTF(ls, inner) == 1; ok {
			x.count.pairProved++
		} else if ok, err = x.leapVerify(p, ls, inner, mixed); err != nil {
			return out, n, err
		}
		if ok {
			n++
			if !countOnly {
				out = append(out, d)
			}
			if n == x.limit {
				return out, n, nil // SearchOptions.Limit: the lowest ids are found
			}
		}
		if d == math.MaxUint32 {
			return out, n, nil
		}
		target = d + 1
	}
}

// leapTwo is leapPlain for a twoTight phrase: each candidate is verified
// by verifyTwo. It is a loop of its own rather than a branch in leapPlain's,
// which would cost every chain plan's candidate (docs/bench/svc2.md).
func (x *qctx) leapTwo(p *phrasePlan, ls []leap, out []uint32, countOnly bool) ([]uint32, int, error) {
	excl := p.excl
	ei, n := 0, 0
	target := uint32(0)
	for {
		d, ok, err := x.nextCommon(ls, target)
		if !ok || err != nil {
			return out, n, err
		}
		// Not when d lacks a kept pair (excl, walked forward by index).
		if excluded(excl, &ei, d) {
			if d == math.MaxUint32 {
				return out, n, nil
			}
			target = d + 1
			continue
		}
		if ok, err = x.verifyTwo(ls); err != nil {
			return out, n, err
		}
		if ok {
			n++
			if !countOnly {
				out = append(out, d)
			}
			if n == x.limit {
				return out, n, nil // SearchOptions.Limit: the lowest ids are found
			}
		}
		if d == math.MaxUint32 {
			return out, n, nil
		}
		target = d + 1
	}
}

// excluded reports whether d is in excl (ascending), walked forward by
// index: *ei moves past the entries below d; the docs asked come in
// ascending order.
func excluded(excl []uint32, ei *int, d uint32) bool {
	return *ei < len(excl) && excl[*ei] <= d && excludedSeek(excl, ei, d)
}

// excludedSeek is excluded's seek, out of line so that excluded inlines in
// the leapfrog's loops.
func excludedSeek(excl []uint32, ei *int, d uint32) bool {
	*ei = seekGE(excl, *ei, d)
	return *ei < len(excl) && excl[*ei] == d
}

// twoTight reports whether phraseLeapfrog counts or lists with leapTwo
// (verifyTwo): a phrase of two distinct terms, each at one offset, without
// slop, that no chain proves and no pair implies.
func twoTight(p *phrasePlan, ls []leap, mixed bool) bool {
	return len(ls) == 2 && !mixed && p.slop == 0 && !p.chain && p.implies == 0 && !p.lazy
}

// verifyTwo is verifyLeap for a twoTight phrase. When each term occurs once in
// the doc (most log lines) the phrase matches when their positions lie at
// the phrase's offsets; else the two position lists are merged, each moved
// on to the start the other proposes. The term whose unit is inflated
// already is read first, so a doc it rules out leaves the other's ZSTD unit
// deflated.
func (x *qctx) verifyTwo(ls []leap) (bool, error) {
	a, b := &ls[0], &ls[1]
	ta, tb := 0, 0
	if a.open {
		ta = a.t.cur.TF(a.c.ord0 + a.k)
	}
	if b.open {
		tb = b.t.cur.TF(b.c.ord0 + b.k)
	}
	var err error
	if ta == 0 {
		if ta, err = x.leapTF(a); err != nil || ta == 0 {
			return false, err
		}
	}
	if tb == 0 {
		if tb, err = x.leapTF(b); err != nil || tb == 0 {
			return false, err
		}
	}
	if a.t.cur.Pending() {
		a, b, ta, tb = b, a, tb, ta
	}
	pa, ok := a.t.cur.Pos()
	if !ok {
		return false, x.termErr(a.t)
	}
	if ta == 1 && pa < a.off {
		return false, nil
	}
	pb, ok := b.t.cur.Pos()
	if !ok {
		return false, x.termErr(b.t)
	}
	if ta == 1 && tb == 1 {
		return pb >= b.off && pb-b.off == pa-a.off, nil
	}
	// A start s puts a at s+a.off and b at s+b.off: the two agree on s
	// when pa+b.off == pb+a.off.
	for {
		ka, kb := uint64(pa)+uint64(b.off), uint64(pb)+uint64(a.off)
		switch {
		case ka == kb && pa >= a.off:
			return true, nil
		case ka <= kb:
			// (ka == kb: both lie before their offsets; a moves on.)
			w := max(kb-uint64(b.off), uint64(pa)+1)
			if w > math.MaxUint32 {
				return false, nil
			}
			if pa, ok = a.t.cur.NextAtLeast(uint32(w)); !ok {
				return false, x.termErr(a.t)
			}
		default:
			w := ka - uint64(a.off) // > pb
			if w > math.MaxUint32 {
				return false, nil
			}
			if pb, ok = b.t.cur.NextAtLeast(uint32(w)); !ok {
				return false, x.termErr(b.t)
			}
		}
	}
}

// leapVerify verifies the phrase in the doc every leap is on: at once when
// a chain plan proves it (its inner terms once each: innerTF, chainLeap),
// else from positions (verifyLeap).
func (x *qctx) leapVerify(p *phrasePlan, ls []leap, inner []int, mixed bool) (bool, error) {
	x.count.leapVerifies++
	if p.chain {
		switch tf := innerTF(ls, inner); {
		case tf == 1:
			x.count.pairProved++
			return true, nil
		case tf == 0:
			if ok, err := x.chainLeap(ls, inner); ok || err != nil {
				return ok, err
			}
		}
	}
	if x.profile {
		t0, d0 := x.verifyStart()
		ok, err := x.verifyLeap(p, ls, mixed)
		x.verifyEnd(t0, d0)
		return ok, err
	}
	return x.verifyLeap(p, ls, mixed)
}

// nextCommon returns the first doc >= target that every leap is on (ok
// false when a leap runs out; the context is looked at every 256 turns): the lead, ls[0], moves to target, every other
// leap to the lead's doc, and the lead on to any doc a leap lands beyond.
// (Apart from phraseLeapfrog's loop, whose many live values the compiler
// keeps on the stack, this loop keeps its few in registers.)
func (x *qctx) nextCommon(ls []leap, target uint32) (uint32, bool, error) {
	for {
		if x.leapTicks++; x.leapTicks&255 == 0 {
			if err := x.ctx.Err(); err != nil {
				return 0, false, err
			}
		}
		d, ok := x.step(&ls[0], target)
		if !ok {
			var err error
			if d, err = x.advance(&ls[0], target, 2); err != nil || ls[0].done {
				return 0, false, err
			}
		}
		match := true
		for i := 1; i < len(ls); i++ {
			od, ok := x.step(&ls[i], d)
			if !ok {
				if od, ok = x.stepOn(&ls[i], d); !ok {
					var err error
					if od, err = x.advance(&ls[i], d, 2+stepProbes); err != nil || ls[i].done {
						return 0, false, err
					}
				}
			}
			if od != d {
				target, match = od, false
				break
			}
		}
		if match {
			return d, true, nil
		}
	}
}

// step is advance's common case, small enough to inline: the doc l is on, or
// the next one, is the first >= target. ok is false when advance must be called.
func (x *qctx) step(l *leap, target uint32) (uint32, bool) {
	docs := l.c.docs
	if k := l.k; k < len(docs) {
		if d := docs[k]; d >= target {
			return d, true
		}
		if k+1 < len(docs) && docs[k+1] >= target {
			x.count.docsVisited++
			l.k = k + 1
			return docs[k+1], true
		}
	}
	return 0, false
}

// stepOn is step's continuation for a leap that is not the lead, small
// enough to inline: one of the stepProbes docs after the two step looked at is
// the first >= target (a term a few times as frequent as the lead is most
// often that many docs on). ok is false when advance must be called.
func (x *qctx) stepOn(l *leap, target uint32) (uint32, bool) {
	docs := l.c.docs
	for k := l.k + 2; k < min(l.k+2+stepProbes, len(docs)); k++ {
		if docs[k] >= target {
			x.count.docsVisited++
			l.k = k
			return docs[k], true
		}
	}
	return 0, false
}

// stepProbes is how many docs stepOn looks at (advance's linear walk goes
// on from there).
const stepProbes = 6

// linearProbes is how many docs advance looks at one by one before it
// gallops (seekGE) in a decoded block, chosen by the instructions executed on
// the phrase sets (docs/BENCHMARKS-HISTORY.md).
const linearProbes = 8

// advance moves l to its first doc >= target and returns it (l.done when none).
// It is called when step (and stepOn) fail: docs[l.k : l.k+seen] of the
// current window, those of them it holds, are < target.
// In a blocked window only the block that can hold target is decoded.
func (x *qctx) advance(l *leap, target uint32, seen int) (uint32, error) {
	x.count.leapAdvances++
	c := &l.c
	for {
		if l.k < len(c.docs) {
			if c.docs[l.k] >= target {
				return c.docs[l.k], nil
			}
			if last := c.docs[len(c.docs)-1]; last >= target {
				x.count.docsVisited++
				// A few docs on, one by one, before a gallop: in logs the
				// next doc of a term is most often a few docs on. (The walk
				// ends below len(c.docs), the last doc being >= target.)
				k := l.k + seen
				for end := min(k+linearProbes, len(c.docs)); k < end && c.docs[k] < target; k++ {
				}
				if c.docs[k] < target {
					k = seekGE(c.docs, k, target)
				}
				l.k = k
				return c.docs[k], nil
			}
		}
		t := l.t
		if c.blocked && l.it.i > 0 && target <= c.w.last {
			// A later block of the current window.
			ok, err := x.seekBlock(t, c, target)
			if err != nil {
				return 0, err
			}
			if ok {
				x.count.docsVisited++
				l.k = seekGE(c.docs, 0, target)
				return c.docs[l.k], nil
			}
		}
		// A later window: skip those that end before target without decoding
		// them (through the prelude when the term has many windows).
		if t.e.Class == format.ClassWindowed && t.nWin > 8 && l.it.i < t.nWin {
			if err := l.it.seek(target); err != nil {
				return 0, err
			}
		}
		var w winInfo
		for {
			var ok bool
			if w, ok = l.it.next(); !ok {
				l.done = true
				return 0, nil
			}
			if w.last >= target {
				break
			}
		}
		if err := x.loadWindow(t, c, &w); err != nil {
			return 0, err
		}
		l.k, l.open = 0, false
		seen = 1 // docs[0] is looked at first
	}
}

// verifyLeap verifies the phrase in the doc every leap is on. The tf columns
// come first: a term the doc holds fewer times than the phrase needs it rules
// the doc out before any position is read, and when every term occurs as often
// as the phrase holds it (once, in most log lines) the phrase can start at one
// place only, which the first positions decide.
func (x *qctx) verifyLeap(p *phrasePlan, ls []leap, mixed bool) (bool, error) {
	if p.lazy { // (no term repeats: mixed is false)
		implied, err := x.lazyTFs(p, ls, 0, 0)
		if err != nil {
			return false, err
		}
		for i := range p.slots {
			if implied>>i&1 == 0 && p.slots[i].tf != 1 {
				return x.matchStream(p, implied)
			}
		}
		return x.tightMatch(p, ls, implied, false)
	}
	if !mixed && p.slop == 0 && len(ls) > 2 && len(ls) <= 64 {
		if ok, done, err := x.verifyLeapLazy(p, ls); done || err != nil {
			return ok, err
		}
	}
	tight := true // every term occurs as often in the doc as in the phrase
	for i := range ls {
		l := &ls[i]
		tf := 0
		if l.open { // the common case: the unit holding the doc is parsed
			tf = l.t.cur.TF(l.c.ord0 + l.k)
		}
		if tf == 0 {
			var err error
			if tf, err = x.leapTF(l); err != nil {
				return false, err
			}
		}
		if l.s.tf = tf; tf < len(l.s.offs) {
			return false, nil // the phrase needs this term more often than the doc has it
		}
		tight = tight && tf == len(l.s.offs)
	}
	if p.slop > 0 {
		return x.matchSloppy(p)
	}
	if !tight {
		if mixed {
			return x.matchMixed(p)
		}
		return x.matchStream(p, impliedNow(p))
	}
	return x.tightMatch(p, ls, impliedNow(p), mixed)
}

// verifyLeapLazy is verifyLeap for three distinct terms or more (each at one
// offset, no slop, no couple that implies): every candidate holds each term
// at least once, so a frequency rules nothing out. The frequencies the
// terms' parsed units hold are read, and the lead's; a term whose unit would
// have to be parsed is left unread (p.unread) for matchStream, which reads
// it only if the terms checked before it line up: a document the first
// checks rule out does not parse its unit. When every frequency is read and
// is 1 the phrase can start at one place only (tightMatch). A read term whose
// positions would inflate a ZSTD unit must be checked after the unread ones,
// which matchStream's order cannot do: then done is false and verifyLeap
// reads every frequency.
func (x *qctx) verifyLeapLazy(p *phrasePlan, ls []leap) (ok, done bool, err error) {
	tight := true
	var unread uint64
	for i := range ls {
		l := &ls[i]
		tf := 0
		if l.open {
			tf = l.t.cur.TF(l.c.ord0 + l.k)
		}
		if tf == 0 && i == 0 { // the lead: the anchor's candidate
			if tf, err = x.leapTF(l); err != nil {
				return false, true, err
			}
		}
		if tf > 0 && l.t.cur.Pending() {
			return false, false, nil
		}
		if l.s.tf = tf; tf == 0 {
			unread |= 1 << p.order[i]
		}
		tight = tight && tf == 1
	}
	if tight {
		ok, err = x.tightMatch(p, ls, 0, false)
		return ok, true, err
	}
	p.unread = unread
	ok, err = x.matchStream(p, 0)
	p.unread = 0
	return ok, true, err
}

// tightMatch is verifyLeap's case of every term (but the implied ones, not
// read) occurring as often as the phrase holds it (most often once, in logs):
// the phrase can start at one place only, each term's first position minus
// its first offset, and matches when every position of every term lies at
// that start plus its offsets. A term implied by its neighbour across a pair
// that holds (impliedSlots) is not read: the pair puts it at its offset from
// the neighbour's one position.
func (x *qctx) tightMatch(p *phrasePlan, ls []leap, implied uint64, mixed bool) (bool, error) {
	// Terms whose unit is a ZSTD unit not inflated yet are read last: a
	// term read before them that rules the doc out saves the inflation.
	var start uint32
	first := true
	var deferred uint64
	for i := range ls {
		if implied != 0 && implied>>p.order[i]&1 != 0 {
			continue
		}
		if i < 64 && ls[i].t.cur.Pending() {
			deferred |= 1 << i
			continue
		}
		if ok, err := x.tightPos(&ls[i], mixed, &start, &first); !ok || err != nil {
			return false, err
		}
	}
	for ; deferred != 0; deferred &= deferred - 1 {
		if ok, err := x.tightPos(&ls[bits.TrailingZeros64(deferred)], mixed, &start, &first); !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// tightPos reads l's positions in verifyLeap's tight case: its first position
// sets the phrase's one start (*first) or must agree with it, and a repeated
// term's later positions must lie at its later offsets.
func (x *qctx) tightPos(l *leap, mixed bool, start *uint32, first *bool) (bool, error) {
	pos, ok := l.t.cur.Pos()
	if !ok {
		return false, x.termErr(l.t)
	}
	if pos < l.off {
		return false, nil
	}
	if *first {
		*start, *first = pos-l.off, false
	} else if pos-l.off != *start {
		return false, nil
	}
	if mixed {
		// A repeated term: its later positions, in order, at its later
		// offsets (positions ascend, and so do offsets).
		for _, o := range l.s.offs[1:] {
			if pos, ok = l.t.cur.Next(); !ok {
				return false, x.termErr(l.t)
			}
			if pos-*start != o {
				return false, nil
			}
		}
	}
	return true, nil
}

// chainLeap is chainProves for the doc every leap is on: it matches when
// each inner phrase term (the leaps inner) occurs once in it; only their tf
// columns are read.
func (x *qctx) chainLeap(ls []leap, inner []int) (bool, error) {
	for _, k := range inner {
		l := &ls[k]
		tf := 0
		if l.open {
			tf = l.t.cur.TF(l.c.ord0 + l.k)
		}
		if tf == 0 {
			var err error
			if tf, err = x.leapTF(l); err != nil {
				return false, err
			}
		}
		if tf != 1 {
			return false, nil
		}
	}
	x.count.pairProved++
	return true, nil
}

// innerTF is chainLeap's common case, small enough to inline: the
// frequency in the current doc of a chain's one inner term, read from its
// parsed unit; 0 when the chain has several inner terms or the unit must be
// parsed (chainLeap decides).
func innerTF(ls []leap, inner []int) int {
	if len(inner) != 1 {
		return 0
	}
	if l := &ls[inner[0]]; l.open {
		return l.t.cur.TF(l.c.ord0 + l.k)
	}
	return 0
}

// leapTF returns the term frequency of the doc l is on, from its window's tf
// column (the window opened, its unit parsed, as needed).
func (x *qctx) leapTF(l *leap) (int, error) {
	if !l.open {
		if err := x.openLeap(l); err != nil {
			return 0, err
		}
	}
	tf, err := l.t.cur.Seek(l.c.ord0 + l.k)
	if err != nil {
		return 0, l.t.f.seg.wrap(x.prxWinName(l.t, &l.c.w), err)
	}
	return tf, nil
}

// openLeap opens the prx cursor of l's window.
func (x *qctx) openLeap(l *leap) error {
	t := l.t
	var frame []byte
	withCRC := true
	if t.e.Class == format.ClassInline {
		frame, withCRC = t.e.Frame, false
	} else {
		var err error
		if frame, err = x.read(l.c.w.prxOff, l.c.w.prxLen); err != nil {
			return t.f.seg.wrap(x.prxWinName(t, &l.c.w), err)
		}
	}
	if err := x.source().OpenAt(&t.cur, frame, withCRC, l.c.w.docs, x.verifier(), int64(l.c.w.prxOff)); err != nil {
		return t.f.seg.wrap(x.prxWinName(t, &l.c.w), err)
	}
	x.count.prxWindows++
	l.open, t.curWin = true, l.c.w
	return nil
}

// leapBound returns the most times the phrase can occur in the doc every leap
// is on, from its terms' frequencies: a term the phrase holds at m offsets
// and the doc tf times allows at most tf - m + 1 starts (two starts put the
// term at m + 1 distinct positions at least, each further start one more).
// It stops at 1, which a match attains: the phrase then occurs exactly once,
// as leapFreq needs not count. 0: a term occurs fewer times than the phrase
// holds it, and the doc cannot match.
func (x *qctx) leapBound(ls []leap) (int, error) {
	f := math.MaxInt
	for i := range ls {
		tf, err := x.leapTF(&ls[i])
		if err != nil {
			return 0, err
		}
		if f = min(f, tf-len(ls[i].s.offs)+1); f <= 1 {
			return max(f, 0), nil
		}
	}
	return f, nil
}

// leapFreq counts the starts of the phrase in the doc every leap is on (a
// match), from the leaps' cursors, back at the doc's first positions. A
// phrase of distinct terms walks the positions of its term occurring least
// (the anchor) and moves the others forward only as far as each start needs
// (leapStarts); one that repeats a term merges every term's positions
// (phraseStarts).
func (x *qctx) leapFreq(p *phrasePlan, ls []leap) (int, error) {
	a := 0
	for si := range p.slots {
		s := &p.slots[si]
		tf, err := x.leapTF(&ls[p.leapOf[si]])
		if err != nil {
			return 0, err
		}
		s.tf, s.started = tf, false
		if tf < p.slots[a].tf {
			a = si
		}
	}
	if len(p.slots) == len(p.slotOf) {
		return x.leapStarts(p, a)
	}
	for si := range p.slots {
		t := p.slots[si].terms[0]
		buf, err := t.cur.AppendPositions(x.slotBuf(si))
		x.setSlotBuf(si, buf)
		if err != nil {
			return 0, x.termErr(t)
		}
	}
	p.starts = slices.Grow(p.starts[:0], len(p.slotOf))[:len(p.slotOf)]
	return phraseStarts(x.posBufs[:len(p.slots)], p.slotOf, p.starts), nil
}

// leapStarts is leapFreq's count for distinct terms, a the anchor slot: each
// of its positions proposes a start, which every other term's stream is moved
// to (read once, in order); the count ends where a stream or the anchor does,
// so the positions past the last start that can match are not read.
func (x *qctx) leapStarts(p *phrasePlan, a int) (int, error) {
	as := &p.slots[a]
	aoff := as.offs[0]
	n := 0
	pos, ok := as.first()
	for ok {
		if pos < aoff {
			pos, ok = as.next()
			continue
		}
		start := pos - aoff
		next := start + 1 // the first start still to try
		matched := true
		for i := range p.slots {
			s := &p.slots[i]
			if i == a {
				continue
			}
			want := start + s.offs[0]
			if want < start { // overflow: no start fits
				return n, nil
			}
			if !s.streamTo(want) {
				return n, x.slotErr(s)
			}
			if s.pos != want { // (s.pos > want: no start before s.pos - its offset)
				next, matched = max(next, s.pos-s.offs[0]), false
				break
			}
		}
		if matched {
			n++
		}
		w := uint64(aoff) + uint64(next)
		if w > 1<<32-1 {
			return n, nil
		}
		pos, ok = as.atLeast(uint32(w))
	}
	return n, x.slotErr(as)
}
