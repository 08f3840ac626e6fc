package merge_test

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
	"github.com/snii-go/snii/writer/merge"
)

// withVersion rewrites the format version in a segment's header and tail
// (recomputing their CRCs), as a newer writer that old readers can still
// read (min reader version 1) would have written it.
func withVersion(t *testing.T, src, dst string, header, tail uint16) {
	t.Helper()
	b := testkit.ReadFile(t, src)
	binary.LittleEndian.PutUint16(b[4:], header)
	binary.LittleEndian.PutUint32(b[12:], format.Checksum(b[:12]))
	tb := b[len(b)-format.TailSize:]
	binary.LittleEndian.PutUint16(tb[20:], tail)
	binary.LittleEndian.PutUint32(tb[28:], format.Checksum(tb[:28]))
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMergeBadInput: every check that can fail before anything is written
// does fail before anything is written, with the right error kind and a
// message naming the problem.
func TestMergeBadInput(t *testing.T) {
	src := t.TempDir()
	docs := genDocs(20, 600)
	a := build(t, src, "a.snii", genOptions(), docs[:300])
	b := build(t, src, "b.snii", genOptions(), docs[300:])
	kw := genOptions("text")
	kw.Fields[0].Analyzer = analysis.Whitespace
	c := build(t, src, "c.snii", kw, genDocs(23, 100, "text"))
	p0 := genOptions()
	p0.Policy = budget.FromPercents(0, 8)
	d := build(t, src, "d.snii", p0, docs[:100])
	z4 := genOptions()
	z4.ZstdLevel = 4
	z := build(t, src, "z.snii", z4, docs[:100])
	nn := genOptions()
	for i := range nn.Fields {
		nn.Fields[i].NoNorms = true
	}
	noNorms := build(t, src, "nonorms.snii", nn, docs[:100])
	v2 := filepath.Join(src, "v2.snii")
	withVersion(t, a, v2, 10, 10)
	mixed := filepath.Join(src, "mixed.snii")
	withVersion(t, a, mixed, 10, 9)
	if seg, err := reader.Open(v2, reader.Options{}); err != nil {
		t.Fatalf("a version-10 segment with min reader 9 should open: %v", err)
	} else {
		seg.Close()
	}
	sa, err := reader.Open(a, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sa.Close()

	cases := []struct {
		name string
		srcs []merge.Source
		o    merge.Options
		kind error
		msg  string
	}{
		{"different analyzers", paths(a, c), merge.Options{}, errs.InvalidArgument, `field "text" has analyzer "standard"`},
		{"format version 10", paths(a, v2), merge.Options{}, errs.Version, "format version 10"},
		{"header and tail versions differ", paths(mixed, b), merge.Options{}, errs.Corrupt, "header says 10"},
		{"deleted id out of range", []merge.Source{{Path: a}, {Path: b, Deleted: roaring.BitmapOf(3, 300)}}, merge.Options{}, errs.InvalidArgument, "deleted doc id 300 out of range"},
		{"policies differ", paths(a, d), merge.Options{}, errs.InvalidArgument, "set Options.Policy"},
		{"norms in one source only", paths(a, noNorms), merge.Options{}, errs.InvalidArgument, "stores norms in source 0"},
		{"zstd levels differ", paths(a, z), merge.Options{}, errs.InvalidArgument, "set Options.ZstdLevel"},
		{"same file twice", paths(a, b, filepath.Join(src, ".", "a.snii")), merge.Options{}, errs.InvalidArgument, "same file"},
		{"same segment twice", []merge.Source{{Segment: sa}, {Segment: sa}}, merge.Options{}, errs.InvalidArgument, "same segment"},
		{"no sources", nil, merge.Options{}, errs.InvalidArgument, "no sources"},
		{"empty source", []merge.Source{{}}, merge.Options{}, errs.InvalidArgument, "neither a segment nor a path"},
		{"missing file", paths(a, filepath.Join(src, "nope.snii")), merge.Options{}, os.ErrNotExist, "source 1"},
		{"bad zstd level", paths(a, b), merge.Options{ZstdLevel: 9}, errs.InvalidArgument, "zstd level 9"},
		{"bad policy", paths(a, b), merge.Options{Policy: budget.Policy{Kind: budget.FixedShare}}, errs.InvalidArgument, "share 0%"},
		{"bad memory limit", paths(a, b), merge.Options{MemoryLimit: -1}, errs.InvalidArgument, "memory limit"},
		{"bad temp dir", paths(a, b), merge.Options{TempDir: filepath.Join(src, "nope")}, errs.InvalidArgument, "temp dir"},
	}
	for _, c := range cases {
		dir := t.TempDir()
		_, err := merge.Merge(context.Background(), filepath.Join(dir, "out.snii"), c.srcs, c.o)
		if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v; want %v mentioning %q", c.name, err, c.kind, c.msg)
		}
		checkDir(t, c.name, dir)
	}
	// An explicit value settles a disagreement.
	dir := t.TempDir()
	if _, err := merge.Merge(context.Background(), filepath.Join(dir, "out.snii"), paths(a, d, z), merge.Options{Policy: budget.Policy{Kind: budget.Budget, Percent: 8}, ZstdLevel: merge.DefaultZstdLevel}); err != nil {
		t.Errorf("explicit policy: %v", err)
	}
	// The destination may not be a source.
	if _, err := merge.Merge(context.Background(), a, paths(a, b), merge.Options{}); !errors.Is(err, errs.InvalidArgument) {
		t.Errorf("destination is a source: %v", err)
	}
	if _, err := reader.Open(a, reader.Options{}); err != nil {
		t.Errorf("source damaged: %v", err)
	}
	// A destination directory that does not exist: an error, nothing left in
	// the temp dir.
	tmp := t.TempDir()
	if _, err := merge.Merge(context.Background(), filepath.Join(src, "no", "out.snii"), paths(a, b), merge.Options{TempDir: tmp}); err == nil {
		t.Error("merge into a missing directory succeeded")
	}
	checkDir(t, "missing destination directory", tmp)
}

// failingReader fails every read once the bytes read pass a budget.
type failingReader struct {
	r    io.ReaderAt
	left atomic.Int64
	hit  atomic.Bool
}

var errInjected = errors.New("injected read failure")

func (f *failingReader) ReadAt(p []byte, off int64) (int, error) {
	if f.left.Add(-int64(len(p))) < 0 {
		f.hit.Store(true)
		return 0, errInjected
	}
	return f.r.ReadAt(p, off)
}

// openFailing opens path through a reader that fails after budget bytes
// (negative: never); it returns the segment (nil if the open itself failed)
// and the reader.
func openFailing(t *testing.T, path string, budget int64) (*reader.Segment, *failingReader) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	fr := &failingReader{r: f}
	if budget < 0 {
		budget = 1 << 62
	}
	fr.left.Store(budget)
	seg, err := reader.OpenReaderAt(context.Background(), fr, fi.Size(), reader.Options{})
	if err != nil {
		return nil, fr
	}
	t.Cleanup(func() { seg.Close() })
	return seg, fr
}

