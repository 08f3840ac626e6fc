package format

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/snii-go/snii/internal/errs"
)

// pairSection builds a section of the given pairs (sorted by a then b).
func pairSection(pairs []testPair) []byte {
	var enc DocWindowEncoder
	var b []byte
	var offs []uint32
	for _, p := range pairs {
		offs = append(offs, uint32(len(b)))
		b = AppendPairEntry(b, &enc, []byte(p.a), []byte(p.b), p.docs)
	}
	return AppendPairTrailer(b, offs)
}

type testPair struct {
	a, b string
	docs []uint32
}

func randPairs(r *rand.Rand, n int) []testPair {
	seen := map[[2]string]bool{}
	var ps []testPair
	for len(ps) < n {
		a := string(rune('a' + r.IntN(6)))
		b := string(rune('a'+r.IntN(6))) + string(rune('a'+r.IntN(3)))
		if seen[[2]string{a, b}] {
			continue
		}
		seen[[2]string{a, b}] = true
		var docs []uint32
		d := uint32(r.IntN(5))
		for k := 1 + r.IntN(300); k > 0; k-- {
			docs = append(docs, d)
			d += 1 + uint32(r.IntN(4))
		}
		ps = append(ps, testPair{a, b, docs})
	}
	slices.SortFunc(ps, func(x, y testPair) int {
		if x.a != y.a {
			if x.a < y.a {
				return -1
			}
			return 1
		}
		if x.b < y.b {
			return -1
		}
		if x.b > y.b {
			return 1
		}
		return 0
	})
	return ps
}

func TestPairTableRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ps := randPairs(r, 20)
	sec := pairSection(ps)
	tb, err := OpenPairTable(sec, uint64(len(ps)), 2000)
	if err != nil {
		t.Fatal(err)
	}
	if tb.Len() != len(ps) || tb.Bytes() != len(sec) {
		t.Fatalf("len %d bytes %d, want %d %d", tb.Len(), tb.Bytes(), len(ps), len(sec))
	}
	for i, p := range ps {
		k, err := tb.Find([]byte(p.a), []byte(p.b))
		if err != nil || k != i {
			t.Fatalf("find %q %q = %d, %v; want %d", p.a, p.b, k, err, i)
		}
		e, err := tb.Entry(k)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := e.Docs(nil)
		if err != nil || !slices.Equal(docs, p.docs) || e.DF != uint64(len(p.docs)) {
			t.Fatalf("pair %d: docs %v (df %d), %v; want %v", i, docs, e.DF, err, p.docs)
		}
	}
	for _, miss := range [][2]string{{"a", "zz"}, {"", ""}, {"g", "a"}, {"aa", "a"}} {
		if k, err := tb.Find([]byte(miss[0]), []byte(miss[1])); k != -1 || err != nil {
			t.Errorf("find %q = %d, %v; want -1", miss, k, err)
		}
	}
	// The empty section.
	if tb, err := OpenPairTable(nil, 0, 10); err != nil || tb.Len() != 0 || tb.Bytes() != 0 {
		t.Errorf("empty: %v %v", tb, err)
	}
}

func TestPairTableCorrupt(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ps := randPairs(r, 8)
	sec := pairSection(ps)
	n := uint64(len(ps))
	// Any flipped byte: Open or the entry read fails, or every read still
	// returns the right docs (a flipped key may only make a lookup miss).
	for i := range sec {
		b := slices.Clone(sec)
		b[i] ^= 0x10
		tb, err := OpenPairTable(b, n, 2000)
		if err != nil {
			if !errors.Is(err, errs.Corrupt) {
				t.Fatalf("byte %d: %v", i, err)
			}
			continue
		}
		detected := false
		for k := range ps {
			e, err := tb.Entry(k)
			if err != nil {
				if !errors.Is(err, errs.Corrupt) {
					t.Fatalf("byte %d entry %d: %v", i, k, err)
				}
				detected = true
				continue
			}
			docs, err := e.Docs(nil)
			if err != nil || !slices.Equal(docs, ps[k].docs) {
				t.Fatalf("byte %d: entry %d read %v, %v without an error", i, k, docs, err)
			}
		}
		if !detected {
			t.Fatalf("byte %d: flip not detected", i)
		}
	}
	if _, err := OpenPairTable(sec, n+1, 2000); !errors.Is(err, errs.Corrupt) {
		t.Errorf("wrong count: %v", err)
	}
	if _, err := OpenPairTable(sec[:len(sec)-1], n, 2000); !errors.Is(err, errs.Corrupt) {
		t.Errorf("truncated: %v", err)
	}
	if tb, err := OpenPairTable(sec, n, 5); err == nil {
		if _, err := tb.Entry(0); !errors.Is(err, errs.Corrupt) {
			t.Errorf("df over the doc count: %v", err)
		}
	}
}

