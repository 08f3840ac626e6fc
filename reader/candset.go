package reader

import (
	"math/bits"
	"slices"
)

// candSet is a bitset of a conjunction's candidates while the expansions of
// a list slot (a prefix's or a pattern's) are collected against them: each
// expansion's decoded doc is a candidate when its bit is set, one probe per
// doc, where a merge would walk the candidates again for every expansion
// (matchWindow). It spans only the words from the first candidate's to the
// last's: bits[i] holds docs (lo+i)*64 to (lo+i)*64+63.
type candSet struct {
	bits []uint64
	rank []int32 // setRanked: the candidates in the words before each
	lo   int     // the word of the first candidate
	on   bool
}

// candSetMin is the fewest candidates worth a set: below it the merge's
// walks of the candidates cost less than setting and clearing their words.
const candSetMin = 256

// set makes c the set of cands (ascending).
func (c *candSet) set(cands []uint32) {
	c.reset()
	if len(cands) == 0 {
		return
	}
	lo, hi := int(cands[0]>>6), int(cands[len(cands)-1]>>6)+1
	if cap(c.bits) < hi-lo {
		c.bits = make([]uint64, hi-lo)
	}
	c.bits = c.bits[:hi-lo]
	b := c.bits
	for _, d := range cands {
		b[int(d>>6)-lo] |= 1 << (d & 63)
	}
	c.lo, c.on = lo, true
}

// has reports whether d is in the set.
func (c *candSet) has(d uint32) bool {
	i := int(d>>6) - c.lo
	return uint(i) < uint(len(c.bits)) && c.bits[i]&(1<<(d&63)) != 0
}

// setRanked is set, with the rank of each word for index.
func (c *candSet) setRanked(cands []uint32) {
	c.set(cands)
	c.rank = slices.Grow(c.rank[:0], len(c.bits))[:len(c.bits)]
	n := int32(0)
	for i, w := range c.bits {
		c.rank[i] = n
		n += int32(bits.OnesCount64(w))
	}
}

// rankPays reports whether a ranked set of cands (ascending) pays for
// mergeTermDocs: its words, each set, cleared and ranked, are at most a few
// per candidate, where galloping costs each expansion doc a search.
func rankPays(cands []uint32) bool {
	return len(cands) > 0 && int(cands[len(cands)-1]>>6-cands[0]>>6) < 4*len(cands)
}

// index returns the index of d among the candidates of setRanked
// (ascending), or -1 when d is not one.
func (c *candSet) index(d uint32) int {
	i := int(d>>6) - c.lo
	if uint(i) >= uint(len(c.bits)) {
		return -1
	}
	w, b := c.bits[i], uint64(1)<<(d&63)
	if w&b == 0 {
		return -1
	}
	return int(c.rank[i]) + bits.OnesCount64(w&(b-1))
}

// reset empties the set.
func (c *candSet) reset() {
	clear(c.bits)
	c.bits, c.rank = c.bits[:0], c.rank[:0]
	c.lo, c.on = 0, false
}

// matchSet appends the docs of a window (or block) that are in the set: the
// docs are walked once, each tested with one probe.
func (x *qctx) matchSet(t *termRef, docs []uint32, wIdx int32, ord0 int) {
	x.count.docsVisited += int64(len(docs))
	for j, d := range docs {
		if x.cset.has(d) {
			t.addDoc(d, wIdx, ord0+j)
		}
	}
}

// collectSlot collects each term of slot s against the candidates in (or
// every doc, all), through a set of the candidates when s is a list of terms
// and they are many.
func (x *qctx) collectSlot(s *slot, in []uint32, all bool) error {
	if len(s.terms) > 1 && !all && len(in) >= candSetMin {
		x.cset.set(in)
		defer x.cset.reset()
	}
	for _, t := range s.terms {
		if err := x.collect(t, in, all); err != nil {
			return err
		}
	}
	return nil
}
