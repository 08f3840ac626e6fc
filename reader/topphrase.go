package reader

// phraseRank is what a ranked search hands the phrase engine for the phrase
// it ranks (qctx.rank): the leapfrog asks it, before verifying a candidate,
// where verifying is worth going on, and hands it each match to score and
// collect, instead of listing the matches.
type phraseRank interface {
	// from returns the first doc >= d worth verifying: d when the range
	// holding it can enter the top k, else past that range (exhausted: no
	// later doc can enter).
	from(d uint32) (int64, error)
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
}

// phraseStream ranks the phrase of a Top whose query is that phrase, as the
// phrase engine finds its matches: once k are collected, a candidate whose
// range's bound (the phrase's terms' impacts, boundAt) cannot beat the k-th
// score is passed with its whole range, unverified, and a match is scored
// only when its own bound (docBound) can.
type phraseStream struct {
	t    *topRun
	s    streamScorer
	used bool // the engine called from or match
}

func (p *phraseStream) from(d uint32) (int64, error) {
	p.used = true
	t := p.t
	if len(t.h) < t.k {
		return int64(d), nil
	}
	th := t.threshold() // (documents come in ascending order: a tie cannot enter)
	if p.s.maxScore() <= th {
		return exhausted, nil
	}
	target := int64(d)
	for target < exhausted { // skip range after range while they cannot
		next, err := p.s.skipTo(target, th)
		if err != nil || next == target {
			return next, err
		}
		t.skipped++
		target = next
	}
	return exhausted, nil
}

func (p *phraseStream) match(d uint32) error {
	p.used = true
	p.s.setDoc(int64(d))
	return p.t.offer(p.s, p.s, int64(d))
}

// phraseDocs evaluates the phrase q of scorer s and sets s's documents (li,
// s's list) to its matches; nil when there is none. When q is the query Top
// ranks (and the phrase engine walks it by leapfrog), the engine streams its
// candidates and matches to s instead (phraseStream): the top k is then
// collected, and s is returned with no documents left.
func (t *topRun) phraseDocs(q *phraseQuery, pt *phraseTerms, s streamScorer, li *listIter) (scorer, error) {
	x := t.x
	var ps *phraseStream
	if Query(q) == t.root && !t.explaining {
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
