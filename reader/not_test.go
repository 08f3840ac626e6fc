package reader_test

import (
	"fmt"
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// TestNotCostFollowsInclude: excluding a term (or phrase) present in every
// document from a rare term costs work that does not grow with the
// documents: the exclusion only looks at the rare term's documents.
func TestNotCostFollowsInclude(t *testing.T) {
	var prev [2]int64
	for _, n := range []int{4000, 16000} {
		docs := make([]oracle.Doc, n)
		for i := range docs {
			v := fmt.Sprintf("common words here item%d", i)
			if i%400 == 7 && i < 4000 {
				v = "rare " + v
			}
			if i%800 == 7 && i < 4000 {
				v = "gone " + v
			}
			docs[i] = oracle.Doc{{Name: "text", Values: []string{v}}}
		}
		s := open(t, build(t, docs, options(-1, "text")))
		for k, q := range []reader.Query{
			reader.AndNot(reader.Term("text", "rare"), reader.And(reader.Term("text", "common"), reader.Term("text", "gone"))),
			reader.AndNot(reader.Term("text", "rare"), reader.Phrase("text", "gone", "rare", "common")),
		} {
			hits, w := work(t, s, q)
			if hits != 5 {
				t.Fatalf("n=%d: %s: %d hits, want 5", n, q, hits)
			}
			if prev[k] > 0 && w > prev[k]*3/2+50 {
				t.Errorf("%s: work %d at %d docs, %d at a quarter: grows with the excluded set", q, w, n, prev[k])
			}
			prev[k] = w
		}
	}
}