// TestMergeReadFailure fails the reads of one source after N bytes, for N
// across the whole merge (the deleted-docs counting pass, the term stream,
// single- and multi-pass merges): every failure is an error wrapping the
// read error, and leaves no output and no temp file.
func TestMergeReadFailure(t *testing.T) {
	src := t.TempDir()
	docs := genDocs(21, 2500)
	o := genOptions()
	a := build(t, src, "a.snii", o, docs[:1000])
	b := build(t, src, "b.snii", o, docs[1000:2000])
	c := build(t, src, "c.snii", o, docs[2000:])
	whole := build(t, src, "whole.snii", o, surviving([][]writer.Document{docs[:1000], docs[1000:2000], docs[2000:]}, []*roaring.Bitmap{nil, roaring.BitmapOf(1, 2, 3, 500, 999), nil}))
	for _, mem := range []int64{0, 1} { // one pass; three sources two at a time
		// Probe: the bytes read from b in a complete merge.
		seg, fr := openFailing(t, b, -1)
		opened := int64(1<<62) - fr.left.Load()
		dir, tmp := t.TempDir(), t.TempDir()
		srcs := []merge.Source{{Path: a}, {Segment: seg, Deleted: roaring.BitmapOf(1, 2, 3, 500, 999)}, {Path: c}}
		out := filepath.Join(dir, "out.snii")
		if _, err := merge.Merge(context.Background(), out, srcs, merge.Options{MemoryLimit: mem, TempDir: tmp}); err != nil {
			t.Fatal(err)
		}
		sameSegment(t, "probe merge", out, whole)
		total := int64(1<<62) - fr.left.Load()
		if err := os.Remove(out); err != nil {
			t.Fatal(err)
		}
		if total-opened < 1000 {
			t.Fatalf("the merge read only %d bytes of source b", total-opened)
		}
		fails := 0
		for i := int64(0); i <= 40; i++ {
			n := opened + (total-opened)*i/41
			seg, fr := openFailing(t, b, n)
			if seg == nil {
				continue
			}
			srcs[1].Segment = seg
			_, err := merge.Merge(context.Background(), out, srcs, merge.Options{MemoryLimit: mem, TempDir: tmp})
			if !fr.hit.Load() {
				t.Errorf("memory %d, fail after %d of %d bytes: the failure did not fire (err %v)", mem, n, total, err)
				continue
			}
			fails++
			if !errors.Is(err, errInjected) {
				t.Errorf("memory %d, fail after %d of %d bytes: %v", mem, n, total, err)
			}
			checkDir(t, "read failure", dir)
			checkDir(t, "read failure (temp dir)", tmp)
		}
		if fails < 30 {
			t.Errorf("memory %d: only %d injected failures", mem, fails)
		}
	}
}

