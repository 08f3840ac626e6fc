package search_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/internal/testkit/segtest"
	"github.com/snii-go/snii/objstore"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/search"
	"github.com/snii-go/snii/writer"
)

// split builds one segment per chunk of docs (sizes in order) and returns their bytes.
func split(t *testing.T, docs []oracle.Doc, sizes []int) [][]byte {
	t.Helper()
	var out [][]byte
	for i, n := range sizes {
		p := filepath.Join(t.TempDir(), "seg.snii")
		segtest.BuildOracle(t, p, writer.DefaultOptions("host", "text"), docs[:n])
		docs = docs[n:]
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
		_ = i
	}
	return out
}

func openAll(t *testing.T, files [][]byte, wrap func([]byte) reader.Options) []*reader.Segment {
	t.Helper()
	var segs []*reader.Segment
	for _, b := range files {
		s, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(b), int64(len(b)), wrap(b))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		segs = append(segs, s)
	}
	return segs
}

// TestSearcherOracle: over 6 segments (one of them empty), Count, Docs and
// Bitmap give the global ids the oracle gives for the whole corpus, for every
// kind of query and any parallelism.
func TestSearcherOracle(t *testing.T) {
	docs := oracle.Generate(91, oracle.GenOptions{Docs: 3000})
	c := oracle.New()
	for _, d := range docs {
		c.Add(d)
	}
	sizes := []int{700, 1, 0, 1200, 99, 1000}
	segs := openAll(t, split(t, docs, sizes), func([]byte) reader.Options { return reader.Options{} })
	g := oracle.NewGen(c, "text", 4)
	var qs []oracle.Query
	n, pars := 30, []int{0, 1, 3, 16}
	if raceEnabled {
		n, pars = 8, []int{1, 16}
	}
	for range n {
		for _, q := range []oracle.Query{g.Term(), g.Phrase(), g.PhrasePrefix(), g.Prefix(), g.Bool(), g.Repeated()} {
			qs = append(qs, unlimited(q))
		}
	}
	for _, par := range pars {
		s, err := search.New(segs, search.Options{Parallel: par})
		if err != nil {
			t.Fatal(err)
		}
		if s.DocCount() != uint64(len(docs)) || s.Base(3) != 701 {
			t.Fatalf("doc count %d, base(3) %d", s.DocCount(), s.Base(3))
		}
		hits := 0
		for _, q := range qs {
			want := c.Eval(q)
			var prof reader.Profile
			got, err := s.Docs(t.Context(), segtest.Query(q), &search.SearchOptions{Profile: &prof})
			if err != nil {
				t.Fatal(err)
			}
			w64 := make([]uint64, len(want))
			for i, d := range want {
				w64[i] = uint64(d)
			}
			if !slices.Equal(got, w64) {
				t.Fatalf("parallel %d: %s: got %d docs, want %d", par, q, len(got), len(want))
			}
			n, err := s.Count(t.Context(), segtest.Query(q), nil)
			if err != nil || n != uint64(len(want)) {
				t.Fatalf("%s: count %d, %v, want %d", q, n, err, len(want))
			}
			bm, err := s.Bitmap(t.Context(), segtest.Query(q), nil)
			if err != nil || !slices.Equal(bm.ToArray(), w64) {
				t.Fatalf("%s: bitmap differs (%v)", q, err)
			}
			if len(want) > 0 {
				hits++
				if prof.TotalTime <= 0 && prof.BytesRead == 0 && prof.WindowsRead == 0 && prof.DocWindowsRead == 0 {
					// a hit read something on some segment
					t.Errorf("%s: empty summed profile %+v", q, prof)
				}
			}
		}
		if hits < len(qs)/3 {
			t.Fatalf("only %d of %d queries hit", hits, len(qs))
		}
	}
	s, _ := search.New(segs, search.Options{})
	for _, g := range []uint64{0, 699, 700, 701, 1900, 1901, 2999} {
		i, local, ok := s.Locate(g)
		if !ok || s.Base(i)+uint64(local) != g || uint64(local) >= uint64(segs[i].DocCount()) {
			t.Errorf("Locate(%d) = %d, %d, %v", g, i, local, ok)
		}
	}
	if _, _, ok := s.Locate(3000); ok {
		t.Error("Locate(3000) found a doc")
	}
}

// blockingReader is an objstore.ReaderAt whose context-taking reads, once armed,
// wait for their context to end (a remote store that never answers).
type blockingReader struct {
	*bytes.Reader
	armed   *atomic.Bool
	waiting *atomic.Int64
}

func (b blockingReader) ReadAtContext(ctx context.Context, p []byte, off int64) (objstore.Cost, error) {
	if b.armed.Load() {
		b.waiting.Add(1)
		defer b.waiting.Add(-1)
		<-ctx.Done()
		return objstore.Cost{}, ctx.Err()
	}
	_, err := b.ReadAt(p, off)
	return objstore.Cost{Rounds: 1, Requests: 1, Bytes: int64(len(p))}, err
}

func (b blockingReader) Prefetch(ctx context.Context, rs []objstore.Range) (objstore.Cost, error) {
	return objstore.Cost{}, nil
}

// TestSearcherCancel: cancelling the context stops the work of every segment
// (all of them blocked in a read) and the call returns the context's error
// once they all have returned.
func TestSearcherCancel(t *testing.T) {
	docs := oracle.Generate(92, oracle.GenOptions{Docs: 800})
	files := split(t, docs, []int{200, 200, 200, 200})
	var armed atomic.Bool
	var waiting atomic.Int64
	var segs []*reader.Segment
	for _, b := range files {
		s, err := reader.OpenReaderAt(context.Background(), blockingReader{bytes.NewReader(b), &armed, &waiting}, int64(len(b)), reader.Options{BlockCacheBytes: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		segs = append(segs, s)
	}
	s, err := search.New(segs, search.Options{Parallel: 4})
	if err != nil {
		t.Fatal(err)
	}
	armed.Store(true)
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := s.Docs(ctx, reader.Term("text", "a"), nil)
		done <- err
	}()
	for waiting.Load() < 4 { // every segment is blocked in a read
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("after cancel: %v, want context.Canceled", err)
	}
	if w := waiting.Load(); w != 0 {
		t.Errorf("%d reads still waiting after the call returned", w)
	}
	for range 100 {
		if runtime.NumGoroutine() <= before {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the call, %d before", n, before)
	}
	// A context already done: nothing runs.
	if _, err := s.Count(ctx, reader.Term("text", "a"), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("done context: %v", err)
	}
}

// unlimited lifts the expansion bounds of q's prefixes: a bound applies per
// segment (each expands its own first terms), so only unbounded prefixes
// answer over many segments as over one.
func unlimited(q oracle.Query) oracle.Query {
	switch q := q.(type) {
	case oracle.Prefix:
		q.MaxExpansions = 0
		return q
	case oracle.PhrasePrefix:
		q.MaxExpansions = 0
		return q
	case oracle.And:
		out := make(oracle.And, len(q))
		for i, c := range q {
			out[i] = unlimited(c)
		}
		return out
	case oracle.Or:
		out := make(oracle.Or, len(q))
		for i, c := range q {
			out[i] = unlimited(c)
		}
		return out
	}
	return q
}
