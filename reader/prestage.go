package reader

// The pre-check of a list phrase's conjunction. A phrase with a list slot (a
// prefix's or a pattern's expansions) collects its slots in ascending cost
// against the candidates the earlier ones left. When the next slot is far
// more common than the candidates (`the` of `the required att*`), most of its
// doc blocks are decoded and each candidate's frequency of it read, for
// candidates the slots collected so far already rule out by their
// positions. preStage verifies those slots at their phrase offsets first, a
// necessary condition of the phrase, and the conjunction goes on from the
// documents that pass.

// preStageFactor: the conjunction pre-checks the slots it has collected
// before collecting a slot whose df is at least this many times the
// candidates.
const preStageFactor = 64

// preStageMin is the fewest candidates worth a pre-check: below it the
// common slot's blocks and frequencies cost less than verifying twice.
const preStageMin = 128

// preStagePays reports whether the conjunction of p pre-checks the slots
// p.order[:k] in cands before collecting slot p.order[k]: at least two are
// collected, the phrase is exact (no slop) with a list slot and every slot at
// one offset, the segment is local (a remote one would spend a round on it),
// and slot p.order[k] is common enough.
func (x *qctx) preStagePays(p *phrasePlan, k int, cands []uint32) bool {
	if k < 2 || p.slop > 0 || len(cands) < preStageMin || len(p.slotOf) != len(p.slots) || x.s.remote() != nil {
		return false
	}
	if p.slots[p.order[k]].cost < preStageFactor*uint64(len(cands)) {
		return false
	}
	for i := range p.slots {
		if p.slots[i].isList() {
			return true
		}
	}
	return false
}

// preStage verifies the phrase of the slots p.order[:k], each at its offset
// in p's phrase, in cands (the docs of slot p.order[k-1], which hold every one
// of them) and returns the candidates where it matches, in a context buffer.
func (x *qctx) preStage(p *phrasePlan, k int, cands []uint32) ([]uint32, error) {
	sub := x.newPlan()
	sub.order = sub.order[:0]
	for _, si := range p.order[:k] {
		s := &p.slots[si]
		t := sub.addSlot()
		t.terms = append(t.terms, s.terms...)
		t.cost = s.cost
		t.offs = t.offs[:0]
		for pos, sj := range p.slotOf {
			if sj == si {
				t.offs = append(t.offs, uint32(pos))
			}
		}
		sub.order = append(sub.order, t.id) // the cost order: the last made cands
	}
	// An exact plan of its own (a pooled plan keeps the last query's slop).
	sub.slop, sub.implies, sub.lazy, sub.impliedValid = 0, 0, false, false
	limit, rank := x.limit, x.rank
	x.limit = 0  // every document that passes, not the first Limit
	x.rank = nil // a pre-check lists its documents: they are not matches to rank
	kept, _, err := x.verifyAt(sub, cands, x.buf(), false)
	x.limit, x.rank = limit, rank
	return kept, err
}
