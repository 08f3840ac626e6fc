package reader

// phraseRank is what a ranked search hands the phrase engine for the phrase
// it ranks (qctx.rank): the leapfrog (or verifyPhrase, for a phrase of
// distinct terms verified from a candidate list) asks it, before verifying a candidate (a
// document holding every term, past the pair plan's filters), whether the
// candidate's range can enter the top k by its terms' impacts, and, once the
// terms' frequencies in the candidate are read, whether the candidate can by
// the phrase frequency they allow; it hands it each match with its phrase
// frequency (counted from the engine's own cursors) to score and collect,
// instead of listing the matches.
type phraseRank interface {
	// next returns d when candidate d is worth verifying, else the first
	// doc after it that may be (past the ranges from d on that cannot enter
	// the top k; exhausted: none can).
	next(d uint32) (int64, error)
	// worth reports whether candidate d, where the phrase occurs at most f
	// times, can enter the top k.
	worth(d uint32, f int) bool
	// match scores and collects d, where the phrase occurs f times.
	match(d uint32, f int)
	// bounding reports whether worth can pass a candidate (the top k is
	// collected): before, a candidate's bound need not be read.
	bounding() bool
}

// phraseStream ranks the exact phrase of a Top whose query is that phrase, as
// the phrase engine finds its candidates: once k are collected, a candidate
// whose range's bound (the phrase's terms' impacts, skipTo) cannot beat the
// k-th score is passed with its whole range, and one whose own bound (the
// phrase frequency its terms' frequencies allow, worth) cannot is passed
// unverified; a match is scored from the frequency the engine counted. The
// scorer's own term cursors read only impacts: no doc block, no position.
type phraseStream struct {
	t    *topRun
	s    *phraseScorer
	used bool // the engine called next or match
}

func (p *phraseStream) next(d uint32) (int64, error) {
	p.used = true
	t := p.t
	if len(t.h) < t.k {
		return int64(d), nil
	}
	th := t.threshold() // (documents come in ascending order: a tie cannot enter)
	if p.s.maxScore() <= th {
		return exhausted, nil
	}
	if skip, err := p.s.skipTo(int64(d), th); err != nil || skip != int64(d) {
		if err == nil {
			t.skipped++
			skip, err = p.pass(skip, th)
		}
		return skip, err
	}
	return int64(d), nil
}

func (p *phraseStream) worth(d uint32, f int) bool {
	t := p.t
	if len(t.h) < t.k || p.s.sim.score(float32(f), d) > t.threshold() {
		return true
	}
	t.bounded++
	return false
}

func (p *phraseStream) bounding() bool { return len(p.t.h) >= p.t.k }

func (p *phraseStream) match(d uint32, f int) {
	p.used = true
	p.t.collect(int64(d), p.s.sim.score(float32(f), d))
}

// pass skips range after range from target while they cannot beat th.
func (p *phraseStream) pass(target int64, th float32) (int64, error) {
	for target < exhausted {
		next, err := p.s.skipTo(target, th)
		if err != nil || next == target {
			return next, err
		}
		p.t.skipped++
		target = next
	}
	return exhausted, nil
}

// phraseDocs evaluates the phrase q of scorer s and sets s's documents (li,
// s's list) to its matches; nil when there is none. When q is the exact
// phrase Top ranks (and the phrase engine walks it by leapfrog, or verifies
// its distinct terms from a candidate list), the engine
// streams its candidates and matches to s instead (phraseStream): the top k
// is then collected, and s is returned with no documents left.
func (t *topRun) phraseDocs(q *phraseQuery, pt *phraseTerms, s scorer, li *listIter) (scorer, error) {
	x := t.x
	var ps *phraseStream
	if exact, ok := s.(*phraseScorer); ok && Query(q) == t.root && !t.explaining {
		ps = &phraseStream{t: t, s: exact}
		x.rank = ps
		defer func() { x.rank = nil }()
	}
	docs, _, err := x.phrase(pt.fs.f, q, t.filter, x.buf(), false)
	t.lists = append(t.lists, docs)
	if err != nil {
		return nil, err
	}
	*li = newListIter(docs)
	if len(docs) == 0 && (ps == nil || !ps.used) {
		return nil, nil
	}
	return s, nil
}
