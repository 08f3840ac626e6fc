package writer_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/writer"
)

// dumpSource is a PostingSource over decoded segments: the terms of one
// index of each segment, doc ids shifted by the segment's offset, postings
// of the same term concatenated in segment order — what compaction feeds.
type dumpSource struct {
	terms []string
	parts map[string][]posting
	i     int
	cur   []posting
	j     int
}

func newDumpSource(idx []*fieldDump, offsets []uint32) *dumpSource {
	s := &dumpSource{parts: make(map[string][]posting)}
	for k, d := range idx {
		for _, td := range d.Terms {
			if _, ok := s.parts[td.Term]; !ok {
				s.terms = append(s.terms, td.Term)
			}
			for _, p := range td.Postings {
				s.parts[td.Term] = append(s.parts[td.Term], posting{Doc: p.Doc + offsets[k], Pos: p.Pos})
			}
		}
	}
	slices.Sort(s.terms)
	return s
}

func (s *dumpSource) NextTerm() ([]byte, uint64, bool, error) {
	if s.i == len(s.terms) {
		return nil, 0, false, nil
	}
	term := s.terms[s.i]
	s.i++
	s.cur, s.j = s.parts[term], 0
	return []byte(term), uint64(len(s.cur)), true, nil
}

func (s *dumpSource) NextDoc() (uint32, []uint32, bool, error) {
	if s.j == len(s.cur) {
		return 0, nil, false, nil
	}
	p := s.cur[s.j]
	s.j++
	return p.Doc, p.Pos, true, nil
}

