package reader

import (
	"strconv"

	"github.com/snii-go/snii/internal/codec/prx"
)

// SloppyPhrase matches the documents whose field holds terms within slop
// position moves of the phrase, with the semantics of Lucene's sloppy phrase
// query: the phrase's terms are placed at positions p0..pn-1 of the document
// (each occurrence used at most once, so a repeated term needs as many
// distinct occurrences), and the match length max(pi-i) - min(pi-i) must be
// at most slop. Two adjacent terms in reverse order are at distance 2, so
// reordered terms match from slop 2. Slop 0 is the exact Phrase; a negative
// slop is an invalid-argument error at search time. A single term is a Term
// query.
//
// A document is decided by moving forward every phrase term whose relative
// position pi-i is below the greatest minus slop (sloppy.decide); Top scores
// it with the matches Lucene's sloppy matcher enumerates (sloppy.nextMatch).
// The tests check that both accept exactly the documents an exhaustive
// placement accepts, and Top's scores against Lucene's.
func SloppyPhrase(field string, slop int, terms ...string) Query {
	return &phraseQuery{field: field, terms: append([]string(nil), terms...), slop: slop}
}

// sloppySuffix renders the slop of a phrase query ("" for an exact phrase).
func (q *phraseQuery) sloppySuffix() string {
	if q.slop == 0 {
		return ""
	}
	return "~" + strconv.Itoa(q.slop)
}

// pp is one phrase position of a sloppy match: a term at phrase offset off,
// walking its ascending positions in the document, either streamed from the
// term's prx cursor (a term at one offset) or from a list shared by the
// offsets of a repeated term.
type pp struct {
	posSrc
	tp    uint32 // the current position in the document
	off   int    // the phrase offset
	pos   int    // tp - off
	group int    // index into sloppy.groups, or -1 when the term is not repeated
	rank  int    // the offset's rank among its term's offsets (0: not repeated)
	inQ   bool
}

// posSrc is where a phrase offset reads its term's positions in the current
// document: streamed from the term's cursor, or (a repeated term) from the
// list the term's offsets share.
type posSrc struct {
	cur *prx.Cursor // the term's cursor (streaming when sh is nil)
	sh  *posList    // the shared list, or nil
	i   int         // index of the current position in sh
}

// start returns the first position (a repeated term's rank-th: the k-th offset
// of a term starts on its k-th position); false when there is none (or the
// cursor failed).
func (s *posSrc) start(rank int) (uint32, bool) {
	if s.sh == nil {
		return s.cur.Pos()
	}
	s.i = rank
	return s.sh.at(rank)
}

// step returns the following position; false when there is none.
func (s *posSrc) step() (uint32, bool) {
	if s.sh == nil {
		return s.cur.Next()
	}
	s.i++
	return s.sh.at(s.i)
}

// posList holds a term's positions in the current document for several phrase
// offsets: read from the term's cursor only as far as the furthest offset
// needs them (or given whole).
type posList struct {
	pos  []uint32
	src  *prx.Cursor // the term's cursor (nil: pos is the whole list)
	more bool        // src may hold more positions
}

// reset empties the list for the cursor's current document.
func (l *posList) reset(src *prx.Cursor) {
	l.pos, l.src, l.more = l.pos[:0], src, src != nil
}

// at returns position i of the list, reading it from the cursor when needed;
// false past the end (or when the cursor failed).
func (l *posList) at(i int) (uint32, bool) {
	if i < len(l.pos) {
		return l.pos[i], true
	}
	return l.read(i)
}

// read reads the list from the cursor up to position i.
func (l *posList) read(i int) (uint32, bool) {
	for i >= len(l.pos) {
		if !l.more {
			return 0, false
		}
		var tp uint32
		var ok bool
		if len(l.pos) == 0 {
			tp, ok = l.src.Pos()
		} else {
			tp, ok = l.src.Next()
		}
		if !ok {
			l.more = false
			return 0, false
		}
		l.pos = append(l.pos, tp)
	}
	return l.pos[i], true
}

// first moves to the term's first position in the document (a repeated term's
// rank-th); false when it has none (or its cursor failed).
func (p *pp) first() bool {
	tp, ok := p.start(p.rank)
	p.tp, p.pos = tp, int(tp)-p.off
	return ok
}

// next moves to the following position; false when there is none.
func (p *pp) next() bool {
	tp, ok := p.step()
	p.tp, p.pos = tp, int(tp)-p.off
	return ok
}

// walkOff is one phrase offset in decide: it streams from its cursor, or (a
// repeated term) walks the list its term's offsets share.
type walkOff struct {
	posSrc
	rel  int // the current position minus the offset
	rank int // the offset's rank among its term's offsets
	nxt  int // the term's next offset, or -1
}

// sloppy is the reusable state of the sloppy matcher of one query.
type sloppy struct {
	pps    []pp
	groups [][]int   // phrase offsets of each repeated term, ascending
	lists  []posList // per slot (bindLists), or per repeated term's slot
	offs   []walkOff // decide's state of each phrase offset
	end    int       // the largest pos so far
	// length is the match length of the match nextMatch found; positioned is
	// false once the document's positions are exhausted.
	length     int
	positioned bool
}