// TestMergeCancel: a cancelled context stops the merge with its error,
// leaving nothing behind.
func TestMergeCancel(t *testing.T) {
	src := t.TempDir()
	docs := genDocs(22, 2000)
	a := build(t, src, "a.snii", genOptions(), docs[:1000])
	b := build(t, src, "b.snii", genOptions(), docs[1000:])
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, del := range []*roaring.Bitmap{nil, roaring.BitmapOf(5)} { // stopped in the term stream; in the deleted-docs pass
		dir, tmp := t.TempDir(), t.TempDir()
		srcs := paths(a, b)
		srcs[0].Deleted = del
		if _, err := merge.Merge(ctx, filepath.Join(dir, "out.snii"), srcs, merge.Options{TempDir: tmp}); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled merge: %v", err)
		}
		checkDir(t, "cancelled merge", dir)
		checkDir(t, "cancelled merge (temp dir)", tmp)
	}
}

// TestMergeUpgradesOlderFormat: a source of an older format this reader reads
// (here a segment relabelled format 6, min reader 6) merges into a segment of
// the format this writer writes, the same bytes as the merge of the source
// as it was written.
func TestMergeUpgradesOlderFormat(t *testing.T) {
	src := t.TempDir()
	docs := genDocs(31, 400)
	a := build(t, src, "a.snii", genOptions(), docs[:200])
	b := build(t, src, "b.snii", genOptions(), docs[200:])
	old := filepath.Join(src, "old.snii")
	raw := testkit.ReadFile(t, a)
	testkit.SetVersions(raw, 6, 6)
	if err := os.WriteFile(old, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	want, got := filepath.Join(dir, "want.snii"), filepath.Join(dir, "got.snii")
	if _, err := merge.Merge(context.Background(), want, paths(a, b), merge.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := merge.Merge(context.Background(), got, paths(old, b), merge.Options{}); err != nil {
		t.Fatalf("merging a format-6 source: %v", err)
	}
	if g, w := testkit.ReadFile(t, got), testkit.ReadFile(t, want); string(g) != string(w) {
		t.Fatalf("the merge of a format-6 source differs from the merge of the source as written (%d and %d bytes)", len(g), len(w))
	}
	seg, err := reader.Open(got, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	if v, err := seg.Version(); err != nil || v.Format != format.FormatVersion || v.MinReader != format.MinReaderVersion {
		t.Fatalf("merged segment version %+v (%v), want %d/%d", v, err, format.FormatVersion, format.MinReaderVersion)
	}
}
