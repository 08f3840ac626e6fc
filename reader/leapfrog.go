package reader

import (
	"math"

	"github.com/snii-go/snii/internal/format"
)

// leap is one term's postings walked by the leapfrog conjunction: its current
// doc window (decoded into the term's docs buffer) and the position in it, and
// the prx cursor of that window, opened when a candidate needs it.
type leap struct {
	t    *termRef
	it   winIter
	w    winInfo
	docs []uint32
	k    int
	done bool
	open bool
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
	for i := range p.slots {
		s := &p.slots[i]
		s.offs = s.offs[:0]
	}
	for i, si := range p.slotOf {
		p.slots[si].offs = append(p.slots[si].offs, uint32(i))
	}
	if p.slop > 0 {
		p.sloppy.bindCursors(p)
	}
	if cap(x.leaps) < len(p.order) {
		x.leaps = make([]leap, len(p.order))
	}
	ls := x.leaps[:len(p.order)]
	for i, si := range p.order { // ascending df: ls[0] leads
		t := p.slots[si].terms[0]
		ls[i] = leap{t: t, it: t.windows(0), docs: t.docs[:0], k: 0}
	}
	defer func() {
		for i := range ls {
			ls[i].t.docs = ls[i].docs[:0] // keep the buffer with the term
			ls[i] = leap{}
		}
	}()
	n := 0
	target := uint32(0)
	ticks := 0
	for {
		if ticks++; ticks&255 == 0 {
			if err := x.ctx.Err(); err != nil {
				return out, n, err
			}
		}
		d, err := x.advance(&ls[0], target)
		if err != nil || ls[0].done {
			return out, n, err
		}
		match := true
		for i := 1; i < len(ls); i++ {
			od, err := x.advance(&ls[i], d)
			if err != nil || ls[i].done {
				return out, n, err
			}
			if od != d {
				target, match = od, false
				break
			}
		}
		if !match {
			continue
		}
		ok, err := x.verifyLeap(p, ls)
		if err != nil {
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

// advance moves l to its first doc >= target and returns it (l.done when none).
func (x *qctx) advance(l *leap, target uint32) (uint32, error) {
	for {
		if l.k < len(l.docs) {
			if l.docs[l.k] >= target {
				return l.docs[l.k], nil
			}
			if last := l.docs[len(l.docs)-1]; last >= target {
				x.count.docsVisited++
				l.k = seekGE(l.docs, l.k, target)
				return l.docs[l.k], nil
			}
		}
		// A later window: skip those that end before target without decoding
		// them (through the prelude when the term has many windows).
		t := l.t
		if t.e.Class == format.ClassWindowed && t.nWin > 8 && l.it.i < t.nWin {
			j, err := t.find(target)
			if err != nil {
				return 0, err
			}
			if j > l.it.i {
				l.it = t.windows(j)
			}
		}
		for {
			w, ok := l.it.next()
			if !ok {
				l.done = true
				return 0, nil
			}
			if w.last < target {
				continue
			}
			l.w = w
			break
		}
		docs, err := x.decodeDocs(t, &l.w, l.docs[:0])
		l.docs = docs
		if err != nil {
			return 0, err
		}
		l.k, l.open = 0, false
	}
}

// verifyLeap verifies the phrase in the doc every leap is on.
func (x *qctx) verifyLeap(p *phrasePlan, ls []leap) (bool, error) {
	for i := range ls {
		l := &ls[i]
		t := l.t
		if !l.open {
			var frame []byte
			withCRC := true
			if t.e.Class == format.ClassInline {
				frame, withCRC = t.e.Frame, false
			} else {
				var err error
				if frame, err = x.read(l.w.prxOff, l.w.prxLen); err != nil {
					return false, t.f.seg.wrap(x.prxWinName(t, &l.w), err)
				}
			}
			if err := x.source().Open(&t.cur, frame, withCRC, len(l.docs)); err != nil {
				return false, t.f.seg.wrap(x.prxWinName(t, &l.w), err)
			}
			x.count.prxWindows++
			l.open, t.curWin = true, l.w
		}
		tf, err := t.cur.Seek(l.k)
		if err != nil {
			return false, t.f.seg.wrap(x.prxWinName(t, &l.w), err)
		}
		s := &p.slots[p.order[i]]
		if s.tf = tf; tf < len(s.offs) {
			return false, nil // the phrase needs this term more often than the doc has it
		}
	}
	if p.slop > 0 {
		return x.matchSloppy(p)
	}
	for i := range p.slots {
		if len(p.slots[i].offs) > 1 {
			return x.matchMixed(p)
		}
	}
	return x.matchStream(p)
}
