package reader_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/internal/testkit/oracle"
)

// loghubDocs reads ../shared/corpora/loghub/2k/*.log, one document per line
// with the line in "text" and the system name in "system"; skips when absent.
func loghubDocs(t *testing.T) []oracle.Doc {
	var docs []oracle.Doc
	for _, p := range testkit.Loghub2kFiles(t) {
		sys := strings.TrimSuffix(filepath.Base(p), "_2k.log")
		testkit.EachLine(t, []string{p}, func(line []byte) {
			docs = append(docs, oracle.Doc{
				{Name: "system", Values: []string{sys}},
				{Name: "text", Values: []string{string(line)}},
			})
		})
	}
	return docs
}

// TestOracleLoghub compares ≥200 queries of each kind with the oracle on the
// loghub 2k samples (32,000 log lines), on segments built with policy 0 and
// with the budget (40 of each kind under the race detector).
func TestOracleLoghub(t *testing.T) {
	docs := loghubDocs(t)
	c := corpusOf(docs)
	n := 200
	if raceEnabled {
		n = 40
	}
	qs := genQueries(c, "text", 2024, n)
	for _, policy := range []int{0, -1} {
		s := open(t, build(t, docs, options(policy, "system", "text")))
		hits := checkQueries(t, s, qs, "loghub")
		if policy == 0 {
			info, _ := seam.IndexMeta(s, "text")
			t.Logf("loghub/2k: %d docs, %d terms (%d inline, %d slim, %d windowed), frames raw/zstd/pfor %v; queries with hits: %v",
				len(docs), info.TermCount, info.InlineTerms, info.SlimTerms, info.WindowedTerms, info.Outcome.Windows, hits)
		}
		if err := s.Verify(bg); err != nil {
			t.Fatal(err)
		}
	}
}
