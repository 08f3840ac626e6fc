package reader

// sloppyScorer scores a sloppy phrase as Lucene 8 does: its documents come
// from the phrase evaluation (the sloppy matcher), its frequency is the sum
// over the document's matches of 1/(1+length), the matches and their lengths
// being those Lucene's sloppy walk enumerates (sloppy.nextMatch), added in
// float32 in that order; its idf is the sum of its terms' (repeats included).
type sloppyScorer struct {
	listIter
	terms []*termScorer // distinct terms
	slot  []int         // phrase offset -> index into terms
	pos   [][]uint32    // positions of each distinct term in the current doc
	peaks []uint64      // shallow's largest frequency of each distinct term
	m     sloppy
	slop  int
	sim   leafSim
	ub    float32
	query string
}

func (t *topRun) sloppyScorer(q *phraseQuery) (scorer, error) {
	pt, err := t.phraseTerms(q)
	if err != nil || pt == nil {
		return nil, err
	}
	ss := &sloppyScorer{terms: pt.terms, slot: pt.slot, slop: q.slop, sim: pt.sim, query: t.label(q)}
	ss.pos = make([][]uint32, len(ss.terms))
	ss.peaks = make([]uint64, len(ss.terms))
	ss.m.setup(ss.slot)
	// Every match but the last advances a phrase offset by one position and
	// weighs at most 1, so the frequency is at most the positions of the
	// phrase offsets' terms.
	ss.ub = ss.sim.bound(float32(pt.sumMaxTF), pt.fs.maxInv)
	return t.phraseDocs(q, pt, ss, &ss.listIter)
}

// docBound bounds the sloppy frequency of the current document from its
// terms' frequencies (no position read): every match but the last follows an
// advance of a phrase offset to its term's next position, and weighs at most
// 1, so the frequency is at most 1 + the sum over the offsets of their
// term's frequency less 1.
func (ss *sloppyScorer) docBound() (float32, error) {
	f := 1
	for _, k := range ss.slot {
		tf, err := termFreq(ss.terms[k], ss.cur)
		if err != nil {
			return 0, err
		}
		f += tf - 1
	}
	return ss.sim.score(float32(f), uint32(ss.cur)), nil
}

func (ss *sloppyScorer) maxScore() float32 { return ss.ub }

// shallow bounds the sloppy phrase over [target, upTo] as docBound bounds a
// document, from its terms' peaks at its next document d (the largest
// frequency of each term's block or window holding d, and the largest of
// their smallest norms: d's norm is at least each), up to the nearest end of
// those blocks, without reading a position.
func (ss *sloppyScorer) shallow(target int64) (int64, float32, error) {
	return ss.boundAt(ss.peek(target))
}

// boundAt is shallow at the phrase's document d (exhausted: none).
func (ss *sloppyScorer) boundAt(d int64) (int64, float32, error) {
	if d == exhausted {
		return exhausted, 0, nil
	}
	upTo, norm := exhausted-1, byte(0)
	for i, ts := range ss.terms {
		u, tf, n, err := ts.peak(d)
		if err != nil {
			return 0, 0, err
		}
		upTo, norm, ss.peaks[i] = min(upTo, u), max(norm, n), uint64(tf)
	}
	f := uint64(1)
	for _, k := range ss.slot {
		f += max(ss.peaks[k], 1) - 1
	}
	if ss.sim.norms == nil {
		norm = 1 // scored as Lucene without norms
	}
	return upTo, min(ss.ub, ss.sim.bound(float32(f), ss.sim.inv[norm])), nil
}

// freq returns the sloppy frequency of the current document.
func (ss *sloppyScorer) freq() (float32, error) {
	if err := termPositions(ss.terms, ss.cur, ss.pos); err != nil {
		return 0, err
	}
	ss.m.bindLists(ss.pos, ss.slot)
	if !ss.m.start() {
		return 0, nil
	}
	return ss.m.freq(ss.slop), nil
}

func (ss *sloppyScorer) score() (float32, error) {
	f, err := ss.freq()
	if err != nil {
		return 0, err
	}
	return ss.sim.score(f, uint32(ss.cur)), nil
}

func (ss *sloppyScorer) explain() (Explanation, error) {
	f, err := ss.freq()
	if err != nil {
		return Explanation{}, err
	}
	return ss.sim.explainF(f, ss.cur, ss.query), nil
}

// termPositions reads the positions of each of a phrase's terms in doc, which
// the phrase matched, into pos.
func termPositions(terms []*termScorer, doc int64, pos [][]uint32) error {
	for k, t := range terms {
		d, err := t.advance(doc)
		if err != nil {
			return err
		}
		if d != doc {
			return t.x.s.corrupt(t.t.name(), "doc %d matches the phrase but does not hold the term", doc)
		}
		if pos[k], err = t.positions(pos[k][:0]); err != nil {
			return err
		}
	}
	return nil
}
