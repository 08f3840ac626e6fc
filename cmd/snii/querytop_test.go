package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/snii-go/snii/reader"
)

// TestQueryTop: --top prints the hits reader.Top returns, best first, with
// --explain the breakdown; bad flag combinations are usage errors.
func TestQueryTop(t *testing.T) {
	seg := filepath.Join(t.TempDir(), "app.snii")
	ok(t, "build", "-q", "-o", seg, demoFile("app.log"))
	q := `connection OR "payment failed" OR declined`
	r := ok(t, "query", seg, "--top", "5", "--json", "--explain", q)
	var rep struct {
		Hits []struct {
			Doc     uint32
			Score   float32
			Explain struct {
				Score    float32
				Children []struct{ IDF, Freq float32 } `json:"children"`
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	s, err := reader.Open(seg, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want, err := s.Top(t.Context(), reader.Or(reader.Term("text", "connection"), reader.Phrase("text", "payment", "failed"), reader.Term("text", "declined")), 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Hits) != len(want) || len(want) != 5 {
		t.Fatalf("%d hits, reader.Top gives %d", len(rep.Hits), len(want))
	}
	for i, h := range rep.Hits {
		if h.Doc != want[i].Doc || h.Score != want[i].Score || h.Explain.Score != h.Score || len(h.Explain.Children) == 0 {
			t.Errorf("hit %d: %+v, want %+v", i, h, want[i])
		}
	}
	txt := ok(t, "query", seg, "--top", "2", "--explain", q).stdout
	for _, w := range []string{"#1", "#2", "idf", "field length", "sum of 2 matching clauses"} {
		if !strings.Contains(txt, w) {
			t.Errorf("text output lacks %q:\n%s", w, txt)
		}
	}
	fails(t, 2, "", []string{"query", seg, "--explain", "x"}, "--explain needs --top")
	fails(t, 2, "", []string{"query", seg, "--top", "3", "--count", "x"}, "--top and --count")
	fails(t, 2, "", []string{"query", seg, "--top", "-1", "x"}, "--top -1")
	fails(t, 2, "", []string{"query", seg, "--top", "3", "--b", "2", "x"}, "--b 2")
}
