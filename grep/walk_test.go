package grep_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii/grep"
)

// TestWalkOnlyWhenItPays: a phrase's leading suffix slot ("*traceback most
// recent call last") walks the dictionary only when the candidates of the
// phrase without it are mostly records the regexp does not match. Where
// nearly every candidate glues the slot's word to another ("\nTraceback"
// in JSON: the token "ntraceback"), the walk would remove none of them, and
// no dictionary term is visited, though few candidates hold the slot's
// whole word; where most candidates hold the phrase without the word, the
// walk runs and removes them. Grep selects the records the regexp matches
// in both.
func TestWalkOnlyWhenItPays(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 24))
	for _, c := range []struct {
		glued, apart string // records holding the phrase glued to the word, and without the word
		walks        bool
	}{
		{glued: `{"content": "run %d\nTraceback (most recent call last):"}`, apart: "", walks: false},
		{glued: "", apart: "the most recent call last seen %d", walks: true},
	} {
		recs := genRecords(r, 300)
		for i := range 400 {
			if c.glued != "" {
				recs = append(recs, fmt.Sprintf(c.glued, i))
			}
			if c.apart != "" {
				recs = append(recs, fmt.Sprintf(c.apart, i))
			}
		}
		for i := range 20 {
			recs = append(recs, fmt.Sprintf("step %d: Traceback (most recent call last):", i))
		}
		r.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
		s := build(t, recs, "")
		fi, err := s.Info("text")
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(`Traceback \(most recent call last\)`)
		var got []uint32
		var prof grep.Profile
		if err := grep.Grep(bg, s, re, &grep.Options{Profile: &prof}, func(id uint32, _ []byte) error {
			got = append(got, id)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if want := bruteForce(recs, re); !slices.Equal(got, want) {
			t.Fatalf("glued %q: Grep = %v, want %v", c.glued, got, want)
		}
		walked := prof.Search.DictTermsVisited >= int64(fi.Terms)
		t.Logf("walks %v: %d of %d terms visited, %d candidates, %d matched: %s", c.walks, prof.Search.DictTermsVisited, fi.Terms, prof.Candidates, prof.Matched, prof.Query)
		if walked != c.walks || strings.Contains(prof.Query, "among the") != c.walks {
			t.Errorf("glued %q: %d of %d terms visited (%s), want a walk: %v", c.glued, prof.Search.DictTermsVisited, fi.Terms, prof.Query, c.walks)
		}
		if prof.Sampled != 8 { // the candidates without the slot are many: the walk is decided on a sample
			t.Errorf("%d records sampled, want 8", prof.Sampled)
		}
		if c.walks && prof.Candidates > 2*prof.Matched {
			t.Errorf("the walk left %d candidates for %d matches", prof.Candidates, prof.Matched)
		}
	}
}
