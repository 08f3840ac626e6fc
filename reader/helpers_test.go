package reader_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/testkit/segtest"

	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

var bg = context.Background()

// policy options: 0 smallest frames, 30 a fixed share, -1 the budget.
func options(policy int, fields ...string) writer.Options {
	o := writer.DefaultOptions(fields...)
	o.Policy = budget.FromPercents(policy, 8)
	return o
}

func writerDoc(d oracle.Doc) writer.Document { return segtest.Document(d) }

// build writes docs into a new segment file and returns its path.
func build(t testing.TB, docs []oracle.Doc, o writer.Options) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "seg.snii")
	wds := make([]writer.Document, len(docs))
	for i, d := range docs {
		wds[i] = writerDoc(d)
	}
	segtest.Build(t, p, o, wds)
	return p
}

func corpusOf(docs []oracle.Doc) *oracle.Corpus {
	c := oracle.New()
	for _, d := range docs {
		c.Add(d)
	}
	return c
}

func open(t testing.TB, path string) *reader.Segment {
	t.Helper()
	s, err := reader.Open(path, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// openBytes opens a segment held in memory (ReaderAt path).
func openBytes(b []byte) (*reader.Segment, error) {
	return reader.OpenReaderAt(context.Background(), bytes.NewReader(b), int64(len(b)), reader.Options{})
}

// rq converts an oracle query into a reader query.
func rq(q oracle.Query) reader.Query { return segtest.Query(q) }

// querySet is a list of queries with the oracle's answers.
type querySet struct {
	kinds []string
	qs    []oracle.Query
	want  [][]uint32
}

// genQueries draws n queries of each kind over field.
func genQueries(c *oracle.Corpus, field string, seed uint64, n int) *querySet {
	g := oracle.NewGen(c, field, seed)
	kinds := []struct {
		name string
		fn   func() oracle.Query
	}{
		{"term", g.Term},
		{"phrase", g.Phrase},
		{"reversed", g.Reversed},
		{"repeated", g.Repeated},
		{"crossvalue", g.CrossValue},
		{"phraseprefix", g.PhrasePrefix},
		{"prefix", g.Prefix},
		{"bool", g.Bool},
		{"fuzzy", g.Fuzzy},
	}
	qs := &querySet{}
	for _, k := range kinds {
		for i := 0; i < n; i++ {
			q := k.fn()
			qs.kinds = append(qs.kinds, k.name)
			qs.qs = append(qs.qs, q)
		}
	}
	qs.want = make([][]uint32, len(qs.qs))
	parallel(len(qs.qs), func(i int) { qs.want[i] = c.Eval(qs.qs[i]) })
	return qs
}

// parallel runs fn(0..n-1) on 8 goroutines.
func parallel(n int, fn func(i int)) {
	done := make(chan struct{})
	next := make(chan int)
	for w := 0; w < 8; w++ {
		go func() {
			for i := range next {
				fn(i)
			}
			done <- struct{}{}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	for w := 0; w < 8; w++ {
		<-done
	}
}

// checkQueries runs every query of qs on s (Docs, Count, Bitmap) and compares
// with the oracle.
func checkQueries(t *testing.T, s *reader.Segment, qs *querySet, label string) (hits map[string]int) {
	t.Helper()
	return checkQueriesWith(t, s, qs, label, nil)
}

// checkQueriesWith is checkQueries with search options.
func checkQueriesWith(t *testing.T, s *reader.Segment, qs *querySet, label string, o *reader.SearchOptions) (hits map[string]int) {
	t.Helper()
	hits = map[string]int{}
	for i, q := range qs.qs {
		r := rq(q)
		got, err := s.Docs(bg, r, o)
		if err != nil {
			t.Fatalf("%s: %s: %v", label, q, err)
		}
		if !slices.Equal(got, qs.want[i]) {
			t.Fatalf("%s: %s:\n got %s\nwant %s", label, q, oracle.Describe(got), oracle.Describe(qs.want[i]))
		}
		n, err := s.Count(bg, r, o)
		if err != nil || n != uint64(len(got)) {
			t.Fatalf("%s: %s: Count = %d, %v; want %d", label, q, n, err, len(got))
		}
		if i%7 == 0 {
			bm, err := s.Bitmap(bg, r, o)
			if err != nil || !slices.Equal(bm.ToArray(), got) {
				t.Fatalf("%s: %s: Bitmap disagrees with Docs (%v)", label, q, err)
			}
		}
		if len(got) > 0 {
			hits[qs.kinds[i]]++
		}
	}
	return hits
}

// isKind reports whether err wraps one of the given kinds.
func isKind(err error, kinds ...error) bool {
	for _, k := range kinds {
		if errors.Is(err, k) {
			return true
		}
	}
	return false
}

var _ = errs.Corrupt
