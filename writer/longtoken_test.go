package writer_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// TestLongTokens: a token up to the analyzer's max_token_bytes (here the
// largest limit) is indexed, a longer one is skipped and counted in the
// writer's stats and in the field metadata.
func TestLongTokens(t *testing.T) {
	o := writer.DefaultOptions("text")
	o.Fields[0].Analyzer = analysis.Spec{MaxTokenBytes: analysis.MaxMaxTokenBytes}.String()
	mid := strings.Repeat("b", 5000)
	top := strings.Repeat("c", analysis.MaxMaxTokenBytes)
	over := strings.Repeat("d", analysis.MaxMaxTokenBytes+1)
	path := filepath.Join(t.TempDir(), "long.snii")
	w, err := writer.Create(context.Background(), path, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"a " + mid, top + " " + over + " a", over} {
		if _, err := w.Add(writer.Doc("text", text)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if st := w.Stats(); st.SkippedTokens != 2 {
		t.Errorf("stats: %d skipped tokens, want 2", st.SkippedTokens)
	}
	seg, err := reader.Open(path, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	m, err := seam.IndexMeta(seg, "text")
	if err != nil {
		t.Fatal(err)
	}
	if m.SkippedTokens != 2 || m.TermCount != 3 {
		t.Errorf("metadata: %d skipped tokens, %d terms; want 2, 3", m.SkippedTokens, m.TermCount)
	}
	for term, want := range map[string]uint32{mid: 0, top: 1} {
		docs, err := seg.Docs(t.Context(), reader.Term("text", term), nil)
		if err != nil || len(docs) != 1 || docs[0] != want {
			t.Errorf("%d-byte term: docs %v, %v; want [%d]", len(term), docs, err, want)
		}
	}
	// The skipped token still takes a position: "a" follows top at position 2.
	docs, err := seg.Docs(t.Context(), reader.Phrase("text", top, "a"), nil)
	if err != nil || len(docs) != 0 {
		t.Errorf("phrase across a skipped token: %v, %v", docs, err)
	}
}
