package reader_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// pairOptions builds with the budget policy and the given pair settings.
func pairOptions(p writer.Pairs, fields ...string) writer.Options {
	o := options(-1, fields...)
	o.Pairs = p
	return o
}

// TestOraclePairs runs the oracle query set (phrases within and across the
// values of a multi-valued field, over-long skipped tokens, repeated terms,
// phrase prefixes, bools) on segments with many pairs, with the pairs planned
// and with NoPairs: both must equal the oracle, and the pairs must actually
// have been used.
func TestOraclePairs(t *testing.T) {
	corpora := []struct {
		name string
		opts oracle.GenOptions
		n    int
	}{
		{"mixed", oracle.GenOptions{Docs: 3000}, 120},
		{"dense", oracle.GenOptions{Docs: 6000, Vocab: 300, Zipf: 1.4, MaxValues: 2, MaxTokens: 30}, 40},
	}
	for ci, cc := range corpora {
		if raceEnabled {
			cc.n /= 5
		}
		docs := oracle.Generate(uint64(31+ci), cc.opts)
		c := corpusOf(docs)
		qs := genQueries(c, "text", uint64(300+ci), cc.n)
		for _, p := range []writer.Pairs{{Percent: 100, MinDF: 1}, {Percent: 10, MinDF: 2}, {}} {
			s := open(t, build(t, docs, pairOptions(p, "host", "text")))
			info, err := seam.IndexMeta(s, "text")
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s %+v: %d pairs (%d eligible) in %d bytes, allowance %d, prx %d", cc.name, p, info.PairCount, info.PairsEligible, info.PairsLen, info.PairsAllowance, info.PrxBytes+info.InlineFrameBytes)
			if p.MinDF > 0 && info.PairCount == 0 {
				t.Fatalf("%s %+v: no pairs kept: the test proves nothing", cc.name, p)
			}
			if info.PairsLen > info.PairsAllowance+4 {
				t.Errorf("pairs take %d bytes, allowance %d", info.PairsLen, info.PairsAllowance)
			}
			var used reader.Profile
			for i, q := range qs.qs {
				if _, ok := q.(oracle.Phrase); !ok {
					continue
				}
				var pr reader.Profile
				if _, err := s.Count(bg, rq(q), &reader.SearchOptions{Profile: &pr}); err != nil {
					t.Fatal(err)
				}
				used.Add(&pr)
				if pr.PairPlans > 0 && pr.CandidatesAfter < int64(len(qs.want[i])) {
					t.Fatalf("%s: %d candidates after pairs, %d hits", q, pr.CandidatesAfter, len(qs.want[i]))
				}
			}
			checkQueriesWith(t, s, qs, cc.name+"/pairs", nil)
			checkQueriesWith(t, s, qs, cc.name+"/nopairs", &reader.SearchOptions{NoPairs: true})
			if p.MinDF > 0 && (used.PairPlans == 0 || used.CandidatesAfter >= used.CandidatesBefore) {
				t.Errorf("%s %+v: %d pair plans, candidates %d -> %d", cc.name, p, used.PairPlans, used.CandidatesBefore, used.CandidatesAfter)
			}
			if err := s.Verify(bg); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestPairsTwoTermCount: a two-term phrase whose pair is kept is counted
// from the pair's df: no .prx window, doc window or position is read; its
// docs come from the pair list alone.
func TestPairsTwoTermCount(t *testing.T) {
	var docs []oracle.Doc
	for i := 0; i < 400; i++ {
		v := "peer reset the connection"
		switch i % 10 {
		case 0:
			v = "connection reset by peer"
		case 2:
			v = "reset connection later"
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{v, "connection", "reset"}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 2}, "text")))
	q := reader.Phrase("text", "connection", "reset")
	want := c.Eval(oracle.Phrase{Field: "text", Terms: []string{"connection", "reset"}})
	var pr reader.Profile
	n, err := s.Count(bg, q, &reader.SearchOptions{Profile: &pr})
	if err != nil || n != uint64(len(want)) {
		t.Fatalf("count %d, %v; want %d", n, err, len(want))
	}
	if pr.PairPlans != 1 || pr.WindowsRead != 0 || pr.DocWindowsRead != 0 || pr.PairDocs != 0 || pr.CandidatesAfter != int64(n) {
		t.Errorf("count profile %+v: want one pair plan reading nothing else", pr)
	}
	pr = reader.Profile{}
	got, err := s.Docs(bg, q, &reader.SearchOptions{Profile: &pr})
	if err != nil || len(got) != len(want) {
		t.Fatalf("docs %d, %v; want %d", len(got), err, len(want))
	}
	if pr.WindowsRead != 0 || pr.DocWindowsRead != 0 || pr.PairDocs != int64(len(want)) {
		t.Errorf("docs profile %+v: want the pair list alone", pr)
	}
	// Across values ("connection" ends one value, "reset" starts the next) there is no pair.
	if n, err := s.Count(bg, reader.Phrase("text", "peer", "connection"), nil); err != nil || n != 0 {
		t.Errorf("phrase across values: %d, %v", n, err)
	}
}

// TestPairsChainProof: a phrase whose adjacent pairs are all kept matches a
// candidate whose inner terms each occur once from the pair lists and term
// frequencies alone (Profile.PairProved counts exactly those), and verifies
// positions for the others: a document holding both pairs of "error code red"
// around two different "code"s does not match. Counts and docs equal the
// oracle's, with pairs and without.
func TestPairsChainProof(t *testing.T) {
	var docs []oracle.Doc
	proved := map[string]int{}
	for i := 0; i < 600; i++ {
		var v string
		switch i % 6 {
		case 0: // inner terms once: proved
			v = "x error code red alert y"
			proved["error code red"]++
			proved["error code red alert"]++
			proved["code red alert"]++
		case 1: // both pairs of "error code red", around two codes: no match
			v = "error code z code red"
		case 2: // code twice, and a match: positions decide
			v = "error code red code"
		case 3: // the terms, no pairs
			v = "red code error alert"
		case 4: // a pair across two values is no pair
			v = "error code|red alert"
		default: // "red" twice: proved for "error code red" (inner: code), not for the four-term phrase (inner: code, red)
			v = "red error code red alert"
			proved["error code red"]++
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: strings.Split(v, "|")}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 2}, "text")))
	for _, terms := range [][]string{{"error", "code", "red"}, {"error", "code", "red", "alert"}, {"code", "red", "alert"}} {
		q := reader.Phrase("text", terms...)
		want, pr := checkPhraseDocs(t, s, c, terms)
		name := strings.Join(terms, " ")
		if pr.PairPlans != 1 || pr.PairProved != int64(proved[name]) {
			t.Errorf("%q: %d pair plans, %d proved by pairs; want 1 and %d", terms, pr.PairPlans, pr.PairProved, proved[name])
		}
		n, err := s.Count(bg, q, &reader.SearchOptions{NoPairs: true})
		if err != nil || n != uint64(len(want)) {
			t.Errorf("%q without pairs: %d, %v; want %d", terms, n, err, len(want))
		}
	}
}