// setup prepares the phrase positions for slotOf (phrase offset -> slot) and
// groups the offsets that share a slot.
func (m *sloppy) setup(slotOf []int) {
	m.pps = m.pps[:0]
	m.groups = m.groups[:0]
	n := 0
	for i, si := range slotOf {
		m.pps = append(m.pps, pp{off: i, group: -1})
		n = max(n, si+1)
	}
	if cap(m.lists) < n {
		m.lists = make([]posList, n)
	}
	m.lists = m.lists[:n]
	for i, si := range slotOf {
		if m.pps[i].group >= 0 {
			continue
		}
		var g []int
		for j := i + 1; j < len(slotOf); j++ {
			if slotOf[j] == si {
				if g == nil {
					g = []int{i}
				}
				g = append(g, j)
			}
		}
		if g != nil {
			for r, k := range g {
				m.pps[k].group, m.pps[k].rank = len(m.groups), r
			}
			m.groups = append(m.groups, g)
		}
	}
}

// less orders phrase positions as the matcher's queue does: by relative
// position, then by phrase offset.
func less(a, b *pp) bool {
	if a.pos != b.pos {
		return a.pos < b.pos
	}
	return a.off < b.off
}

// top returns the queued phrase position that is least, or -1.
func (m *sloppy) top() int {
	best := -1
	for i := range m.pps {
		if m.pps[i].inQ && (best < 0 || less(&m.pps[i], &m.pps[best])) {
			best = i
		}
	}
	return best
}

// advance moves pp k to its next position and raises end; false when exhausted.
func (m *sloppy) advance(k int) bool {
	p := &m.pps[k]
	if !p.next() {
		return false
	}
	m.end = max(m.end, p.pos)
	return true
}

// collide returns a phrase position of k's group at the same document
// position as k, or -1.
func (m *sloppy) collide(k int) int {
	p := &m.pps[k]
	for _, j := range m.groups[p.group] {
		if j != k && m.pps[j].tp == p.tp {
			return j
		}
	}
	return -1
}

// resolve separates k from the other occurrences of its term after k moved,
// advancing the lesser of each colliding pair; false when one is exhausted.
func (m *sloppy) resolve(k int) bool {
	if m.pps[k].group < 0 {
		return true
	}
	for {
		j := m.collide(k)
		if j < 0 {
			return true
		}
		if less(&m.pps[j], &m.pps[k]) {
			k = j
		}
		if !m.advance(k) {
			return false
		}
	}
}

// place puts every phrase position on its term's first position in the
// document (the k-th offset of a repeated term on its k-th position, so no
// two share one) and sets end; false when a term has too few positions.
func (m *sloppy) place() bool {
	end := minInt
	for i := range m.pps {
		p := &m.pps[i]
		if !p.first() {
			return false
		}
		end = max(end, p.pos)
	}
	m.end = end
	return true
}

// start places the phrase positions (place) and queues them all for
// nextMatch; false when a term has too few positions.
func (m *sloppy) start() bool {
	m.positioned = false
	if !m.place() {
		return false
	}
	for i := range m.pps {
		m.pps[i].inQ = true
	}
	m.positioned = true
	return true
}

// nextMatch finds the document's next match within slop, in the order
// Lucene's sloppy matcher finds them: take the least phrase position out of
// the queue and advance it while it stays below the next least, keeping the
// shortest match length seen; once it passes the next least it is queued
// again, and the length is a match when it is at most slop. m.length is the
// match's length. After start, the first call decides whether the document
// matches at all; further calls enumerate the matches (see freq).
func (m *sloppy) nextMatch(slop int) bool {
	if !m.positioned {
		return false
	}
	k := m.top()
	m.pps[k].inQ = false
	m.length = m.end - m.pps[k].pos
	next := m.pps[m.top()].pos
	for m.advance(k) {
		if !m.resolve(k) {
			break
		}
		if m.pps[k].pos > next {
			m.pps[k].inQ = true
			if m.length <= slop {
				return true
			}
			k = m.top()
			m.pps[k].inQ = false
			next = m.pps[m.top()].pos
			m.length = m.end - m.pps[k].pos
		} else {
			m.length = min(m.length, m.end-m.pps[k].pos)
		}
	}
	m.positioned = false
	return m.length <= slop
}

// weight is the sloppy frequency one match adds: 1/(1+length), in float32
// as Lucene computes it.
func (m *sloppy) weight() float32 { return 1 / (1 + float32(m.length)) }

// freq returns the document's sloppy frequency: the sum of the weights of all
// its matches, in match order (after start).
func (m *sloppy) freq(slop int) float32 {
	var f float32
	for m.nextMatch(slop) {
		f += m.weight()
	}
	return f
}

