package reader

import "strconv"

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
// Like Lucene, the match is found by always advancing the phrase term whose
// relative position pi-i is the smallest, and with repeated terms by moving
// the lesser of two colliding occurrences on; the tests check that this
// accepts exactly the documents an exhaustive placement accepts.
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
// walking its ascending positions in the document.
type pp struct {
	list  []uint32 // the term's positions in the document
	i     int      // index of the current position in list
	off   int      // the phrase offset
	pos   int      // list[i] - off
	group int      // index into sloppy.groups, or -1 when the term is not repeated
	inQ   bool
}

// next moves to the following position; false when there is none.
func (p *pp) next() bool {
	if p.i+1 >= len(p.list) {
		return false
	}
	p.i++
	p.pos = int(p.list[p.i]) - p.off
	return true
}

// sloppy is the reusable state of the sloppy matcher of one query.
type sloppy struct {
	pps    []pp
	groups [][]int // phrase offsets of each repeated term, ascending
	end    int     // the largest pos so far
}

// setup prepares the phrase positions for slotOf (phrase offset -> slot) and
// groups the offsets that share a slot.
func (m *sloppy) setup(slotOf []int) {
	m.pps = m.pps[:0]
	m.groups = m.groups[:0]
	for i := range slotOf {
		m.pps = append(m.pps, pp{off: i, group: -1})
	}
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
			for _, k := range g {
				m.pps[k].group = len(m.groups)
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
		if j != k && m.pps[j].list[m.pps[j].i] == p.list[p.i] {
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

// match reports whether the phrase matches a document whose slot positions
// are lists (lists[slotOf[i]] for phrase offset i), within slop.
func (m *sloppy) match(lists [][]uint32, slotOf []int, slop int) bool {
	m.end = minInt
	for i := range m.pps {
		p := &m.pps[i]
		p.list, p.i = lists[slotOf[i]], 0
		if len(p.list) == 0 {
			return false
		}
		p.pos = int(p.list[0]) - p.off
	}
	// A repeated term starts with its k-th phrase occurrence (by offset) on its
	// k-th position, so no two share one.
	for _, g := range m.groups {
		for k, j := range g {
			for range k {
				if !m.pps[j].next() {
					return false
				}
			}
		}
	}
	for i := range m.pps {
		m.pps[i].inQ = true
		m.end = max(m.end, m.pps[i].pos)
	}
	k := m.top()
	m.pps[k].inQ = false
	length := m.end - m.pps[k].pos
	next := m.pps[m.top()].pos
	for m.advance(k) {
		if !m.resolve(k) {
			break
		}
		if m.pps[k].pos > next {
			m.pps[k].inQ = true
			if length <= slop {
				return true
			}
			k = m.top()
			m.pps[k].inQ = false
			next = m.pps[m.top()].pos
			length = m.end - m.pps[k].pos
		} else {
			length = min(length, m.end-m.pps[k].pos)
		}
	}
	return length <= slop
}

const minInt = -int(^uint(0)>>1) - 1
