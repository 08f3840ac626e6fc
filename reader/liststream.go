package reader

// The merged position stream of a list slot (a prefix's or a pattern's
// expansions) in the document being verified: matchStream reads it like a
// single term's, as the smallest current position of the expansions the
// document holds (s.pairs[s.pairStart:s.pairEnd], each cursor seeked to the
// document by matchDoc). Each expansion's cursor moves forward only as far as
// the match needs, so the positions past the match, and those a far-ahead
// want skips, are never read, and nothing is merged or sorted.

// listDone is the head of an expansion past its last position in the
// document (any position fits in 32 bits).
const listDone = 1 << 32

// listStart reads the first position of each expansion the document holds
// into s.heads; false when a cursor fails (see slotErr).
func (s *slot) listStart() bool {
	s.heads = s.heads[:0]
	s.started = true
	for _, pr := range s.pairs[s.pairStart:s.pairEnd] {
		c := &s.terms[uint32(pr)].cur
		h := uint64(listDone)
		if p, ok := c.Pos(); ok {
			h = uint64(p)
		} else if c.Err() != nil {
			return false
		}
		s.heads = append(s.heads, h)
	}
	return true
}

// listMin is the stream's current position: the smallest head.
func (s *slot) listMin() (uint32, bool) {
	m := uint64(listDone)
	for _, h := range s.heads {
		m = min(m, h)
	}
	return uint32(m), m < listDone
}

// listFirst starts the stream and returns its first position.
func (s *slot) listFirst() (uint32, bool) {
	if !s.listStart() {
		return 0, false
	}
	return s.listMin()
}

// listNext moves the stream past its current position: the expansion at it
// reads its next one.
func (s *slot) listNext() (uint32, bool) {
	m, ok := s.listMin()
	if !ok {
		return 0, false
	}
	for i, h := range s.heads {
		if h == uint64(m) {
			c := &s.terms[uint32(s.pairs[s.pairStart+i])].cur
			h = listDone
			if p, ok := c.Next(); ok {
				h = uint64(p)
			} else if c.Err() != nil {
				return 0, false
			}
			s.heads[i] = h
			break
		}
	}
	return s.listMin()
}

// listAtLeast moves the stream to its first position >= w: each expansion
// below w passes its positions below w.
func (s *slot) listAtLeast(w uint32) (uint32, bool) {
	if !s.started && !s.listStart() {
		return 0, false
	}
	m := uint64(listDone)
	for i, h := range s.heads {
		if h < uint64(w) {
			c := &s.terms[uint32(s.pairs[s.pairStart+i])].cur
			h = listDone
			if p, ok := c.NextAtLeast(w); ok {
				h = uint64(p)
			} else if c.Err() != nil {
				return 0, false
			}
			s.heads[i] = h
		}
		m = min(m, h)
	}
	return uint32(m), m < listDone
}

// slotErr wraps the cursor error of the slot's term, or of the first of its
// expansions in the document that failed, if any.
func (x *qctx) slotErr(s *slot) error {
	if !s.isList() {
		return x.termErr(s.terms[0])
	}
	for _, pr := range s.pairs[s.pairStart:s.pairEnd] {
		if err := x.termErr(s.terms[uint32(pr)]); err != nil {
			return err
		}
	}
	return nil
}
