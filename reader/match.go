package reader

import "github.com/snii-go/snii/internal/errs"

// Match returns the query of raw text in a field, analyzed with the analyzer
// the segment records for that field: a Term for one token, a Phrase of the
// tokens in order for several. In a "standard" field, Match("message",
// "Connection Refused") is Phrase("message", "connection", "refused"), where
// Phrase("message", "Connection", "Refused") would match nothing.
//
// Text without a searchable token ("!!", or only over-long tokens) is an error
// wrapping snii.ErrInvalidArgument rather than a query that matches nothing;
// an unknown field is snii.ErrNotFound and a closed segment snii.ErrClosed.
// The query holds the tokens, so it runs on any segment whose field has the
// same analyzer (the segments of one search).
func (s *Segment) Match(field, text string) (Query, error) {
	terms, err := s.Analyze(field, text)
	if err != nil {
		return nil, err
	}
	switch len(terms) {
	case 0:
		return nil, s.at(place{index: field, window: -1}, errs.Invalidf("text %q has no searchable terms", text))
	case 1:
		return Term(field, terms[0]), nil
	}
	return Phrase(field, terms...), nil
}
