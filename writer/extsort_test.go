package writer

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestExtSorter: the radix sort and the spilled runs give the order of a
// comparison sort, and iterating twice gives the same records.
func TestExtSorter(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	dir := t.TempDir()
	w := &Writer{opts: Options{TempDir: dir}}
	for _, n := range []int{0, 10, 300, 5000, 70000} {
		for _, limit := range []int64{16 << 20, 1024 * recBytes} {
			s := newExtSorter(limit, "test", func() (*tempFile, error) { return w.createTemp(runPrefix) })
			var want []rec
			lastV := map[uint64]uint32{}
			for i := 0; i < n; i++ {
				k := uint64(r.IntN(50))<<40 | uint64(r.IntN(3))<<17 | uint64(r.IntN(1000))
				v := lastV[k] + uint32(r.IntN(3)) // ascending among equal k, as add requires
				lastV[k] = v
				if err := s.add(k, v); err != nil {
					t.Fatal(err)
				}
				want = append(want, rec{k, v})
			}
			slices.SortFunc(want, cmpRec)
			for pass := 0; pass < 2; pass++ {
				it := s.iter()
				var got []rec
				for {
					x, ok, err := it.next()
					if err != nil {
						t.Fatal(err)
					}
					if !ok {
						break
					}
					got = append(got, x)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("n %d, limit %d, pass %d: order differs (%d runs)", n, limit, pass, len(s.runs))
				}
			}
			if n == 70000 && limit < 1<<20 && len(s.runs) == 0 {
				t.Errorf("no spill with a %d-byte limit", limit)
			}
		}
	}
	_ = w.cleanup()
}
