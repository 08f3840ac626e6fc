package reader

import "slices"

// noneQuery matches no document: a term, phrase or prefix of a field the
// segment does not have, when the search skips missing fields
// (SearchOptions.SkipMissingFields, TopOptions.SkipMissingFields). It renders
// as the query it stands for, so a plan or an explanation reads the same in
// every segment.
type noneQuery struct{ q Query }

func (*noneQuery) sealed()          {}
func (q *noneQuery) String() string { return q.q.String() }

// withoutMissing returns q with each leaf on a field the segment lacks
// replaced by a noneQuery (q itself when every field is present). A leaf that
// is invalid whatever the segment (a phrase without terms, a negative bound)
// and a nil query are kept, so that the search reports them.
func (s *Segment) withoutMissing(q Query) Query {
	switch q := q.(type) {
	case *termQuery:
		return s.noneIfMissing(q, q.field)
	case *prefixQuery:
		if q.maxExp < 0 {
			return q
		}
		return s.noneIfMissing(q, q.field)
	case *phraseQuery:
		if q.check() != nil {
			return q
		}
		return s.noneIfMissing(q, q.field)
	case *patternQuery:
		if q.check() != nil {
			return q
		}
		return s.noneIfMissing(q, q.field)
	case *patternPhraseQuery:
		if q.check() != nil {
			return q
		}
		return s.noneIfMissing(q, q.field)
	case *boolQuery:
		var qs []Query
		for i, c := range q.qs {
			if c == nil {
				return q
			}
			if r := s.withoutMissing(c); r != c {
				if qs == nil {
					qs = slices.Clone(q.qs)
				}
				qs[i] = r
			}
		}
		if qs == nil {
			return q
		}
		return &boolQuery{and: q.and, qs: qs}
	case *notQuery:
		if q.include == nil || q.exclude == nil {
			return q
		}
		in, ex := s.withoutMissing(q.include), s.withoutMissing(q.exclude)
		if in == q.include && ex == q.exclude {
			return q
		}
		return &notQuery{include: in, exclude: ex}
	}
	return q
}

func (s *Segment) noneIfMissing(q Query, field string) Query {
	if _, ok := slices.BinarySearch(s.names, field); ok {
		return q
	}
	return &noneQuery{q}
}
