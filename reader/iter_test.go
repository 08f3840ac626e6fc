package reader_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// iterSegment builds a segment whose "text" field has inline, slim and
// windowed terms (a term in every one of 1500 docs, windows of 256) and
// returns its path.
func iterSegment(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "iter.snii")
	w, err := writer.Create(context.Background(), path, writer.DefaultOptions("text", "empty"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1500; i++ {
		// Filler words of varying length spread the positions, so that the
		// mod%7 terms (df about 214) are too large to be inline: slim.
		text := fmt.Sprintf("common %sid%d mod%d mod%d again common", strings.Repeat("f ", (i*7919)%61), i, i%7, i%300)
		if _, err := w.Add(writer.Doc("text", text)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

type iterPosting struct {
	doc uint32
	pos []uint32
}

// TestTermIter: the pull iterator yields the same terms, dfs and postings
// as Terms and Postings, mapped and through a ReaderAt, and may restart a
// term's postings.
func TestTermIter(t *testing.T) {
	path := iterSegment(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	mapped, err := reader.Open(path, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer mapped.Close()
	viaRA, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(data), int64(len(data)), reader.Options{BlockCacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer viaRA.Close()
	m, err := seam.IndexMeta(mapped, "text")
	if err != nil {
		t.Fatal(err)
	}
	if m.InlineTerms == 0 || m.SlimTerms == 0 || m.WindowedTerms == 0 {
		t.Fatalf("classes: %d inline, %d slim, %d windowed", m.InlineTerms, m.SlimTerms, m.WindowedTerms)
	}
	type termDF struct {
		term string
		df   uint64
	}
	var want []termDF
	terms, errf := mapped.Terms(t.Context(), "text", "", 0)
	for term, df := range terms {
		want = append(want, termDF{term, df})
	}
	if err := errf(); err != nil {
		t.Fatal(err)
	}
	for _, seg := range []*reader.Segment{mapped, viaRA} {
		it, err := seg.TermIter(t.Context(), "text")
		if err != nil {
			t.Fatal(err)
		}
		var got []termDF
		for it.Next() {
			term := it.Term()
			if b := it.AppendTerm([]byte("x")); string(b) != "x"+term {
				t.Fatalf("AppendTerm = %q, Term = %q", b, term)
			}
			got = append(got, termDF{term, it.DF()})
			var list []iterPosting
			for pass := 0; pass < 2; pass++ { // a second pass restarts the postings
				p, err := it.Postings()
				if err != nil {
					t.Fatal(err)
				}
				var l []iterPosting
				for p.Next() {
					pos, err := p.Positions()
					if err != nil {
						t.Fatal(err)
					}
					l = append(l, iterPosting{p.Doc(), slices.Clone(pos)})
				}
				if err := p.Err(); err != nil {
					t.Fatalf("term %q: %v", term, err)
				}
				if pass == 1 && !slices.EqualFunc(l, list, func(a, b iterPosting) bool { return a.doc == b.doc && slices.Equal(a.pos, b.pos) }) {
					t.Fatalf("term %q: second pass differs", term)
				}
				list = l
			}
			if uint64(len(list)) != it.DF() {
				t.Fatalf("term %q: %d docs; df %d", term, len(list), it.DF())
			}
			ref, err := seg.Postings(t.Context(), "text", term)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; ref.Next(); i++ {
				pos, _ := ref.Positions()
				if i >= len(list) || list[i].doc != ref.Doc() || !slices.Equal(list[i].pos, pos) {
					t.Fatalf("term %q: posting %d differs from Postings", term, i)
				}
			}
			ref.Close()
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
		it.Close()
		it.Close()
		if !slices.Equal(got, want) {
			t.Errorf("TermIter yields %d terms, Terms %d", len(got), len(want))
		}
	}

	// Advance skips within and across windows; the common term is windowed.
	it, err := mapped.TermIter(t.Context(), "text")
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for it.Next() && it.Term() != "common" {
	}
	p, err := it.Postings()
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []uint32{0, 3, 700, 701, 1499} {
		if !p.Advance(target) || p.Doc() != target {
			t.Fatalf("Advance(%d): at %d", target, p.Doc())
		}
	}
	if p.Advance(1500) {
		t.Error("Advance past the last doc")
	}

	// A field without terms, an unknown field, Postings without a term.
	e, err := mapped.TermIter(t.Context(), "empty")
	if err != nil {
		t.Fatal(err)
	}
	if e.Next() || e.Err() != nil {
		t.Errorf("empty index: a term or %v", e.Err())
	}
	if _, err := e.Postings(); !errors.Is(err, errs.InvalidArgument) {
		t.Errorf("Postings at the end: %v", err)
	}
	e.Close()
	if _, err := mapped.TermIter(t.Context(), "nope"); !errors.Is(err, errs.NotFound) {
		t.Errorf("unknown index: %v", err)
	}
}

// TestTermIterCorrupt: a damaged posting list is an error, never a panic.
func TestTermIterCorrupt(t *testing.T) {
	data, err := os.ReadFile(iterSegment(t))
	if err != nil {
		t.Fatal(err)
	}
	seg, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(data), int64(len(data)), reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := seam.IndexMeta(seg, "text")
	seg.Close()
	for off := m.PostingOff; off < m.PostingOff+m.PostingLen+m.DictLen; off += 97 {
		b := slices.Clone(data)
		b[off] ^= 0x5a
		seg, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(b), int64(len(b)), reader.Options{})
		if err != nil {
			continue
		}
		it, err := seg.TermIter(t.Context(), "text")
		if err != nil {
			t.Fatal(err)
		}
		var ferr error
		for ferr == nil && it.Next() {
			p, err := it.Postings()
			if err != nil {
				ferr = err
				break
			}
			for p.Next() {
				if _, err := p.Positions(); err != nil {
					ferr = err
					break
				}
			}
			if ferr == nil {
				ferr = p.Err()
			}
		}
		if ferr == nil {
			ferr = it.Err()
		}
		if ferr == nil {
			t.Errorf("byte %d flipped: no error", off)
		} else if !errors.Is(ferr, errs.Corrupt) {
			t.Errorf("byte %d flipped: %v (want a corruption error)", off, ferr)
		}
		it.Close()
		seg.Close()
	}
}

// TestVersion: Version reads the header and tail versions.
func TestVersion(t *testing.T) {
	seg, err := reader.Open(iterSegment(t), reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	v, err := seg.Version()
	if err != nil || v.Format != format.FormatVersion || v.MinReader != format.MinReaderVersion {
		t.Errorf("Version: %+v, %v", v, err)
	}
}

// TestIteratorsContext: a done context stops Terms, TermIter and Postings
// with the context's error; a loop broken off early leaves no error.
func TestIteratorsContext(t *testing.T) {
	seg, err := reader.Open(iterSegment(t), reader.Options{BlockCacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	done, cancel := context.WithCancel(t.Context())
	cancel()

	terms, errf := seg.Terms(done, "text", "", 0)
	for range terms {
		t.Fatal("Terms yielded a term after cancel")
	}
	if err := errf(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Terms: %v, want context.Canceled", err)
	}
	terms, errf = seg.Terms(t.Context(), "text", "mod", 0)
	n := 0
	for range terms {
		if n++; n == 3 {
			break
		}
	}
	if err := errf(); err != nil || n != 3 {
		t.Fatalf("broken-off Terms: %d terms, %v", n, err)
	}
	if _, errf := seg.Terms(t.Context(), "nope", "", 0); errf() != nil {
		t.Fatal("error before the loop ran")
	}
	terms, errf = seg.Terms(t.Context(), "nope", "", 0)
	for range terms {
	}
	if err := errf(); !errors.Is(err, errs.NotFound) {
		t.Fatalf("unknown field: %v", err)
	}

	it, err := seg.TermIter(done, "text")
	if err != nil {
		t.Fatal(err)
	}
	if it.Next() || !errors.Is(it.Err(), context.Canceled) {
		t.Fatalf("TermIter after cancel: %v", it.Err())
	}
	it.Close()

	p, err := seg.Postings(done, "text", "common")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100 && p.Next(); i++ {
	}
	if p.Next() || !errors.Is(p.Err(), context.Canceled) {
		t.Fatalf("Postings after cancel: %v", p.Err())
	}
	p.Close()
}
