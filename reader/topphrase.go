package reader

// phraseRank is what a ranked search hands the phrase engine for the phrase
// it ranks (qctx.rank): the leapfrog asks it, before verifying a candidate (a
// document holding every term, past the pair plan's filters), whether the
// candidate can enter the top k by its bounds, and hands it each match to
// score and collect, instead of listing the matches.
type phraseRank interface {
	// next returns d when candidate d is worth verifying, else the first
	// doc after it that may be (past the ranges from d on that cannot enter
	// the top k; exhausted: none can).
	next(d uint32) (int64, error)
	// match scores and collects d, which the phrase matches.
	match(d uint32) error
}

// streamScorer is a phrase scorer that can score documents handed to it one
// by one, and tell how far from a document none can beat a score.
type streamScorer interface {
	scorer
	docBounder
	// skipTo returns the first doc >= d from which the phrase may score
	// above th by its bounds (d when it may at d; exhausted: never).
	skipTo(d int64, th float32) (int64, error)
	setDoc(d int64)
	// matchScore returns the score of the current document and whether
	// the phrase occurs in it (its frequency is not 0).
	matchScore() (float32, bool, error)
}

// phraseStream ranks the phrase of a Top whose query is that phrase, as the
// phrase engine finds its candidates: once k are collected, a candidate whose
// range's bound (the phrase's terms' impacts, skipTo) cannot beat the k-th
// score is passed with its whole range, and one whose own bound (docBound:
// its terms' frequencies) cannot is passed unverified; a match is scored (its
// frequency counted from its positions) only then.
type phraseStream struct {
	t    *topRun
	s    streamScorer
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
	p.s.setDoc(int64(d))
	b, err := p.s.docBound()
	if err != nil {
		return 0, err
	}
	if b <= th {
		t.bounded++
		return int64(d) + 1, nil
	}
	return int64(d), nil
}

func (p *phraseStream) match(d uint32) error {
	p.used = true
	p.s.setDoc(int64(d))
	s, ok, err := p.s.matchScore()
	if err != nil || !ok {
		return err
	}
	p.t.collect(int64(d), s)
	return nil
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
// s's list) to its matches; nil when there is none. When q is the query Top
// ranks (and the phrase engine walks it by leapfrog), the engine streams its
// candidates and matches to s instead (phraseStream): the top k is then
// collected, and s is returned with no documents left.
func (t *topRun) phraseDocs(q *phraseQuery, pt *phraseTerms, s streamScorer, li *listIter) (scorer, error) {
	x := t.x
	var ps *phraseStream
	if _, exact := s.(*phraseScorer); exact && Query(q) == t.root && !t.explaining {
		ps = &phraseStream{t: t, s: s}
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
