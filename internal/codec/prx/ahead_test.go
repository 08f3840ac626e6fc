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
	serial, par := serialAndParallel(t)
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

// TestPreparedSameFrames: an Encoder given each window to Prepare while it
// encodes the one before (two window buffers reused in turn, as the writer's
// emitter does) stores the frames and the outcome of a serial one, also when
// a window is encoded again with new contents and not prepared, when an
// unprepared window is encoded between a Prepare and its Encode, when a
// prepared window is never encoded, and when a prepared window is invalid.
func TestPreparedSameFrames(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 16))
	serial, par := serialAndParallel(t)
	gen := func(i int) *Window {
		switch i % 4 {
		case 0:
			return genWindow(rng, 1+rng.IntN(20), 1, 8, 50) // one unit
		case 1:
			return genWindow(rng, 200+rng.IntN(400), 1, 12, 8) // compressible units
		case 2:
			return genWindow(rng, 100+rng.IntN(300), 2, 30, 1<<20) // wide gaps
		default:
			return genWindow(rng, 2+rng.IntN(4), 600, 1500, 16) // documents over a unit each
		}
	}
	set := func(dst, src *Window) {
		dst.Offsets = append(dst.Offsets[:0], src.Offsets...)
		dst.Positions = append(dst.Positions[:0], src.Positions...)
	}
	check := func(i int, w *Window) {
		t.Helper()
		want, werr := serial.Encode(w)
		wantBytes := bytes.Clone(want.Bytes)
		got, gerr := par.Encode(w)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("window %d: serial error %v, parallel error %v", i, werr, gerr)
		}
		if werr == nil && !bytes.Equal(got.Bytes, wantBytes) {
			t.Fatalf("window %d (%d docs, %d units): frames differ", i, w.Docs(), len(got.Units))
		}
	}
	var bufs [2]Window
	var extra Window
	cur, next := &bufs[0], &bufs[1]
	set(cur, gen(0))
	par.Prepare(cur)
	for i := 1; i < 400; i++ {
		set(next, gen(i))
		switch i % 10 {
		case 3: // the window encoded again with new contents, not prepared
			check(i, cur)
			set(cur, gen(i))
		case 5: // an unprepared window between a Prepare and its Encode
			check(i, gen(i+1))
		case 7: // a prepared window never encoded, changed after the next Prepare
			set(&extra, gen(i))
			par.Prepare(&extra)
			par.Prepare(next)
			set(&extra, gen(i))
		case 9: // an invalid window: a document without positions
			next.Offsets = append(next.Offsets, next.Offsets[len(next.Offsets)-1])
		}
		par.Prepare(next)
		check(i, cur)
		cur, next = next, cur
	}
	check(400, cur)
	if serial.Outcome() != par.Outcome() {
		t.Errorf("outcomes differ: serial %+v, parallel %+v", serial.Outcome(), par.Outcome())
	}
}

// serialAndParallel returns two encoders of the default options, the second
// Parallel, closed at the end of the test.
func serialAndParallel(t *testing.T) (serial, par *Encoder) {
	t.Helper()
	serial, err := NewEncoder(EncoderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(serial.Close)
	par, err = NewEncoder(EncoderOptions{Parallel: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(par.Close)
	return serial, par
}
