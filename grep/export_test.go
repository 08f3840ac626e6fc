package grep

import (
	"context"
	"regexp"

	"github.com/snii-go/snii/reader"
)

// Plan runs plan for the tests of the derivation: the derived query's
// rendering ("" when there is none: every record is read), the candidates
// the derivation gives and the note.
func Plan(seg *reader.Segment, re *regexp.Regexp) (query string, cands []uint32, note string, err error) {
	d, note, err := plan(seg, re)
	if err != nil || d == nil {
		return "", nil, note, err
	}
	var prof reader.Profile
	cands, _, err = d.docs(context.Background(), seg, &prof, new(int))
	return d.q.String(), cands, note, err
}

// Derived returns the query plan derives (nil: none), without the records
// that skipped an over-long token.
func Derived(seg *reader.Segment, re *regexp.Regexp) (reader.Query, error) {
	d, _, err := plan(seg, re)
	if err != nil || d == nil {
		return nil, err
	}
	return d.q, nil
}