// TestPairsCorrupt: damage in the pair section is reported as corruption
// (when the section is opened, by a query reading the damaged entry, or by
// Verify), never as a wrong answer.
func TestPairsCorrupt(t *testing.T) {
	docs := oracle.Generate(41, oracle.GenOptions{Docs: 1500})
	c := corpusOf(docs)
	qs := genQueries(c, "text", 43, 30)
	path := build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 1}, "host", "text"))
	s := open(t, path)
	info, _ := seam.IndexMeta(s, "text")
	s.Close()
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	step := max(int(info.PairsLen)/200, 1)
	for off := info.PairsOff; off < info.PairsOff+info.PairsLen; off += uint64(step) {
		b := append([]byte(nil), orig...)
		b[off] ^= 0x21
		s, err := openBytes(b)
		if err != nil {
			if !errors.Is(err, snii.ErrCorrupt) {
				t.Fatalf("byte %d: open: %v", off, err)
			}
			continue
		}
		for i, q := range qs.qs {
			got, err := s.Docs(bg, rq(q), nil)
			if err != nil {
				if !errors.Is(err, snii.ErrCorrupt) {
					t.Fatalf("byte %d: %s: %v", off, q, err)
				}
				continue
			}
			if len(got) != len(qs.want[i]) {
				t.Fatalf("byte %d: %s: %d docs, want %d, no error", off, q, len(got), len(qs.want[i]))
			}
		}
		if err := s.Verify(bg); !errors.Is(err, snii.ErrCorrupt) {
			t.Fatalf("byte %d: Verify: %v", off, err)
		}
		s.Close()
	}
}

