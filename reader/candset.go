package reader

// candSet is a bitset of a conjunction's candidates while the expansions of
// a list slot (a prefix's or a pattern's) are collected against them: each
// expansion's decoded doc is a candidate when its bit is set, one probe per
// doc, where a merge would walk the candidates again for every expansion
// (matchWindow). Only the words the candidates touch are set and cleared.
type candSet struct {
	bits   []uint64
	lo, hi int // words touched: bits[lo:hi]
	on     bool
}

// candSetMin is the fewest candidates worth a set: below it the merge's
// walks of the candidates cost less than setting and clearing their words.
const candSetMin = 256

// set makes c the set of cands (ascending, below docCount).
func (c *candSet) set(cands []uint32, docCount uint32) {
	c.reset()
	if len(cands) == 0 {
		return
	}
	if words := int(docCount+63) / 64; cap(c.bits) < words {
		c.bits = make([]uint64, words)
	} else {
		c.bits = c.bits[:words]
	}
	b := c.bits
	for _, d := range cands {
		b[d>>6] |= 1 << (d & 63)
	}
	c.lo, c.hi, c.on = int(cands[0]>>6), int(cands[len(cands)-1]>>6)+1, true
}

// has reports whether d is in the set.
func (c *candSet) has(d uint32) bool {
	i := int(d >> 6)
	return i < c.hi && c.bits[i]&(1<<(d&63)) != 0
}

// reset empties the set.
func (c *candSet) reset() {
	if c.on {
		clear(c.bits[c.lo:c.hi])
	}
	c.lo, c.hi, c.on = 0, 0, false
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
		x.cset.set(in, x.s.docCount)
		defer x.cset.reset()
	}
	for _, t := range s.terms {
		if err := x.collect(t, in, all); err != nil {
			return err
		}
	}
	return nil
}
