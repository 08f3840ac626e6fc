package merge_test

import (
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
	"github.com/snii-go/snii/writer/merge"
)

// TestMergeEqualsBuild: merging segments without deletes gives the bytes of
// one build of their documents in order, for two and three sources cut at
// different places, opened by Merge or passed open. The corpus has terms of
// every class: inline (ids, numbers), slim, windowed with df >= 512 and,
// once, df >= 8192 ("level", "ts"), a keyword field and a multi-value field
// present in a third of the docs.
func TestMergeEqualsBuild(t *testing.T) {
	docs := genDocs(1, 9000)
	o := genOptions()
	dir := t.TempDir()
	whole := build(t, dir, "whole.snii", o, docs)
	checkClasses(t, whole, "text")

	for _, cuts := range [][]int{{4000}, {1, 3000, 3001, 8999}} {
		var parts []string
		prev := 0
		for i, c := range append(cuts, len(docs)) {
			parts = append(parts, build(t, dir, "part"+itoa(i)+".snii", o, docs[prev:c]))
			prev = c
		}
		got, st := doMerge(t, dir, "merged.snii", paths(parts...), merge.Options{})
		sameSegment(t, "merge of parts cut at "+itoa(cuts[0]), got, whole)
		if st.Docs != uint64(len(docs)) || st.DocsIn != st.Docs || st.Deleted != 0 || st.Sources != len(parts) || st.Passes != 1 {
			t.Errorf("stats %+v", st)
		}
		if st.Terms == 0 || st.Postings == 0 || st.Positions < st.Postings || st.BytesOut != int64(len(testkit.ReadFile(t, whole))) {
			t.Errorf("stats %+v", st)
		}
	}

	// Open segments (mapped, as a caller would pass them) give the same bytes.
	a := build(t, dir, "a.snii", o, docs[:5000])
	b := build(t, dir, "b.snii", o, docs[5000:])
	sa, err := reader.Open(a, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sa.Close()
	got, _ := doMerge(t, dir, "open.snii", []merge.Source{{Segment: sa}, {Path: b}}, merge.Options{})
	sameSegment(t, "merge of an open segment and a path", got, whole)
	// Merge leaves a caller's segment open.
	if _, err := seam.IndexMeta(sa, "text"); err != nil {
		t.Errorf("source closed by Merge: %v", err)
	}
	checkDir(t, "after merges", dir, "whole.snii", "part0.snii", "part1.snii", "part2.snii", "part3.snii", "part4.snii", "merged.snii", "a.snii", "b.snii", "open.snii")
}

// checkClasses makes sure a test corpus exercises every term class and both
// window sizes.
func checkClasses(t *testing.T, path, field string) {
	t.Helper()
	seg, err := reader.Open(path, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	m, err := seam.IndexMeta(seg, field)
	if err != nil {
		t.Fatal(err)
	}
	if m.InlineTerms == 0 || m.SlimTerms == 0 || m.WindowedTerms == 0 {
		t.Errorf("corpus lacks a term class: %d inline, %d slim, %d windowed", m.InlineTerms, m.SlimTerms, m.WindowedTerms)
	}
	var large bool
	terms, errf := seg.Terms(t.Context(), field, "", 0)
	for _, df := range terms {
		if large = df >= 8192; large {
			break
		}
	}
	if err := errf(); err != nil {
		t.Fatal(err)
	}
	if !large {
		t.Error("corpus has no term with df >= 8192")
	}
	if m.Outcome.Budget.Eligible == 0 {
		t.Error("corpus has no budget-eligible window")
	}
	if m.PairCount == 0 {
		t.Error("corpus keeps no pair: merges would not be checked to recount them")
	}
}

// TestMergeOneReproduces: merging one segment with no deletes and the same
// options reproduces it exactly, for several policies.
func TestMergeOneReproduces(t *testing.T) {
	docs := genDocs(2, 3000)
	dir := t.TempDir()
	for _, pol := range []struct{ minSaving, budgetPercent, zstdLevel int }{{-1, 8, 0}, {0, 8, 0}, {30, 8, 1}, {-1, 25, 4}} {
		o := genOptions()
		o.Policy, o.ZstdLevel = budget.FromPercents(pol.minSaving, pol.budgetPercent), pol.zstdLevel
		src := build(t, dir, "src.snii", o, docs)
		got, _ := doMerge(t, dir, "again.snii", paths(src), merge.Options{})
		sameSegment(t, "merge of one segment", got, src)
	}
	// An empty bitmap deletes nothing.
	src := build(t, dir, "src.snii", genOptions(), docs)
	got, _ := doMerge(t, dir, "again.snii", []merge.Source{{Path: src, Deleted: roaring.New()}}, merge.Options{})
	sameSegment(t, "merge of one segment with an empty delete set", got, src)
}

// TestMergeFieldUnion: sources with different fields merge into the union;
// a field missing from a source has no docs there.
func TestMergeFieldUnion(t *testing.T) {
	dir := t.TempDir()
	da := genDocs(3, 1500, "text", "host")
	db := genDocs(4, 1200, "text", "title")
	dc := genDocs(5, 700, "host")
	a := build(t, dir, "a.snii", genOptions("text", "host"), da)
	b := build(t, dir, "b.snii", genOptions("text", "title"), db)
	c := build(t, dir, "c.snii", genOptions("host"), dc)
	all := append(append(append([]writer.Document{}, da...), db...), dc...)
	whole := build(t, dir, "whole.snii", genOptions(), all)
	got, _ := doMerge(t, dir, "m.snii", paths(a, b, c), merge.Options{})
	sameSegment(t, "merge of sources with different fields", got, whole)
	// An empty segment adds its (empty) fields and no documents.
	empty := build(t, dir, "empty.snii", genOptions("text", "title"), nil)
	want := build(t, dir, "want.snii", genOptions(), da)
	got, st := doMerge(t, dir, "m2.snii", paths(empty, a), merge.Options{})
	sameSegment(t, "merge with an empty segment", got, want)
	if st.Docs != uint64(len(da)) {
		t.Errorf("stats %+v", st)
	}
}

// TestMergePolicyChange: a merge may re-encode with another policy or zstd
// level; the output equals a build with that policy.
func TestMergePolicyChange(t *testing.T) {
	docs := genDocs(6, 4000)
	dir := t.TempDir()
	old := genOptions()
	old.Policy = budget.FromPercents(0, 8)
	a := build(t, dir, "a.snii", old, docs[:2500])
	b := build(t, dir, "b.snii", old, docs[2500:])
	for _, c := range []struct {
		name string
		o    merge.Options
		set  func(*writer.Options)
	}{
		{"budget 8", merge.Options{Policy: budget.Policy{Kind: budget.Budget, Percent: 8}}, func(o *writer.Options) { o.Policy = budget.Policy{} }},
		{"budget 30 level 3", merge.Options{Policy: budget.Policy{Kind: budget.Budget, Percent: 30}, ZstdLevel: 3},
			func(o *writer.Options) { o.Policy, o.ZstdLevel = budget.FromPercents(-1, 30), 3 }},
		{"share 40", merge.Options{Policy: budget.Policy{Kind: budget.FixedShare, Percent: 40}}, func(o *writer.Options) { o.Policy = budget.FromPercents(40, 8) }},
	} {
		wo := old
		c.set(&wo)
		want := build(t, dir, "want.snii", wo, docs)
		got, _ := doMerge(t, dir, "got.snii", paths(a, b), c.o)
		sameSegment(t, "re-encode with "+c.name, got, want)
	}
	// Window limits: lowering them splits windows, as in a build.
	lim := old.Limits
	lim.MaxPositions = 300
	wo := old
	wo.Limits = lim
	want := build(t, dir, "want.snii", wo, docs)
	got, _ := doMerge(t, dir, "got.snii", paths(a, b), merge.Options{Limits: lim})
	sameSegment(t, "re-encode with lower window limits", got, want)
}

// TestMergeDeletes: a merge with deletes equals a build of the surviving
// documents, for random sets, a whole source deleted, empty bitmaps, every
// doc holding some term deleted, and every doc with a field deleted.
func TestMergeDeletes(t *testing.T) {
	docs := genDocs(7, 5000)
	o := genOptions()
	dir := t.TempDir()
	cuts := []int{0, 2000, 3500, len(docs)}
	parts := make([][]writer.Document, 3)
	var segs []string
	for k := range parts {
		parts[k] = docs[cuts[k]:cuts[k+1]]
		segs = append(segs, build(t, dir, "s"+itoa(k)+".snii", o, parts[k]))
	}
	// Every doc of source 1 holding "w1eef" (a common term), and every doc of
	// source 2 with a title.
	holding := roaring.BitmapOf(docsOf(t, segs[1], "text", "w1eef")...)
	if holding.GetCardinality() < 100 {
		t.Fatalf("term w1eef in only %d docs", holding.GetCardinality())
	}
	titled := roaring.New()
	for i, d := range parts[2] {
		for _, f := range d.Fields {
			if f.Name == "title" {
				titled.Add(uint32(i))
			}
		}
	}
	all := roaring.New()
	all.AddRange(0, uint64(len(parts[0])))
	cases := []struct {
		name string
		dels []*roaring.Bitmap
	}{
		{"random 1%", []*roaring.Bitmap{randomDeletes(1, len(parts[0]), 0.01), randomDeletes(2, len(parts[1]), 0.01), randomDeletes(3, len(parts[2]), 0.01)}},
		{"random 40%", []*roaring.Bitmap{randomDeletes(4, len(parts[0]), 0.4), nil, randomDeletes(5, len(parts[2]), 0.4)}},
		{"a few", []*roaring.Bitmap{roaring.BitmapOf(0), roaring.New(), roaring.BitmapOf(uint32(len(parts[2]) - 1))}},
		{"all of source 0", []*roaring.Bitmap{all, randomDeletes(6, len(parts[1]), 0.05), nil}},
		{"every doc holding a term", []*roaring.Bitmap{nil, holding, nil}},
		{"every doc with a title", []*roaring.Bitmap{nil, nil, titled}},
	}
	for _, c := range cases {
		srcs := paths(segs...)
		var n uint64
		for k, d := range c.dels {
			srcs[k].Deleted = d
			if d != nil {
				n += d.GetCardinality()
			}
		}
		want := build(t, dir, "want.snii", o, surviving(parts, c.dels))
		got, st := doMerge(t, dir, "got.snii", srcs, merge.Options{})
		sameSegment(t, c.name, got, want)
		if st.Deleted != n || st.Docs != uint64(len(docs))-n {
			t.Errorf("%s: stats %+v, %d deleted", c.name, st, n)
		}
	}
	// Everything deleted: an empty segment with every field.
	srcs := paths(segs...)
	for k := range srcs {
		bm := roaring.New()
		bm.AddRange(0, uint64(len(parts[k])))
		srcs[k].Deleted = bm
	}
	want := build(t, dir, "want.snii", o, nil)
	got, _ := doMerge(t, dir, "got.snii", srcs, merge.Options{})
	sameSegment(t, "everything deleted", got, want)
}

// TestMergePasses: with a memory limit that allows two sources per pass, a
// merge of many sources runs through intermediate segments and still gives
// the bytes of one build, deletes included; the intermediates are removed.
func TestMergePasses(t *testing.T) {
	docs := genDocs(8, 4000)
	o := genOptions()
	dir, tmp := t.TempDir(), t.TempDir()
	var parts [][]writer.Document
	var segs []string
	for k, lo := 0, 0; lo < len(docs); k++ {
		hi := min(lo+300+k*97, len(docs))
		parts = append(parts, docs[lo:hi])
		segs = append(segs, build(t, dir, "s"+itoa(k)+".snii", o, docs[lo:hi]))
		lo = hi
	}
	want := build(t, dir, "want.snii", o, docs)
	got, st := doMerge(t, dir, "got.snii", paths(segs...), merge.Options{MemoryLimit: 1, TempDir: tmp})
	sameSegment(t, "multi-pass merge", got, want)
	if st.Passes < 3 {
		t.Errorf("%d sources, %d passes", len(segs), st.Passes)
	}
	checkDir(t, "multi-pass merge", tmp)

	srcs := paths(segs...)
	dels := make([]*roaring.Bitmap, len(segs))
	for k := range segs {
		if k%3 != 1 {
			dels[k] = randomDeletes(uint64(k), len(parts[k]), 0.2)
			srcs[k].Deleted = dels[k]
		}
	}
	want = build(t, dir, "want.snii", o, surviving(parts, dels))
	got, _ = doMerge(t, dir, "got.snii", srcs, merge.Options{MemoryLimit: 20 << 20, TempDir: tmp})
	sameSegment(t, "multi-pass merge with deletes", got, want)
	checkDir(t, "multi-pass merge with deletes", tmp)
}

// TestMergeLoghub: the invariants on the loghub 2k samples (32k real lines).
func TestMergeLoghub(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	docs := loghubDocs(t)
	o := writer.DefaultOptions("text")
	dir := t.TempDir()
	whole := build(t, dir, "whole.snii", o, docs)
	cut := len(docs) * 2 / 5
	a := build(t, dir, "a.snii", o, docs[:cut])
	b := build(t, dir, "b.snii", o, docs[cut:])
	got, _ := doMerge(t, dir, "m.snii", paths(a, b), merge.Options{})
	sameSegment(t, "loghub: merge of two parts", got, whole)
	again, _ := doMerge(t, dir, "again.snii", paths(whole), merge.Options{})
	sameSegment(t, "loghub: merge of one segment", again, whole)

	dels := []*roaring.Bitmap{randomDeletes(11, cut, 0.1), randomDeletes(12, len(docs)-cut, 0.02)}
	want := build(t, dir, "want.snii", o, surviving([][]writer.Document{docs[:cut], docs[cut:]}, dels))
	srcs := paths(a, b)
	srcs[0].Deleted, srcs[1].Deleted = dels[0], dels[1]
	got, _ = doMerge(t, dir, "md.snii", srcs, merge.Options{})
	sameSegment(t, "loghub: merge with deletes", got, want)
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
