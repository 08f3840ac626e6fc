package writer_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit"
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
	if !m.SkipDocsKnown || !slices.Equal(m.SkipDocs, []uint32{1, 2}) {
		t.Errorf("documents that skipped a token: %v (known %v), want [1 2]", m.SkipDocs, m.SkipDocsKnown)
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

// TestSkipDocsSpills: the documents that skipped an over-long token are
// the same, and so are the bytes, whether the build spills or not.
func TestSkipDocsSpills(t *testing.T) {
	o := writer.DefaultOptions("text")
	over := strings.Repeat("x", analysis.DefaultMaxTokenBytes+1)
	var docs []writer.Document
	var want []uint32
	for i := range 6000 {
		text := fmt.Sprintf("line %d of the log with word%d and word%d", i, i%977, i%13)
		if i%97 == 5 {
			text += " " + over
			want = append(want, uint32(i))
		}
		docs = append(docs, writer.Doc("text", text))
	}
	dir := t.TempDir()
	path, _ := build(t, dir, "whole.snii", o, docs)
	o.MemoryLimit = 512 << 10
	spilled, st := build(t, dir, "spilled.snii", o, docs)
	if st.Spills < 2 {
		t.Errorf("only %d spills", st.Spills)
	}
	if !bytes.Equal(testkit.ReadFile(t, path), testkit.ReadFile(t, spilled)) {
		t.Errorf("spilled build (%d spills) differs", st.Spills)
	}
	seg, err := reader.Open(spilled, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	if got, known, err := seam.SkipDocs(seg, "text"); err != nil || !known || !slices.Equal(got, want) {
		t.Errorf("documents that skipped a token: %v (known %v, %v), want %v", got, known, err, want)
	}
}
