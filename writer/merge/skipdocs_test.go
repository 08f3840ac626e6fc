package merge_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit/segtest"
	"github.com/snii-go/snii/writer"
	"github.com/snii-go/snii/writer/merge"
)

// withOverLong gives every fifth document a token over the default
// max_token_bytes in "text", and every seventh one in "title" when it has
// the field, and returns the documents that got one in "text".
func withOverLong(docs []writer.Document) (text []uint32) {
	long := strings.Repeat("x", 300)
	for i := range docs {
		for k := range docs[i].Fields {
			f := &docs[i].Fields[k]
			if f.Name == "text" && i%5 == 0 || f.Name == "title" && i%7 == 0 {
				f.Values = append(slices.Clone(f.Values), "long "+long+" token")
				if f.Name == "text" {
					text = append(text, uint32(i))
				}
			}
		}
	}
	return text
}

func skipDocs(t *testing.T, path, field string) ([]uint32, bool) {
	t.Helper()
	docs, known, err := seam.SkipDocs(openSeg(t, path), field)
	if err != nil {
		t.Fatal(err)
	}
	return docs, known
}

// TestMergeSkipDocs: the documents that skipped an over-long token are
// carried through a merge as a rebuild records them: renumbered, deleted
// ones dropped (a merge without deletes is byte-equal to the rebuild); a
// format-8 source whose field skipped tokens leaves the merged field's list
// unknown, one whose field skipped none does not.
func TestMergeSkipDocs(t *testing.T) {
	dir := t.TempDir()
	docs := genDocs(38, 700)
	want := withOverLong(docs)
	o := genOptions()
	a := build(t, dir, "a.snii", o, docs[:300])
	b := build(t, dir, "b.snii", o, docs[300:])
	whole := build(t, dir, "whole.snii", o, docs)
	if got, known := skipDocs(t, whole, "text"); !known || !slices.Equal(got, want) {
		t.Fatalf("built: %v (known %v), want %v", got, known, want)
	}
	got, _ := doMerge(t, dir, "ab.snii", paths(a, b), merge.Options{})
	sameSegment(t, "merge of a and b", got, whole)

	dels := roaring.BitmapOf(0, 5, 6, 100, 299)
	merged, _ := doMerge(t, dir, "del.snii", []merge.Source{{Path: a, Deleted: dels}, {Path: b}}, merge.Options{})
	rebuilt := build(t, dir, "rebuilt.snii", o, surviving([][]writer.Document{docs[:300], docs[300:]}, []*roaring.Bitmap{dels}))
	for _, f := range []string{"text", "title", "host"} {
		g, gk := skipDocs(t, merged, f)
		w, wk := skipDocs(t, rebuilt, f)
		if !gk || !wk || !slices.Equal(g, w) {
			t.Errorf("%s after deletes: merged %v (known %v), rebuilt %v (known %v)", f, g, gk, w, wk)
		}
	}
	if g, _ := skipDocs(t, merged, "text"); len(g) != len(want)-3 { // 0, 5 and 100 deleted
		t.Errorf("text after deletes: %d documents, want %d", len(g), len(want)-3)
	}

	old := segtest.Format8(t, a, filepath.Join(dir, "a8.snii"))
	if _, known := skipDocs(t, old, "text"); known {
		t.Fatal("a format-8 field that skipped tokens reports a list")
	}
	unknown, _ := doMerge(t, dir, "old.snii", paths(old, b), merge.Options{})
	if g, known := skipDocs(t, unknown, "text"); known || g != nil {
		t.Errorf("merge of a format-8 source: %v (known %v), want unknown", g, known)
	}
	if _, known := skipDocs(t, unknown, "host"); !known {
		t.Error("merge of a format-8 source: a field that skipped nothing has no list")
	}
}
