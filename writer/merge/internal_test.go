package merge

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/reader"
)

// TestCompatible checks the version rule directly: sources of the format
// versions this reader reads, up to the one this writer writes, merge
// (older ones are upgraded), whatever their min reader; newer ones do not.
func TestCompatible(t *testing.T) {
	srcs := []*source{{ord: 0, name: "a"}, {ord: 1, name: "b"}}
	cur := reader.Version{Format: format.FormatVersion, MinReader: format.MinReaderVersion}
	for f := uint16(format.OldestReadable); f <= format.FormatVersion; f++ {
		if err := compatible(srcs, []reader.Version{cur, {Format: f, MinReader: f}}); err != nil {
			t.Errorf("version %d: %v", f, err)
		}
	}
	for _, v := range []reader.Version{
		{Format: format.FormatVersion + 1, MinReader: format.MinReaderVersion},
		{Format: format.FormatVersion + 1, MinReader: format.FormatVersion + 1},
		{Format: format.OldestReadable - 1, MinReader: format.OldestReadable - 1},
	} {
		err := compatible(srcs, []reader.Version{cur, v})
		if !errors.Is(err, errs.Version) {
			t.Errorf("version %+v: %v", v, err)
		}
	}
}

// TestDelSet checks has and rank against the bitmap's own answers.
func TestDelSet(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []uint32{1, 63, 64, 65, 1000, 70000} {
		for _, frac := range []float64{0, 0.01, 0.5, 1} {
			bm := roaring.New()
			for i := uint32(0); i < n; i++ {
				if r.Float64() < frac {
					bm.Add(i)
				}
			}
			d := newDelSet(bm, n)
			if d.len() != int(bm.GetCardinality()) {
				t.Fatalf("n %d: len %d, want %d", n, d.len(), bm.GetCardinality())
			}
			for i := uint32(0); i < n; i++ {
				if d.has(i) != bm.Contains(i) {
					t.Fatalf("n %d: has(%d) = %v", n, i, d.has(i))
				}
				want := bm.Rank(i)
				if bm.Contains(i) {
					want--
				}
				if uint64(d.rank(i)) != want {
					t.Fatalf("n %d: rank(%d) = %d, want %d", n, i, d.rank(i), want)
				}
			}
		}
	}
}

func TestFanIn(t *testing.T) {
	for _, c := range []struct {
		limit int64
		want  int
	}{{1, 2}, {writerMemory, 2}, {writerMemory + 3*sourceMemory, 3}, {defaultMemoryLimit, int((defaultMemoryLimit - writerMemory) / sourceMemory)}} {
		if got := fanIn(c.limit); got != c.want {
			t.Errorf("fanIn(%d) = %d, want %d", c.limit, got, c.want)
		}
	}
}