// TestPairsComplement: a pair whose terms mostly stand side by side is kept
// in the complement form (the documents holding both terms, less the listed
// exceptions). A two-term phrase is counted from its df and listed from its
// terms' docs less the exceptions, without a position; a longer phrase whose
// pairs are all complements is a chain over its terms' docs. Answers equal
// the oracle's with the pairs, without them, and within an And filter.
func TestPairsComplement(t *testing.T) {
	var docs []oracle.Doc
	for i := 0; i < 500; i++ {
		v := "alpha beta gamma delta"
		switch i % 5 {
		case 3: // both terms of every pair, none adjacent: exceptions
			v = "beta q alpha r gamma s delta"
		case 4: // alpha beta adjacent; beta gamma not
			v = "alpha beta s gamma delta alpha"
		}
		if i%7 == 0 {
			v += " mark"
		}
		if i%2 == 0 { // a chain of complements without exceptions
			v += " kappa lambda mu"
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{v}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 2}, "text")))
	if err := s.Verify(bg); err != nil {
		t.Fatal(err)
	}
	complements := 0
	for _, terms := range [][]string{{"alpha", "beta"}, {"beta", "gamma"}, {"gamma", "delta"}, {"alpha", "beta", "gamma"}, {"alpha", "beta", "gamma", "delta"}, {"beta", "gamma", "delta"}, {"kappa", "lambda", "mu"}} {
		q := reader.Phrase("text", terms...)
		want, pr := checkPhraseDocs(t, s, c, terms)
		if pr.PairPlans != 1 || pr.SelectedPositions != 0 {
			t.Errorf("%q: profile %+v: want one pair plan and no position read", terms, pr)
		}
		if len(terms) == 2 {
			// The list form decodes the pair's docs, the complement form only
			// its exceptions.
			both := c.Eval(oracle.And{oracle.Term{Field: "text", Term: terms[0]}, oracle.Term{Field: "text", Term: terms[1]}})
			switch exc := len(both) - len(want); pr.PairDocs {
			case int64(exc):
				complements++
			case int64(len(want)):
			default:
				t.Errorf("%q: %d pair docs decoded, want the %d docs or the %d exceptions", terms, pr.PairDocs, len(want), exc)
			}
		}
		if len(terms) > 2 && pr.PairProved != int64(len(want)) {
			t.Errorf("%q: %d proved by the pairs, want every match (%d)", terms, pr.PairProved, len(want))
		}
		pr = reader.Profile{}
		n, err := s.Count(bg, q, &reader.SearchOptions{Profile: &pr})
		if err != nil || n != uint64(len(want)) {
			t.Errorf("%q: count %d, %v; want %d", terms, n, err, len(want))
		}
		if len(terms) == 2 && (pr.DocWindowsRead != 0 || pr.WindowsRead != 0) {
			t.Errorf("%q: count profile %+v: want the pair's df alone", terms, pr)
		}
		if n, err := s.Count(bg, q, &reader.SearchOptions{NoPairs: true}); err != nil || n != uint64(len(want)) {
			t.Errorf("%q without pairs: %d, %v; want %d", terms, n, err, len(want))
		}
		and := reader.And(reader.Term("text", "mark"), q)
		wantAnd := c.Eval(oracle.And{oracle.Term{Field: "text", Term: "mark"}, oracle.Phrase{Field: "text", Terms: terms}})
		gotAnd, err := s.Docs(bg, and, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(wantAnd, gotAnd, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("mark and %q: docs differ from the oracle (-want +got):\n%s", terms, d)
		}
	}
	if complements < 2 {
		t.Errorf("%d two-term phrases answered from a complement-form pair, want 2 (alpha beta, gamma delta)", complements)
	}
}

