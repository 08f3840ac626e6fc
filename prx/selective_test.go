package prx

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/snii-go/snii/budget"
)

// selections returns the named ordinal sets of the matrix for a window of n docs.
func selections(n int) map[string][]uint32 {
	sel := map[string][]uint32{"none": {}}
	if n == 0 {
		return sel
	}
	sel["first"] = []uint32{0}
	sel["last"] = []uint32{uint32(n - 1)}
	var every, all, edges []uint32
	for i := 0; i < n; i++ {
		all = append(all, uint32(i))
		if i%2 == 0 {
			every = append(every, uint32(i))
		}
	}
	for _, e := range []int{127, 128, 255, 256} {
		if e < n {
			edges = append(edges, uint32(e))
		}
	}
	sel["every-other"] = every
	sel["all"] = all
	sel["all-but-first"] = all[1:]
	if len(edges) > 0 {
		sel["edges-127-128-255-256"] = edges
	}
	return sel
}

func TestDecodeSelectedMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	windows := map[string]*Window{
		"300-docs-tf0-8":  genWindow(rng, 300, 0, 8, 500),
		"257-docs-tf1":    genWindow(rng, 257, 1, 1, 100000),
		"1024-docs-tf1-3": genWindow(rng, 1024, 1, 3, 20),
		"3-docs":          newWindow([]uint32{1, 1, 9}, []uint32{}, []uint32{maxUint32 - 5, maxUint32}),
		"1-doc":           newWindow([]uint32{7}),
		"long-docs":       genWindow(rng, 40, 10, 40, 300), // skips use the 8-byte path
	}
	src := NewSource(Limits{})
	defer src.Close()
	var got Window
	for _, wn := range sortedNames(windows) {
		w := windows[wn]
		for _, c := range []Codec{CodecRaw, CodecPFOR, CodecZstd} {
			if c == CodecPFOR && !pforRepresentable(w) {
				continue
			}
			f := frameOf(t, c, w)
			for sn, ords := range selections(w.Docs()) {
				t.Run(fmt.Sprintf("%s/%s/%s", wn, c, sn), func(t *testing.T) {
					for _, withCRC := range []bool{true, false} {
						b := f
						if !withCRC {
							b = f[:len(f)-CRCSize]
						}
						n, err := src.DecodeSelected(b, withCRC, ords, &got)
						if err != nil {
							t.Fatal(err)
						}
						if n != len(b) {
							t.Fatalf("consumed %d, want %d", n, len(b))
						}
						if d := diffWindow(oracleSelect(w, ords), &got); d != "" {
							t.Fatalf("crc=%v mismatch (-want +got):\n%s", withCRC, d)
						}
						if src.WindowDocs() != w.Docs() {
							t.Fatalf("WindowDocs %d, want %d", src.WindowDocs(), w.Docs())
						}
					}
				})
			}
		}
	}
}

func TestDecodeSelectedErrors(t *testing.T) {
	w := newWindow([]uint32{1}, []uint32{2, 3}, []uint32{})
	src := NewSource(Limits{})
	defer src.Close()
	for _, c := range []Codec{CodecRaw, CodecPFOR, CodecZstd} {
		f := frameOf(t, c, w)
		var got Window
		for _, ords := range [][]uint32{{1, 0}, {0, 0}, {0, 2, 2}, {2, 1, 3}} {
			if _, err := src.DecodeSelected(f, true, ords, &got); !errors.Is(err, ErrInvalidArgument) {
				t.Errorf("%s %v: %v, want ErrInvalidArgument", c, ords, err)
			}
		}
		for _, ords := range [][]uint32{{3}, {0, 1, 2, 3}, {1, 100}} {
			_, err := src.DecodeSelected(f, true, ords, &got)
			if !errors.Is(err, ErrCorrupt) {
				t.Errorf("%s %v: %v, want ErrCorrupt", c, ords, err)
			}
			if got.Docs() != 0 || src.WindowDocs() != 0 {
				t.Errorf("%s: dst or WindowDocs not reset on error", c)
			}
		}
		// Len equal to the doc count but not 0..n-1.
		if _, err := src.DecodeSelected(f, true, []uint32{0, 1, 5}, &got); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: {0,1,5}: %v, want ErrCorrupt", c, err)
		}
	}
}

// Random selections of random windows agree with the oracle.
func TestDecodeSelectedRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	enc := newTestEncoder(t, budget.Policy{})
	src := NewSource(Limits{})
	defer src.Close()
	var got Window
	for i := 0; i < 300; i++ {
		w := genWindow(rng, 1+rng.IntN(400), 0, 1+rng.IntN(12), uint32(1)<<rng.IntN(20))
		var ords []uint32
		p := 0.02 + rng.Float64()
		for d := 0; d < w.Docs(); d++ {
			if rng.Float64() < p {
				ords = append(ords, uint32(d))
			}
		}
		for _, c := range []Codec{CodecRaw, CodecPFOR, CodecZstd} {
			fr, err := enc.EncodeCodec(w, c)
			if err != nil {
				t.Fatal(err)
			}
			f := fr.Bytes
			if _, err := src.DecodeSelected(f, true, ords, &got); err != nil {
				t.Fatal(err)
			}
			if d := diffWindow(oracleSelect(w, ords), &got); d != "" {
				t.Fatalf("window %d %s mismatch (-want +got):\n%s", i, c, d)
			}
		}
	}
}
