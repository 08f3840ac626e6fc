package reader

// matchMixed matches, in the current document, a phrase of single terms some of
// which repeat ("returncode 0 returncode"). A repeated term's positions are read
// once into a list its phrase positions share; every other term streams from its
// cursor, so a document is decided, like matchStream decides it, as soon as one
// start matches, without reading the rest of its positions. The anchor is the
// phrase position whose term occurs least.
func (x *qctx) matchMixed(p *phrasePlan) (bool, error) {
	for i := range p.slots {
		s := &p.slots[i]
		s.started = false
		if len(s.offs) > 1 {
			buf, err := s.terms[0].cur.AppendPositions(x.slotBuf(i))
			x.setSlotBuf(i, buf)
			if err != nil {
				return false, x.termErr(s.terms[0])
			}
		}
	}
	n := len(p.slotOf)
	idx := x.cur[:0]
	for range n {
		idx = append(idx, 0)
	}
	x.cur = idx
	// A term implied by a once-occurring neighbour (impliedSlots; never a
	// repeated one) is not read.
	var implied uint64
	if p.implies != 0 {
		implied = impliedOf(p)
	}
	a := 0
	if implied == 0 {
		for j := 1; j < n; j++ {
			if p.slots[p.slotOf[j]].tf < p.slots[p.slotOf[a]].tf {
				a = j
			}
		}
	} else {
		a = -1
		for j, si := range p.slotOf {
			if implied>>si&1 == 0 && (a < 0 || p.slots[si].tf < p.slots[p.slotOf[a]].tf) {
				a = j
			}
		}
	}
	aoff := uint32(a)
	want := aoff // the anchor's position is at least its offset
	for {
		pos, ok := x.seekPhrasePos(p, idx, a, want)
		if !ok {
			return false, x.termErr(p.slots[p.slotOf[a]].terms[0])
		}
		start := pos - aoff
		next := start // the smallest start the other positions still allow
		matched := true
		for j := range n {
			if j == a || (implied != 0 && implied>>p.slotOf[j]&1 != 0) {
				continue
			}
			w := start + uint32(j)
			if w < start {
				return false, nil // overflow: no later start fits
			}
			q, ok := x.seekPhrasePos(p, idx, j, w)
			if !ok { // no position at or after w: no later start either
				return false, x.termErr(p.slots[p.slotOf[j]].terms[0])
			}
			if q != w {
				matched = false
				if q >= uint32(j) {
					next = max(next, q-uint32(j))
				}
				break
			}
		}
		if matched {
			return true, nil
		}
		if want = max(next, start+1) + aoff; want < aoff {
			return false, nil // overflow
		}
	}
}

// seekPhrasePos returns the first position >= want of the term at phrase
// position j (false when the document has none): from the shared list of a
// repeated term (idx[j] walks it forward), else from the term's cursor.
func (x *qctx) seekPhrasePos(p *phrasePlan, idx []int, j int, want uint32) (uint32, bool) {
	si := p.slotOf[j]
	s := &p.slots[si]
	if len(s.offs) > 1 {
		l, k := x.posBufs[si], idx[j]
		for k < len(l) && l[k] < want {
			k++
		}
		idx[j] = k
		if k == len(l) {
			return 0, false
		}
		return l[k], true
	}
	ok := s.streamTo(want)
	return s.pos, ok
}