func FuzzPairTable(f *testing.F) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 3} {
		f.Add(pairSection(randPairs(r, n)), uint8(n), []byte("a"), []byte("ba"))
	}
	var enc DocWindowEncoder // both forms (format 5)
	sec := AppendPairComplement(nil, &enc, []byte("a"), []byte("b"), 4, 7, []uint32{3, 9, 700})
	off := uint32(len(sec))
	sec = AppendPairComplement(sec, &enc, []byte("a"), []byte("c"), 9, 9, nil)
	off2 := uint32(len(sec))
	sec = AppendPairEntry(sec, &enc, []byte("b"), []byte("c"), []uint32{1, 2, 4, 8})
	f.Add(AppendPairTrailer(sec, []uint32{0, off, off2}), uint8(3), []byte("a"), []byte("c"))
	f.Fuzz(func(t *testing.T, sec []byte, n uint8, a, b []byte) {
		tb, err := OpenPairTable(sec, uint64(n), 1<<16)
		if err != nil {
			if !errors.Is(err, errs.Corrupt) {
				t.Fatal(err)
			}
			return
		}
		if _, err := tb.Find(a, b); err != nil && !errors.Is(err, errs.Corrupt) {
			t.Fatal(err)
		}
		// A table past pairIndexAfter lookups answers every key as the
		// binary search does.
		ix, _ := OpenPairTable(sec, uint64(n), 1<<16)
		ix.searches.Store(pairIndexAfter)
		for i := -1; i < tb.Len(); i++ {
			ka, kb := a, b
			if i >= 0 {
				var err error
				if ka, kb, err = tb.Key(i); err != nil {
					continue
				}
			}
			want, werr := tb.search(ka, kb)
			got, gerr := ix.Find(ka, kb)
			if got != want || (werr == nil) != (gerr == nil) {
				t.Fatalf("find %q %q: %d, %v by the index; %d, %v by binary search", ka, kb, got, gerr, want, werr)
			}
		}
		for i := 0; i < tb.Len(); i++ {
			e, err := tb.Entry(i)
			if err != nil {
				if !errors.Is(err, errs.Corrupt) {
					t.Fatal(err)
				}
				continue
			}
			if e.Complement() {
				exc, err := e.Exceptions(nil)
				if err == nil && (uint64(len(exc)) != e.CO-e.DF || !slices.IsSorted(exc)) {
					t.Fatalf("entry %d: %d exceptions for df %d, co %d", i, len(exc), e.DF, e.CO)
				}
				continue
			}
			docs, err := e.Docs(nil)
			if err == nil && (uint64(len(docs)) != e.DF || !slices.IsSorted(docs)) {
				t.Fatalf("entry %d: %d docs for df %d", i, len(docs), e.DF)
			}
		}
	})
}

// wordPairs returns n distinct pairs of words of 1 to 12 letters, each in
// one document, sorted by a then b.
func wordPairs(r *rand.Rand, n int) []testPair {
	word := func() string {
		b := make([]byte, 1+r.IntN(12))
		for i := range b {
			b[i] = byte('a' + r.IntN(26))
		}
		return string(b)
	}
	seen := map[[2]string]bool{}
	var ps []testPair
	for len(ps) < n {
		p := testPair{a: word(), b: word(), docs: []uint32{uint32(r.IntN(100))}}
		if !seen[[2]string{p.a, p.b}] {
			seen[[2]string{p.a, p.b}] = true
			ps = append(ps, p)
		}
	}
	slices.SortFunc(ps, func(x, y testPair) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) })
	return ps
}

