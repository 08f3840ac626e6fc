package grep_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii/grep"
	"github.com/snii-go/snii/internal/testkit/segtest"
	"github.com/snii-go/snii/reader"
)

// overLongRecords draws records of which some hold a regexp's literal inside
// a token over 10 bytes (skipped by "standard;max_token_bytes=10"), many hold
// its words apart, and a few hold it as words.
func overLongRecords(r *rand.Rand) []string {
	recs := genRecords(r, 400)
	for i := range 120 {
		recs = append(recs, fmt.Sprintf("test results %d: ok", i), fmt.Sprintf("core dumped by %d", i))
	}
	for i := range 30 {
		recs = append(recs, fmt.Sprintf("    def test_case%c(self):", 'a'+i%26),
			fmt.Sprintf("open sympy/core/basic%c.py", 'a'+i%26))
	}
	recs = append(recs,
		"x undef test_inside(1)",                      // def cut at its start by the regexp
		"zzzzzzzzzzzzzzzzdef test_skipped(2)",         // "zzz…def" skipped: only the list finds it
		"q zzzzzzzzzzzzzzzztest_long(3)",              // "zzz…test" skipped
		"path aaaaaaaaaaaaaaaaasympy/core/skipped.py", // "aaa…sympy" skipped
		"see /home/u/sympy/core/ok.py and more",
	)
	r.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	return recs
}

var overLongRegexps = []string{`def test_[a-z_]+\(`, `test_[a-z]+\(`, `sympy/core/[a-z]+\.py`, `(?i)DEF TEST_`, `def test_`, `f test_l`}

// TestOverLongTokens is the oracle property on a field that skipped
// over-long tokens and lists the records that did: Grep selects exactly the
// records the regexp matches (a brute-force scan of every record), a match
// inside a skipped token included, for fixed and generated regexps; the
// list is what finds those (the derived query alone misses them); and the
// candidates are fewer than the derivation without wildcard slots reads.
func TestOverLongTokens(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 9))
	recs := overLongRecords(r)
	s := build(t, recs, "standard;max_token_bytes=10")
	exprs := slices.Clone(overLongRegexps)
	for range 200 {
		exprs = append(exprs, genRegexp(r, recs))
	}
	for i, expr := range exprs {
		re := regexp.MustCompile(expr)
		want := bruteForce(recs, re)
		got := grepIDs(t, s, re)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: Grep = %v, want %v", expr, got, want)
		}
		if i >= len(overLongRegexps) {
			continue
		}
		q, cands, _, err := grep.Plan(s, re)
		if err != nil {
			t.Fatal(err)
		}
		var prof grep.Profile
		if err := grep.Grep(bg, s, re, &grep.Options{Profile: &prof}, func(uint32, []byte) error { return nil }); err != nil {
			t.Fatal(err)
		}
		t.Logf("%-24s %d matched, %d candidates: %s", expr, len(want), len(cands), prof.Query)
		if expr == `f test_l` { // the cut tokens are too short to be slots: nothing to list
			continue
		}
		if !strings.Contains(prof.Query, "records that skipped an over-long token") {
			t.Errorf("%s: the profile's query %q does not search the listed records", expr, prof.Query)
		}
		if expr == `def test_[a-z_]+\(` || expr == `sympy/core/[a-z]+\.py` {
			dq, err := grep.Derived(s, re)
			if err != nil {
				t.Fatal(err)
			}
			qd, err := s.Docs(bg, dq, nil)
			if err != nil {
				t.Fatal(err)
			}
			if missed := len(want) - len(intersect(qd, want)); missed == 0 {
				t.Errorf("%s: the derived query %s alone finds every match: the test does not reach the list", expr, q)
			}
			if !strings.Contains(prof.Query, "among the") {
				t.Errorf("%s: %q: the suffix slot did not run, though most candidates lack the exact phrase", expr, prof.Query)
			}
			if len(cands) >= 120 {
				t.Errorf("%s: %d candidates, not fewer than the 120 records holding its words apart", expr, len(cands))
			}
		}
	}
}

// TestOverLongTokensFormat8: the same segment as a format-8 writer wrote it
// (no list: unknown) is read, and its derivation drops the cut tokens as
// before the list existed: the same records, from more candidates.
func TestOverLongTokensFormat8(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 9))
	recs := overLongRecords(r)
	p9 := buildPath(t, recs, "standard;max_token_bytes=10")
	s9, s8 := open(t, p9), open(t, segtest.Format8(t, p9, filepath.Join(t.TempDir(), "v8.snii")))
	for _, expr := range overLongRegexps {
		re := regexp.MustCompile(expr)
		want := bruteForce(recs, re)
		if got := grepIDs(t, s8, re); !slices.Equal(got, want) {
			t.Fatalf("%s on format 8: Grep = %v, want %v", expr, got, want)
		}
		q8, c8, _, err := grep.Plan(s8, re)
		if err != nil {
			t.Fatal(err)
		}
		q9, c9, _, err := grep.Plan(s9, re)
		if err != nil {
			t.Fatal(err)
		}
		if q8 == "" {
			c8 = make([]uint32, s8.DocCount()) // every record is read
		}
		if strings.Contains(q8, "wildcard") || len(c8) < len(c9) {
			t.Errorf("%s: format 8 derives %s (%d candidates), format 9 %s (%d)", expr, q8, len(c8), q9, len(c9))
		}
	}
	q8, _, _, _ := grep.Plan(s8, regexp.MustCompile(`def test_[a-z_]+\(`))
	if q8 != `term(text:"test")` {
		t.Errorf("format 8: %s, want the derivation without slots", q8)
	}
}

func bruteForce(recs []string, re *regexp.Regexp) []uint32 {
	var want []uint32
	for id, rec := range recs {
		if re.MatchString(rec) {
			want = append(want, uint32(id))
		}
	}
	return want
}

func grepIDs(t *testing.T, s *reader.Segment, re *regexp.Regexp) []uint32 {
	t.Helper()
	var got []uint32
	if err := grep.Grep(bg, s, re, &grep.Options{Batch: 16}, func(id uint32, _ []byte) error {
		got = append(got, id)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return got
}

func intersect(a, b []uint32) []uint32 {
	var out []uint32
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); ok {
			out = append(out, x)
		}
	}
	return out
}