// TestPairsChainLists: a chain whose list-form pair narrows the candidates
// little runs as a leapfrog over the terms that only lets the list's docs
// match: a document holding all three terms, the inner one once and the
// second pair, but not the first pair, must not be proved by the chain.
func TestPairsChainLists(t *testing.T) {
	var docs []oracle.Doc
	for i := 0; i < 4000; i++ {
		v := "x alpha beta gamma y"
		switch {
		case i >= 1000: // alpha and beta apart: the exceptions outnumber the pair's docs
			v = "beta q alpha"
		case i%10 == 9: // beta gamma side by side, alpha apart: no match
			v = "beta gamma x alpha"
		case i%10 == 8: // the first pair without gamma, just before
			v = "x alpha beta y"
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{v}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 2}, "text")))
	// alpha beta: a list of 900 docs (3100 exceptions), which narrows the
	// 900 docs of gamma little.
	checkListPair(t, s, "alpha", "beta", 900)
	terms := []string{"alpha", "beta", "gamma"}
	want, pr := checkPhraseDocs(t, s, c, terms)
	if pr.PairPlans != 1 || pr.PairProved != int64(len(want)) || pr.SelectedPositions != 0 {
		t.Errorf("%q: profile %+v: want a chain proving all %d matches without a position", terms, pr, len(want))
	}
}

// checkListPair checks that the phrase "a b" on field "text" is answered
// from a list-form pair of n docs.
func checkListPair(t *testing.T, s *reader.Segment, a, b string, n int) {
	t.Helper()
	var pr reader.Profile
	docs, err := s.Docs(bg, reader.Phrase("text", a, b), &reader.SearchOptions{Profile: &pr})
	if err != nil {
		t.Fatal(err)
	}
	if pr.PairPlans != 1 || pr.PairDocs != int64(len(docs)) || len(docs) != n {
		t.Fatalf("%s %s: %d docs, profile %+v: want the %d docs from a list-form pair", a, b, len(docs), pr, n)
	}
}

// checkImpliedPlan checks the phrase of terms on field "text" against the
// oracle: matches matches, planned with the pairs, none proved by a chain, at
// most maxWith positions read, and at least minWithout without the pairs.
func checkImpliedPlan(t *testing.T, s *reader.Segment, c *oracle.Corpus, terms []string, matches int, maxWith, minWithout int64) {
	t.Helper()
	want, pr := checkPhraseDocs(t, s, c, terms)
	if len(want) != matches || pr.PairPlans != 1 || pr.PairProved != 0 {
		t.Fatalf("%q: %d matches, profile %+v: want %d matches, planned with the pairs, none proved by a chain", terms, len(want), pr, matches)
	}
	np := noPairsProfile(t, s, terms)
	if pr.SelectedPositions > maxWith || np.SelectedPositions < minWithout {
		t.Errorf("%q: positions read: %d with the pairs (want at most %d), %d without (want at least %d)",
			terms, pr.SelectedPositions, maxWith, np.SelectedPositions, minWithout)
	}
}

// noPairsProfile counts the phrase of terms on field "text" without the
// pairs and returns its profile.
func noPairsProfile(t *testing.T, s *reader.Segment, terms []string) reader.Profile {
	t.Helper()
	var np reader.Profile
	if _, err := s.Count(bg, reader.Phrase("text", terms...), &reader.SearchOptions{Profile: &np, NoPairs: true}); err != nil {
		t.Fatal(err)
	}
	return np
}