// bindLists makes every phrase offset i walk lists[slotOf[i]] (tests).
func (m *sloppy) bindLists(lists [][]uint32, slotOf []int) {
	m.arrays()
	for i := range m.pps {
		l := &m.lists[slotOf[i]]
		l.pos, l.src, l.more = lists[slotOf[i]], nil, false
		m.pps[i].cur, m.pps[i].sh = nil, l
		m.offs[i].cur, m.offs[i].sh = nil, l
	}
}

// match reports whether the phrase matches a document whose slot positions
// are lists (lists[slotOf[i]] for phrase offset i), within slop (tests).
func (m *sloppy) match(lists [][]uint32, slotOf []int, slop int) bool {
	m.bindLists(lists, slotOf)
	return m.decide(slop)
}

// bindCursors makes every phrase offset read its term's cursor (once per
// query: the cursors are the terms' own): a term at one offset streams from
// it, the offsets of a repeated term share the slot's list.
func (m *sloppy) bindCursors(p *phrasePlan) {
	m.arrays()
	for i := range m.pps {
		si := p.slotOf[i]
		m.pps[i].cur = &p.slots[si].terms[0].cur
		m.pps[i].sh = nil
		if m.pps[i].group >= 0 {
			m.pps[i].sh = &m.lists[si]
		}
		m.offs[i].cur, m.offs[i].sh = m.pps[i].cur, m.pps[i].sh
	}
}

// arrays sizes decide's per-offset arrays and links the offsets of each
// repeated term.
func (m *sloppy) arrays() {
	n := len(m.pps)
	if cap(m.offs) < n {
		m.offs = make([]walkOff, n)
	}
	m.offs = m.offs[:n]
	for i := range m.pps {
		o := &m.offs[i]
		o.rank, o.nxt = m.pps[i].rank, -1
		if g, r := m.pps[i].group, o.rank; g >= 0 && r+1 < len(m.groups[g]) {
			o.nxt = m.groups[g][r+1]
		}
	}
}

// decide reports whether the document holds a match within slop. Each phrase
// offset i stands at its term's position minus i, a lower bound of where it
// can stand in a match: one standing below the greatest minus slop moves
// forward (no window of length slop holds it, since the offset standing
// greatest has no earlier choice left). The offsets of a repeated term take
// its positions in ascending order (any match can be reordered so; this
// keeps them on distinct occurrences), so moving one pushes the later ones
// past it. Once every offset stands within slop of the greatest, they are a
// match. A term at one offset streams from its cursor, each position read
// at most once; the offsets of a repeated term walk the list they share
// (walkOff). The walk stops at the first match.
func (m *sloppy) decide(slop int) bool {
	offs := m.offs
	hi := minInt
	for i := range offs {
		o := &offs[i]
		tp, ok := o.start(o.rank)
		if !ok {
			return false
		}
		o.rel = int(tp) - i
		hi = max(hi, o.rel)
	}
	for {
		moved := false
		for i := range offs {
			o := &offs[i]
			if o.rel >= hi-slop {
				continue
			}
			r := 0
			for {
				var tp uint32
				var ok bool
				if o.sh == nil { // the common case, without a call to step
					tp, ok = o.cur.Next()
				} else {
					tp, ok = o.step()
				}
				if !ok {
					return false
				}
				if r = int(tp) - i; r >= hi-slop {
					break
				}
			}
			o.rel = r
			if r > hi {
				hi, moved = r, true
			}
			// The later offsets of a repeated term stay on later positions.
			for prev, j := o, o.nxt; j >= 0 && offs[j].i <= prev.i; j = offs[j].nxt {
				q := &offs[j]
				q.i = prev.i + 1
				tp, ok := q.sh.at(q.i)
				if !ok {
					return false
				}
				if q.rel = int(tp) - j; q.rel > hi {
					hi, moved = q.rel, true
				}
				prev = q
			}
		}
		if !moved {
			return true
		}
	}
}

// matchSloppy decides the sloppy phrase in the current document of every
// slot's cursor (the slots' offsets set, bindCursors done), stopping at the
// first match: every term is read only as far as the matcher advances it.
func (x *qctx) matchSloppy(p *phrasePlan) (bool, error) {
	m := &p.sloppy
	x.resetLists(p)
	if m.decide(p.slop) {
		return true, nil
	}
	// A stream that failed ends like an exhausted one (and only a miss can
	// follow a failed read).
	for i := range p.slots {
		if p.slots[i].terms[0].cur.Err() != nil {
			return false, x.slotsErr(p)
		}
	}
	return false, nil
}

// resetLists empties the shared lists of repeated terms for the current
// document.
func (x *qctx) resetLists(p *phrasePlan) {
	m := &p.sloppy
	for _, g := range m.groups {
		j := g[0]
		m.pps[j].sh.reset(m.pps[j].cur)
	}
}

// slotsErr returns the first error of p's slot cursors.
func (x *qctx) slotsErr(p *phrasePlan) error {
	for i := range p.slots {
		if err := x.termErr(p.slots[i].terms[0]); err != nil {
			return err
		}
	}
	return nil
}

const minInt = -int(^uint(0)>>1) - 1