// TestPairFilter: the resident filter never rejects a kept pair, and stops
// most missing pairs before the binary search (one bit per pair in 16: about
// 1 in 16 passes).
func TestPairFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pairs := func(n int) []testPair { return wordPairs(r, n) }
	ps := pairs(1000)
	tab, err := OpenPairTable(pairSection(ps), uint64(len(ps)), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	ix := tab.buildIndex()
	passes := func(a, b []byte) bool {
		f := ix.hash(a, b) >> ix.fshift
		return ix.filter[f>>6]>>(f&63)&1 == 1
	}
	kept := make(map[[2]string]bool)
	for _, p := range ps {
		kept[[2]string{p.a, p.b}] = true
		if !passes([]byte(p.a), []byte(p.b)) {
			t.Fatalf("kept pair %q %q rejected by the filter", p.a, p.b)
		}
	}
	missing, passed := 0, 0
	for _, p := range pairs(20000) {
		if kept[[2]string{p.a, p.b}] {
			continue
		}
		missing++
		if passes([]byte(p.a), []byte(p.b)) {
			passed++
		}
		if i, err := tab.Find([]byte(p.a), []byte(p.b)); i >= 0 || err != nil {
			t.Fatalf("missing pair %q %q found at %d (%v)", p.a, p.b, i, err)
		}
	}
	if missing < 10000 || passed*8 > missing {
		t.Errorf("%d of %d missing pairs pass the filter (want about 1/16)", passed, missing)
	}
	t.Logf("%d of %d missing pairs pass the filter", passed, missing)
}

// TestPairEntryGolden pins a complement-form entry (docs/FORMAT.md, "Pair
// section") and checks both forms decode back.
func TestPairEntryGolden(t *testing.T) {
	var enc DocWindowEncoder
	got := AppendPairComplement(nil, &enc, []byte("mod"), []byte("jk"), 5608, 5608, nil)
	want := []byte{0x03, 'm', 'o', 'd', 0x02, 'j', 'k', 0xe8, 0x2b, 0xe8, 0x2b, 0x00, 0x4c, 0x46, 0xbb, 0x35}
	if !bytes.Equal(got, want) {
		t.Fatalf("complement entry\n got % x\nwant % x", got, want)
	}
	exc := []uint32{3, 9, 700}
	list := []uint32{1, 2, 4, 8}
	sec := AppendPairComplement(nil, &enc, []byte("a"), []byte("b"), 4, 7, exc)
	off2 := uint32(len(sec))
	sec = AppendPairEntry(sec, &enc, []byte("a"), []byte("c"), list)
	sec = AppendPairTrailer(sec, []uint32{0, off2})
	tb, err := OpenPairTable(sec, 2, 1000)
	if err != nil {
		t.Fatal(err)
	}
	e, err := tb.Entry(0)
	if err != nil || !e.Complement() || e.DF != 4 || e.CO != 7 {
		t.Fatalf("entry 0: %+v, %v", e, err)
	}
	if ds, err := e.Exceptions(nil); err != nil || !slices.Equal(ds, exc) {
		t.Fatalf("exceptions %v, %v", ds, err)
	}
	if _, err := e.Docs(nil); !errors.Is(err, errs.Corrupt) {
		t.Fatalf("docs of a complement entry: %v", err)
	}
	e, err = tb.Entry(1)
	if err != nil || e.Complement() || e.DF != 4 {
		t.Fatalf("entry 1: %+v, %v", e, err)
	}
	if ds, err := e.Docs(nil); err != nil || !slices.Equal(ds, list) {
		t.Fatalf("docs %v, %v", ds, err)
	}
}

