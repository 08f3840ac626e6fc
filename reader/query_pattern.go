package reader

// The node methods of Regexp, Wildcard and PatternPhrase queries.

func (q *patternQuery) docs(x *qctx, filter docFilter, out []uint32) ([]uint32, error) {
	return x.patternDocs(q, filter, out)
}

func (q *patternQuery) estimate(x *qctx) (uint64, error) { return uint64(x.s.docCount), nil }

func (q *patternQuery) count(x *qctx) (uint64, error) { return x.countDocs(q) }

func (q *patternQuery) stopsAtLimit() bool { return false }

// planTerms plans nothing: a pattern's expansions are read as it runs.
func (q *patternQuery) planTerms(*termWalk, bool) {}

// addStats records nothing: a pattern scores a constant.
func (q *patternQuery) addStats(*qctx, *Stats) error { return nil }

func (q *patternQuery) scorer(t *topRun) (scorer, error) { return t.constScorer(q) }

func (q *patternQuery) withoutMissing(s *Segment) Query {
	if q.check() != nil {
		return q
	}
	return s.noneIfMissing(q, q.field)
}

func (q *patternQuery) interest(h *highlighter) {
	if q.check() == nil {
		in := h.interestIn(q.field)
		in.matches = append(in.matches, q.pat.re.MatchString)
	}
}

// highlight adds the spans of each token the pattern matches (its bound on
// the expansions is not applied).
func (q *patternQuery) highlight(h *highlighter) error {
	if err := q.check(); err != nil {
		return err
	}
	f, err := h.field(q.field)
	if err != nil {
		return err
	}
	h.exact(f, []func(string) bool{q.pat.re.MatchString})
	return nil
}

func (q *patternPhraseQuery) docs(x *qctx, filter docFilter, out []uint32) ([]uint32, error) {
	return x.patternPhraseDocs(q, filter, out)
}

func (q *patternPhraseQuery) estimate(x *qctx) (uint64, error) { return uint64(x.s.docCount), nil }

func (q *patternPhraseQuery) count(x *qctx) (uint64, error) { return x.countDocs(q) }

func (q *patternPhraseQuery) stopsAtLimit() bool { return false }

// planTerms plans nothing: a pattern's expansions are read as it runs.
func (q *patternPhraseQuery) planTerms(*termWalk, bool) {}

// addStats records nothing: a pattern phrase scores a constant.
func (q *patternPhraseQuery) addStats(*qctx, *Stats) error { return nil }

func (q *patternPhraseQuery) scorer(t *topRun) (scorer, error) { return t.constScorer(q) }

func (q *patternPhraseQuery) withoutMissing(s *Segment) Query {
	if q.check() != nil {
		return q
	}
	return s.noneIfMissing(q, q.field)
}

func (q *patternPhraseQuery) interest(h *highlighter) {
	if q.check() == nil {
		in := h.interestIn(q.field)
		for i, t := range q.ph.terms {
			if p := q.ph.pats[i]; p != nil {
				in.matches = append(in.matches, p.re.MatchString)
			} else {
				in.terms[t] = true
			}
		}
	}
}

// highlight adds the spans of the phrase as an exact phrase whose pattern
// positions take every token their pattern matches (the bound on the
// expansions is not applied).
func (q *patternPhraseQuery) highlight(h *highlighter) error {
	if err := q.check(); err != nil {
		return err
	}
	var match []func(string) bool
	for i, t := range q.ph.terms {
		if p := q.ph.pats[i]; p != nil {
			match = append(match, p.re.MatchString)
		} else {
			match = append(match, func(s string) bool { return s == t })
		}
	}
	f, err := h.field(q.field)
	if err != nil {
		return err
	}
	h.exact(f, match)
	return nil
}