// checkPhraseDocs runs the phrase of terms on field "text" with a profile,
// checks its docs against the oracle's, and returns them and the profile.
func checkPhraseDocs(t *testing.T, s *reader.Segment, c *oracle.Corpus, terms []string) ([]uint32, reader.Profile) {
	t.Helper()
	want := c.Eval(oracle.Phrase{Field: "text", Terms: terms})
	var pr reader.Profile
	got, err := s.Docs(bg, reader.Phrase("text", terms...), &reader.SearchOptions{Profile: &pr})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("%q: docs differ from the oracle (-want +got):\n%s", terms, d)
	}
	return want, pr
}

// TestPairsImpliedSlots: in a phrase whose pairs hold in every candidate, a
// term next to a once-occurring term across such a pair is never read. Every
// document holds "a" and "c" once and "b" 50 times or more, so no chain
// proves it. Matches end with "a b c"; traps hold both pairs ("b c" early,
// "a b" late) but not the phrase; a third kind splits the pairs (their
// exceptions). With the pairs, b's positions are not read; without them, b is
// walked up to each a.
func TestPairsImpliedSlots(t *testing.T) {
	bs := strings.Repeat("b ", 50)
	var docs []oracle.Doc
	for i := 0; i < 3000; i++ {
		v := bs + "a b c"
		switch i % 3 {
		case 1:
			v = "b c " + bs + "a b y"
		case 2:
			if i%6 == 2 {
				v = "a q " + bs + "q c" // both pairs missing: an exception of each
			}
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{v}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 2}, "text")))
	// Per verified document (2500: a match or a trap): a's position and c's;
	// and without the pairs, in every match, b's walk up to a (more than 50; a
	// trap fails at c, checked before b, which occurs more often).
	checkImpliedPlan(t, s, c, []string{"a", "b", "c"}, 1500, 3*2500, 40*1500)
}

// TestPairsImpliedWithoutExceptions: complement-form pairs with no exception
// still plan the phrase when another pair is missing (no chain): they hold in
// every candidate, so a term next to a once-occurring one across them is not
// read. "a b" and "c d" are side by side in every document; "b c" only in the
// 40 matches, under the pairs' minimum df, so it is not kept. In a match, b
// (51 occurrences) is walked up to a without the pairs, never with them.
func TestPairsImpliedWithoutExceptions(t *testing.T) {
	bs := strings.Repeat("b ", 50)
	var docs []oracle.Doc
	for i := 0; i < 3000; i++ {
		v := "c d " + bs + "a b"
		if i%75 == 0 {
			v = bs + "a b c d"
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{v}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 64}, "text")))
	// a's position and c's in every document with the pairs; without them,
	// b's walk too in every match.
	checkImpliedPlan(t, s, c, []string{"a", "b", "c", "d"}, 40, 2*3000, 2*3000+50*40)
}

// TestPairsImpliedRepeatedTerm: in a phrase that repeats a term (matchMixed),
// a term next to a once-occurring one across a pair that holds is not read
// either. "b c" is side by side in every document and b occurs once, so c (51
// occurrences, walked up to b without the pairs) is never read with them.
func TestPairsImpliedRepeatedTerm(t *testing.T) {
	cs := strings.Repeat("c ", 50)
	var docs []oracle.Doc
	for i := 0; i < 2000; i++ {
		v := cs + "a a b c"
		if i%4 == 3 {
			v = cs + "a a q b c" // "a b" missing: an exception of its pair
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{v}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 2}, "text")))
	terms := []string{"a", "a", "b", "c"}
	want, pr := checkPhraseDocs(t, s, c, terms)
	if len(want) != 1500 || pr.PairPlans != 1 {
		t.Fatalf("%q: %d matches, profile %+v: want 1500 matches, planned with the pairs", terms, len(want), pr)
	}
	np := noPairsProfile(t, s, terms)
	// With the pairs, a's two positions and b's one per match; without them,
	// c's walk up to b too.
	m := int64(len(want))
	if pr.SelectedPositions > 3*m || np.SelectedPositions < 50*m {
		t.Errorf("positions read: %d with the pairs (want at most %d), %d without (want at least %d)",
			pr.SelectedPositions, 3*m, np.SelectedPositions, 50*m)
	}
}