// TestPairComplementMinLen: no complement entry is shorter than the bound,
// with no exceptions, few, and long runs of them.
func TestPairComplementMinLen(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	var enc DocWindowEncoder
	var buf []byte
	for k := range 2000 {
		a, b := bytes.Repeat([]byte("a"), r.IntN(300)), bytes.Repeat([]byte("b"), 1+r.IntN(20))
		df := uint64(1 + r.IntN(1<<uint(r.IntN(20))))
		nexc := 0
		if k%4 != 0 {
			nexc = r.IntN(1 << uint(r.IntN(14)))
		}
		exc := make([]uint32, nexc)
		d := uint32(r.IntN(100))
		for i := range exc {
			exc[i] = d
			d += 1 + uint32(r.IntN(1<<uint(r.IntN(8))))
		}
		co := df + uint64(nexc)
		buf = AppendPairComplement(buf[:0], &enc, a, b, df, co, exc)
		if lb := PairComplementMinLen(len(a), len(b), df, co); len(buf) < lb {
			t.Fatalf("df %d, co %d, %d-byte terms: %d bytes, bound %d", df, co, len(a)+len(b), len(buf), lb)
		}
	}
}

// TestPairTableIndexAfterSearches: a table answers by binary search until it
// has served pairIndexAfter lookups, then builds its hash index once; both
// give every kept pair its entry and every missing pair -1, and a table
// whose key does not decode keeps answering by binary search.
func TestPairTableIndexAfterSearches(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	ps := randPairs(r, 18)
	tab, err := OpenPairTable(pairSection(ps), uint64(len(ps)), 2000)
	if err != nil {
		t.Fatal(err)
	}
	misses := [][2]string{{"a", "zz"}, {"", ""}, {"g", "a"}, {"aa", "a"}, {"c", ""}, {"f", "fc"}}
	lookups := 0
	check := func() {
		for i, p := range ps {
			if k, err := tab.Find([]byte(p.a), []byte(p.b)); k != i || err != nil {
				t.Fatalf("after %d lookups: find %q %q = %d, %v; want %d", lookups, p.a, p.b, k, err, i)
			}
			lookups++
		}
		for _, m := range misses {
			if k, err := tab.Find([]byte(m[0]), []byte(m[1])); k != -1 || err != nil {
				t.Fatalf("after %d lookups: find %q = %d, %v; want -1", lookups, m, k, err)
			}
			lookups++
		}
	}
	for lookups < pairIndexAfter {
		if tab.index.Load() != nil {
			t.Fatalf("index built after %d lookups (want %d)", lookups, pairIndexAfter)
		}
		check()
	}
	check()
	if tab.index.Load() == nil {
		t.Fatalf("no index after %d lookups", lookups)
	}
	check()

	// A key whose length runs past its entry: no index, and the lookups that
	// read it fail with ErrCorrupt, the others still answer.
	sec := pairSection(ps)
	sec[0] = 0x7f // entry 0's len(a)
	bad, err := OpenPairTable(sec, uint64(len(ps)), 2000)
	if err != nil {
		t.Fatal(err)
	}
	found, failed := 0, 0
	for round := 0; round < 2*pairIndexAfter/len(ps)+2; round++ {
		for i, p := range ps {
			k, err := bad.Find([]byte(p.a), []byte(p.b))
			switch {
			case err != nil && errors.Is(err, errs.Corrupt):
				failed++
			case err == nil && k == i && i > 0:
				found++
			default:
				t.Fatalf("damaged key 0: find %q %q = %d, %v", p.a, p.b, k, err)
			}
		}
	}
	if bad.index.Load() != nil || failed == 0 || found == 0 {
		t.Fatalf("damaged key 0: index %v, %d found, %d failed", bad.index.Load() != nil, found, failed)
	}
}

// TestPairTableConcurrentIndex: goroutines looking up pairs at once while
// the table crosses pairIndexAfter get the same answers as alone (run with
// -race: the index is built once and published safely).
func TestPairTableConcurrentIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	ps := randPairs(r, 18)
	tab, err := OpenPairTable(pairSection(ps), uint64(len(ps)), 2000)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errc := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; round < 4; round++ {
				for i, p := range ps {
					if k, err := tab.Find([]byte(p.a), []byte(p.b)); k != i || err != nil {
						errc <- fmt.Errorf("find %q %q = %d, %v; want %d", p.a, p.b, k, err, i)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	if tab.index.Load() == nil {
		t.Errorf("no index after %d lookups", 8*4*len(ps))
	}
}
