package merge_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer/merge"
)

// TestMergeStore: a merge keeps the surviving records in order, byte-equal
// to the sources'; sources of which some keep records and some do not are an
// invalid-argument error unless NoStore, which drops them all; sources that
// keep none (format 7 and older) give a segment that keeps none.
func TestMergeStore(t *testing.T) {
	docs := genDocs(12, 900)
	dir := t.TempDir()
	o := genOptions()
	a := build(t, dir, "a.snii", o, docs[:400])
	b := build(t, dir, "b.snii", o, docs[400:])
	no := o
	no.NoStore = true
	c := build(t, dir, "c.snii", no, docs[400:])

	dels := roaring.BitmapOf(0, 7, 8, 399)
	got, _ := doMerge(t, dir, "got.snii", []merge.Source{{Path: a, Deleted: dels}, {Path: b}}, merge.Options{})
	var want [][]byte
	for _, p := range []string{a, b} {
		s := openSeg(t, p)
		for id := uint32(0); id < s.DocCount(); id++ {
			if p == a && dels.Contains(id) {
				continue
			}
			rec, err := s.Record(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, rec)
		}
	}
	gs := openSeg(t, got)
	if st, ok := gs.Store(); !ok || st.Records != uint64(len(want)) {
		t.Fatalf("merged store %+v %v, want %d records", st, ok, len(want))
	}
	for i, w := range want {
		if rec, err := gs.Record(t.Context(), uint32(i)); err != nil || !bytes.Equal(rec, w) {
			t.Fatalf("record %d: %q, %v; want %q", i, rec, err, w)
		}
	}

	if _, err := merge.Merge(context.Background(), filepath.Join(dir, "mixed.snii"), paths(a, c), merge.Options{}); !errors.Is(err, errs.InvalidArgument) {
		t.Errorf("a source with records and one without: %v, want an invalid-argument error", err)
	}
	noStore, _ := doMerge(t, dir, "nostore.snii", paths(a, c), merge.Options{NoStore: true})
	if _, ok := openSeg(t, noStore).Store(); ok {
		t.Error("NoStore merge keeps records")
	}
	old := filepath.Join("..", "..", "testdata", "writer")
	none, _ := doMerge(t, dir, "old.snii", paths(filepath.Join(old, "tiny-v7.snii"), filepath.Join(old, "tiny-v6.snii")), merge.Options{})
	if _, ok := openSeg(t, none).Store(); ok {
		t.Error("a merge of format-7 and format-6 sources keeps records")
	}
}

func openSeg(t *testing.T, path string) *reader.Segment {
	t.Helper()
	s, err := reader.Open(path, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestMergeMixedRecords: a merge of a segment of text records (line input)
// and one of JSON records gives mixed records, the same bytes as building
// both document sets in one go with mixed records; text records of two
// different fields cannot be mixed.
func TestMergeMixedRecords(t *testing.T) {
	docs := genDocs(13, 300, "text")
	for i := range docs[:150] {
		docs[i].Record = []byte(docs[i].Fields[0].Values[0])
	}
	dir := t.TempDir()
	text := genOptions("text")
	text.RecordFormat, text.TextField = snii.RecordText, "text"
	jsonl := genOptions("text")
	a := build(t, dir, "a.snii", text, docs[:150])
	b := build(t, dir, "b.snii", jsonl, docs[150:])
	got, _ := doMerge(t, dir, "got.snii", paths(a, b), merge.Options{})
	mixed := genOptions("text")
	mixed.RecordFormat, mixed.TextField = snii.RecordMixed, "text"
	want := build(t, dir, "want.snii", mixed, docs)
	sameSegment(t, "text + JSON records", got, want)
	if st, ok := openSeg(t, got).Store(); !ok || st.Format != snii.RecordMixed || st.TextField != "text" {
		t.Fatalf("merged store %+v, want mixed records of field text", st)
	}

	other := genOptions("text", "title")
	other.RecordFormat, other.TextField = snii.RecordText, "title"
	c := build(t, dir, "c.snii", other, docs[:150])
	if _, err := merge.Merge(context.Background(), filepath.Join(dir, "bad.snii"), paths(a, c), merge.Options{}); !errors.Is(err, errs.InvalidArgument) {
		t.Errorf("text records of two fields: %v, want an invalid-argument error", err)
	}
}
