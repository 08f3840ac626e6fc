package merge_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/internal/testkit/segtest"
	"github.com/snii-go/snii/writer"
	"github.com/snii-go/snii/writer/merge"
)

// TestDamagedSourceMessages merges an intact segment with copies of it that
// have one damaged byte: every failure is a corruption error of that one
// kind, and its message names the damaged file, its index and its term once
// each (the reader's place is not placed again by the merge or the writer).
func TestDamagedSourceMessages(t *testing.T) {
	var docs []writer.Document
	for _, d := range oracle.Generate(41, oracle.GenOptions{Docs: 300, Vocab: 200, MaxValues: 2, MaxTokens: 12}) {
		docs = append(docs, segtest.Document(d))
	}
	dir := t.TempDir()
	good := build(t, dir, "good.snii", writer.DefaultOptions("host", "text"), docs)
	orig, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.snii")
	stride := 7
	if testing.Short() {
		stride = 29
	}
	failed := 0
	for i := 16; i < len(orig); i += stride {
		b := append([]byte(nil), orig...)
		b[i] ^= 0x24
		if err := os.WriteFile(bad, b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := merge.Merge(context.Background(), filepath.Join(dir, "out.snii"), []merge.Source{{Path: good}, {Path: bad}}, merge.Options{})
		if err == nil {
			continue
		}
		failed++
		msg := err.Error()
		switch {
		case !errors.Is(err, errs.Corrupt) || len(errs.Kinds(err)) != 1:
			t.Fatalf("byte %d: %v, want a corruption error and no other kind", i, err)
		case strings.Count(msg, bad) != 1 || strings.Count(msg, errs.Corrupt.Error()) != 1:
			t.Fatalf("byte %d: %v names the file or the kind more than once", i, err)
		case strings.Count(msg, `index "`) > 1 || strings.Count(msg, `term "`) > 1:
			t.Fatalf("byte %d: %v names an index or a term more than once", i, err)
		}
	}
	if failed == 0 {
		t.Fatal("no damaged byte failed the merge")
	}
}
