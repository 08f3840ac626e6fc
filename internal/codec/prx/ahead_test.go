package prx

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestParallelSameFrames: an Encoder that compresses the later units of
// multi-unit windows on a second goroutine stores the frames and the outcome
// of one that does not, window after window (multi-unit windows of
// compressible and incompressible units, singletons, single-unit windows).
func TestParallelSameFrames(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 35))
	serial, err := NewEncoder(EncoderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer serial.Close()
	par, err := NewEncoder(EncoderOptions{Parallel: true})
	if err != nil {
		t.Fatal(err)
	}
	defer par.Close()
	multi := 0
	for i := range 300 {
		var w *Window
		switch i % 5 {
		case 0:
			w = genWindow(rng, 1, 1, 1, 100) // a singleton
		case 1:
			w = genWindow(rng, 1+rng.IntN(20), 1, 8, 50) // one unit
		case 2:
			w = genWindow(rng, 200+rng.IntN(400), 1, 12, 8) // compressible units
		case 3:
			w = genWindow(rng, 100+rng.IntN(300), 2, 30, 1<<20) // wide gaps
		default:
			w = genWindow(rng, 2+rng.IntN(4), 600, 1500, 16) // documents over a unit each
		}
		want, err := serial.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		wantBytes := bytes.Clone(want.Bytes)
		got, err := par.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Units) > 1 {
			multi++
		}
		if !bytes.Equal(got.Bytes, wantBytes) || len(got.Units) != len(want.Units) {
			t.Fatalf("window %d (%d docs, %d units): frames differ", i, w.Docs(), len(got.Units))
		}
	}
	if multi < 100 {
		t.Fatalf("%d multi-unit windows (want the generator to make many)", multi)
	}
	if serial.Outcome() != par.Outcome() {
		t.Errorf("outcomes differ: serial %+v, parallel %+v", serial.Outcome(), par.Outcome())
	}
	if par.ahead == nil {
		t.Error("the parallel encoder never compressed ahead")
	}
}