// TestBuildFromSourcesMerge: merging two segments through BuildFromSources
// (doc ids concatenated) gives the same bytes as building their documents in
// one go, and re-feeding one segment reproduces it.
func TestBuildFromSourcesMerge(t *testing.T) {
	docs := genDocs(9, 3000)
	dir := t.TempDir()
	o := genOptions()
	whole, st := build(t, dir, "whole.snii", o, docs)
	cut := 1234
	a, _ := build(t, dir, "a.snii", o, docs[:cut])
	b, _ := build(t, dir, "b.snii", o, docs[cut:])
	segA, segB := dumpFile(t, a), dumpFile(t, b)

	ins := concatInputs(t, o, segA, segB, cut)
	merged := filepath.Join(dir, "merged.snii")
	mst, err := writer.BuildFromSources(t.Context(), merged, o, uint64(len(docs)), ins, segRecords(t, whole))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(testkit.ReadFile(t, merged), testkit.ReadFile(t, whole)) {
		t.Error("merged segment differs from the segment built in one go")
	}
	if mst.Terms != st.Terms || mst.BytesOut != st.BytesOut || mst.Docs != st.Docs {
		t.Errorf("merge stats %+v, build stats %+v", mst, st)
	}

	// The same through MergeSources over one source per segment.
	ins = ins[:0]
	for _, f := range o.Fields {
		da, db := segA.index(t, f.Name), segB.index(t, f.Name)
		ins = append(ins, writer.IndexInput{
			Name:          f.Name,
			DocsWithField: da.Meta.DocsWithField + db.Meta.DocsWithField,
			Postings: writer.MergeSources(newDumpSource([]*fieldDump{da}, []uint32{0}),
				newDumpSource([]*fieldDump{db}, []uint32{uint32(cut)})),
			Norms: concatNorms(da, db),
		})
	}
	merged2 := filepath.Join(dir, "merged2.snii")
	if _, err := writer.BuildFromSources(t.Context(), merged2, o, uint64(len(docs)), ins, segRecords(t, whole)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(testkit.ReadFile(t, merged2), testkit.ReadFile(t, whole)) {
		t.Error("MergeSources: merged segment differs from the segment built in one go")
	}
	// Swapped sources overlap in doc order: an error, nothing written.
	da, db := segA.index(t, "text"), segB.index(t, "text")
	_, err = writer.BuildFromSources(t.Context(), filepath.Join(dir, "bad.snii"), o, uint64(len(docs)), []writer.IndexInput{{
		Name: "text",
		Postings: writer.MergeSources(newDumpSource([]*fieldDump{db}, []uint32{uint32(cut)}),
			newDumpSource([]*fieldDump{da}, []uint32{0})),
	}}, nil)
	if !errors.Is(err, errs.Corrupt) {
		t.Errorf("sources out of order: %v", err)
	}

	// Re-feed one segment (only "text"; the other fields come out empty), with
	// its norms (the blocks' impacts hold them, so the postings depend on them).
	d := dumpFile(t, whole).index(t, "text")
	again := filepath.Join(dir, "again.snii")
	if _, err := writer.BuildFromSources(t.Context(), again, o, uint64(len(docs)), []writer.IndexInput{
		{Name: "text", DocsWithField: d.Meta.DocsWithField, Postings: newDumpSource([]*fieldDump{d}, []uint32{0}), Norms: d.Norms},
	}, nil); err != nil {
		t.Fatal(err)
	}
	seg := dumpFile(t, again)
	if got := seg.index(t, "text"); got.Meta.PostingLen != d.Meta.PostingLen || got.Meta.DictLen != d.Meta.DictLen || got.Meta.Outcome != d.Meta.Outcome {
		t.Error("re-fed text index differs")
	}
	if seg.index(t, "host").Meta.TermCount != 0 {
		t.Error("field without input is not empty")
	}
	if names := testkit.ListDir(t, dir); len(names) != 6 {
		t.Errorf("files: %v", names)
	}
}

// badSource yields what its fields say, to check the emitter's input checks.
type badSource struct {
	terms []string
	dfs   []uint64
	docs  [][]uint32
	i     int
	j     int
}

func (s *badSource) NextTerm() ([]byte, uint64, bool, error) {
	if s.i == len(s.terms) {
		return nil, 0, false, nil
	}
	s.i++
	s.j = 0
	return []byte(s.terms[s.i-1]), s.dfs[s.i-1], true, nil
}

func (s *badSource) NextDoc() (uint32, []uint32, bool, error) {
	d := s.docs[s.i-1]
	if s.j == len(d) {
		return 0, nil, false, nil
	}
	s.j++
	return d[s.j-1], []uint32{0}, true, nil
}

func TestBuildFromSourcesErrors(t *testing.T) {
	dir := t.TempDir()
	o := writer.DefaultOptions("text")
	cases := map[string]*badSource{
		"terms not ascending": {terms: []string{"b", "a"}, dfs: []uint64{1, 1}, docs: [][]uint32{{0}, {1}}},
		"docs not ascending":  {terms: []string{"a"}, dfs: []uint64{2}, docs: [][]uint32{{1, 1}}},
		"df too small":        {terms: []string{"a"}, dfs: []uint64{1}, docs: [][]uint32{{0, 1}}},
		"df too large":        {terms: []string{"a"}, dfs: []uint64{3}, docs: [][]uint32{{0, 1}}},
		"doc out of range":    {terms: []string{"a"}, dfs: []uint64{1}, docs: [][]uint32{{10}}},
		"df zero":             {terms: []string{"a"}, dfs: []uint64{0}, docs: [][]uint32{{}}},
		"windowed short":      {terms: []string{"a"}, dfs: []uint64{600}, docs: [][]uint32{{0, 1, 2}}},
	}
	for name, src := range cases {
		_, err := writer.BuildFromSources(t.Context(), filepath.Join(dir, "x.snii"), o, 10, []writer.IndexInput{{Name: "text", Postings: src}}, nil)
		if !errors.Is(err, errs.InvalidArgument) {
			t.Errorf("%s: %v, want an invalid-argument error", name, err)
		}
	}
	if _, err := writer.BuildFromSources(t.Context(), filepath.Join(dir, "x.snii"), o, 10, []writer.IndexInput{{Name: "nope"}}, nil); !errors.Is(err, errs.InvalidArgument) {
		t.Errorf("unknown field: %v", err)
	}
	if names := testkit.ListDir(t, dir); len(names) != 0 {
		t.Errorf("files left: %v", names)
	}
}

// concatNorms is the norms of fields whose documents are concatenated (nil
// when they store none).
func concatNorms(ds ...*fieldDump) []byte {
	var out []byte
	for _, d := range ds {
		out = append(out, d.Norms...)
	}
	return out
}

// concatInputs is the BuildFromSources input of every field of o that
// concatenates segments a and b (b's docs from cut on).
func concatInputs(t *testing.T, o writer.Options, a, b *segDump, cut int) []writer.IndexInput {
	var ins []writer.IndexInput
	for _, f := range o.Fields {
		da, db := a.index(t, f.Name), b.index(t, f.Name)
		ins = append(ins, writer.IndexInput{
			Name:          f.Name,
			DocsWithField: da.Meta.DocsWithField + db.Meta.DocsWithField,
			Postings:      newDumpSource([]*fieldDump{da, db}, []uint32{0, uint32(cut)}),
			Norms:         concatNorms(da, db),
		})
	}
	return ins
}
