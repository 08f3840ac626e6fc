package reader_test

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// zstdCorpus: 4096 docs in which "alpha" and "beta" repeat (windows of 256 docs
// with ~2 KB of plain positions, which zstd shrinks the most), "rare" is in one
// document only.
func zstdCorpus() []oracle.Doc {
	docs := make([]oracle.Doc, 4096)
	for i := range docs {
		var b strings.Builder
		for k := 0; k < 6; k++ {
			fmt.Fprintf(&b, "alpha beta gamma w%d ", (i+k)%7)
		}
		if i == 1000 {
			b.WriteString("rare alpha beta")
		}
		fmt.Fprintf(&b, " id%d", i)
		docs[i] = oracle.Doc{{Name: "text", Values: []string{b.String()}}}
	}
	return docs
}

// allocTest prepares t to count allocations: it skips t under the race
// detector and restores the GC setting when t ends (a t.Fatal while counting
// included).
func allocTest(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector (sync.Pool drops items)")
	}
	gc := debug.SetGCPercent(100)
	debug.SetGCPercent(gc)
	t.Cleanup(func() { debug.SetGCPercent(gc) })
}

// gcOff collects, then keeps the GC off until on is called. A GC empties the
// sync.Pools (query contexts, decode sources, zstd decoders); refilling them
// would be counted as allocations of the query. So a test warms the pools and
// buffers after gcOff and counts before on: each run sees warm pools, and the
// counts are exact.
func gcOff() (on func()) {
	runtime.GC()
	gc := debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(gc) }
}

// TestAllocsPerZstdWindow: a warmed query allocates nothing per zstd window (a
// query touching 2 zstd windows and one touching 32 allocate the same), and a
// bounded number per query.
func TestAllocsPerZstdWindow(t *testing.T) {
	allocTest(t)
	docs := zstdCorpus()
	c := corpusOf(docs)
	for _, o := range []reader.Options{{}, {NoMmap: true}} {
		s, err := reader.Open(build(t, docs, options(0, "text")), o)
		if err != nil {
			t.Fatal(err)
		}
		one := reader.Phrase("text", "rare", "alpha", "beta")
		many := reader.Phrase("text", "alpha", "beta", "gamma")
		zstdFrames := func(q reader.Query, oq oracle.Query) int64 {
			var p reader.Profile
			n, err := s.Count(bg, q, &reader.SearchOptions{Profile: &p})
			if err != nil || n != uint64(len(c.Eval(oq))) {
				t.Fatalf("%s: %d, %v", q, n, err)
			}
			return p.Frames[prx.CodecZstd]
		}
		f1 := zstdFrames(one, oracle.Phrase{Field: "text", Terms: []string{"rare", "alpha", "beta"}})
		fm := zstdFrames(many, oracle.Phrase{Field: "text", Terms: []string{"alpha", "beta", "gamma"}})
		if f1 < 1 || f1 > 3 || fm < 30 {
			t.Fatalf("zstd frames: %d for the rare phrase, %d for the common one (want 1..3 and >= 30)", f1, fm)
		}
		count := func(q reader.Query) func() {
			return func() {
				if _, err := s.Count(bg, q, nil); err != nil {
					t.Fatal(err)
				}
			}
		}
		on := gcOff()
		for i := 0; i < 5; i++ {
			count(one)()
			count(many)()
		}
		a1 := testing.AllocsPerRun(50, count(one))
		am := testing.AllocsPerRun(50, count(many))
		t.Logf("NoMmap=%v: allocs per Count: %.0f with %d zstd windows, %.0f with %d", o.NoMmap, a1, f1, am, fm)
		if am != a1 {
			t.Errorf("allocs grow with zstd windows: %.0f for %d windows, %.0f for %d", a1, f1, am, fm)
		}
		if am > 4 {
			t.Errorf("%.0f allocs per phrase count, want <= 4", am)
		}
		// Docs adds the result slice; a term count allocates nothing.
		ad := testing.AllocsPerRun(50, func() { s.Docs(bg, many, nil) })
		term := reader.Term("text", "alpha")
		at := testing.AllocsPerRun(50, func() { s.Count(bg, term, nil) })
		if ad > am+1 || at > 0 {
			t.Errorf("allocs: Docs %.0f (count %.0f), term count %.0f", ad, am, at)
		}
		on()
		s.Close()
	}
}

// TestAllocsLongPhrase: a phrase of more than eight distinct terms, each
// occurring twice per document (the streamed verifier, matchStream), does
// not allocate per document.
func TestAllocsLongPhrase(t *testing.T) {
	allocTest(t)
	terms := strings.Fields("a0 a1 a2 a3 a4 a5 a6 a7 a8 a9")
	docs := make([]oracle.Doc, 2000)
	for i := range docs {
		v := strings.Join(terms, " ") + " x " + strings.Join(terms, " ")
		if i%2 == 1 {
			v = strings.Join(terms[5:], " ") + " x " + strings.Join(terms[:5], " ") + " y " + strings.Join(terms, " ")
		}
		docs[i] = oracle.Doc{{Name: "text", Values: []string{v}}}
	}
	s := open(t, build(t, docs, options(0, "text")))
	q := reader.Phrase("text", terms...)
	n, err := s.Count(bg, q, nil)
	if err != nil || n != 2000 {
		t.Fatalf("%s: %d, %v; want 2000", q, n, err)
	}
	count := func() {
		if _, err := s.Count(bg, q, nil); err != nil {
			t.Fatal(err)
		}
	}
	on := gcOff()
	for i := 0; i < 5; i++ {
		count()
	}
	if a := testing.AllocsPerRun(20, count); a > 4 {
		t.Errorf("%.0f allocs per count of a 10-term phrase over 2000 documents, want <= 4", a)
	}
	on()
}