// TestPairsImpliedLists: a list-form pair that narrows the candidates little
// still plans a leapfrog phrase whose pairs form no chain: only its docs can
// match, and in them its couple holds, so a term next to a once-occurring one
// across it is not read. Every candidate holds "a" 51 times and "b" and "c"
// once, with "a b" side by side; "b c" is side by side only in the 40
// matches, under the pairs' minimum df. Docs with "b" before "a" and no "c"
// make the pair's exceptions outnumber its docs (the list form). In a match,
// a is walked up to b without the pairs, never with them.
func TestPairsImpliedLists(t *testing.T) {
	as := strings.Repeat("a ", 50)
	var docs []oracle.Doc
	for i := 0; i < 7000; i++ {
		v := "b q a"
		switch {
		case i < 3000 && i%75 == 0:
			v = as + "a b c"
		case i < 3000:
			v = "c " + as + "a b"
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{v}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 64}, "text")))
	checkListPair(t, s, "a", "b", 3000)
	// With the pair, c's position in every candidate (the rarest, read first:
	// at 0, before its offset, it rules out the others) and b's in the
	// matches; without it, a position at least in every candidate and a's
	// walk in every match.
	checkImpliedPlan(t, s, c, []string{"a", "b", "c"}, 40, 3000+40, 3000+50*40)
}

// TestPairsSparseExceptions: a complement-form pair whose exceptions outnumber
// the rarest phrase term's documents many times is not decoded (its few
// candidates are checked from positions); one whose exceptions are about as
// many as the rarest term's documents still drops them. "alpha beta" is side
// by side in 2000 documents and apart in 1000 (its exceptions); zeta is in
// 100 documents, gamma in 1000; "beta zeta" and "beta gamma" stand side by
// side in 40 each, under the pairs' minimum df.
func TestPairsSparseExceptions(t *testing.T) {
	var docs []oracle.Doc
	for i := 0; i < 3000; i++ {
		v := "alpha beta x"
		if i%3 == 2 {
			v = "beta q alpha"
		}
		switch {
		case i%30 == 0 && i < 1200:
			v += " alpha beta zeta"
		case i%30 == 0:
			v += " zeta"
		case i%30 == 2:
			v += " q zeta"
		}
		switch {
		case i%3 == 1 && i < 120:
			v += " alpha beta gamma"
		case i%3 == 1, i%3 == 2 && i < 600:
			v += " x gamma"
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{v}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 64}, "text")))
	var pr reader.Profile
	if n, err := s.Count(bg, reader.Phrase("text", "alpha", "beta"), &reader.SearchOptions{Profile: &pr}); err != nil || n != 2000 || pr.PairPlans != 1 || pr.WindowsRead != 0 {
		t.Fatalf("alpha beta: %d, %v, profile %+v: want 2000 from the pair's df", n, err, pr)
	}
	if _, pr = checkPhraseDocs(t, s, c, []string{"alpha", "beta"}); pr.PairDocs != 1000 {
		t.Fatalf("alpha beta: %d pair docs decoded, want its 1000 exceptions (a complement-form pair)", pr.PairDocs)
	}
	for _, tc := range []struct {
		terms     []string
		matches   int
		pairDocs  int64
		pairPlans int64
	}{
		{[]string{"alpha", "beta", "zeta"}, 40, 0, 0},     // 1000 exceptions, 100 zeta docs
		{[]string{"alpha", "beta", "gamma"}, 40, 1000, 1}, // 1000 exceptions, 1000 gamma docs
	} {
		want, pr := checkPhraseDocs(t, s, c, tc.terms)
		if len(want) != tc.matches || pr.PairDocs != tc.pairDocs || pr.PairPlans != tc.pairPlans {
			t.Errorf("%q: %d matches, %d pair docs decoded, %d pair plans; want %d, %d, %d", tc.terms, len(want), pr.PairDocs, pr.PairPlans, tc.matches, tc.pairDocs, tc.pairPlans)
		}
	}
}
