package writer

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

// TestSplitPasses: every range of first terms holds at most the pass's
// records, or is one term alone; the ranges are greedy (the next term would
// not fit) and cover every term once, in order.
func TestSplitPasses(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 500; trial++ {
		n := 1 + r.IntN(60)
		ends := make([]uint64, n)
		var sum uint64
		for i := range ends {
			sum += uint64(r.IntN(40))
			ends[i] = sum
		}
		most := uint64(1 + r.IntN(100))
		p := splitPasses(ends, most)
		if p[0] != 0 || p[len(p)-1] != uint32(n) || !slices.IsSorted(p) {
			t.Fatalf("ends %v, most %d: passes %v", ends, most, p)
		}
		room := func(a uint32) uint64 {
			if a == 0 {
				return 0
			}
			return ends[a-1]
		}
		for i := 0; i+1 < len(p); i++ {
			a0, a1 := p[i], p[i+1]
			if a1 <= a0 {
				t.Fatalf("ends %v, most %d: empty pass in %v", ends, most, p)
			}
			if recs := room(a1) - room(a0); recs > most && a1-a0 > 1 {
				t.Fatalf("ends %v, most %d: pass %d..%d holds %d records", ends, most, a0, a1, recs)
			}
			if a1 < uint32(n) && room(a1+1)-room(a0) <= most {
				t.Fatalf("ends %v, most %d: pass %d..%d could take term %d", ends, most, a0, a1, a1)
			}
		}
	}
}

// TestPairEntries: entries read back as added, kept in memory under the
// limit and in the temp file past it (every entry then comes from the file).
func TestPairEntries(t *testing.T) {
	dir := t.TempDir()
	var created int
	for _, limit := range []int{1 << 20, 64, 0} {
		p := &pairEntries{limit: limit, create: func() (*tempFile, error) {
			created++
			return &tempFile{f: mustCreate(t, fmt.Sprintf("%s/entries%d", dir, created)), path: "entries"}, nil
		}}
		var want [][]byte
		for i := 0; i < 200; i++ {
			e := bytes.Repeat([]byte{byte(i)}, i%37)
			want = append(want, e)
			if err := p.add(uint64(i)<<32|uint64(i), e); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.done(); err != nil {
			t.Fatal(err)
		}
		if inFile := p.file != nil; inFile != (limit < 1<<20) || (inFile && len(p.mem) != 0) {
			t.Fatalf("limit %d: file %v, %d bytes in memory", limit, inFile, len(p.mem))
		}
		var buf []byte
		for i, w := range want {
			got, err := p.entry(i, buf)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, w) {
				t.Fatalf("limit %d: entry %d = %v, want %v", limit, i, got, w)
			}
		}
		if p.file != nil {
			_ = p.file.f.Close()
		}
	}
}

func mustCreate(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
