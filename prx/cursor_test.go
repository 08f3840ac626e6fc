package prx

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// cursorRead walks the documents ords of frame with a Cursor and returns, per
// document, its term frequency (TF when it answers, else Seek) and the
// positions it read: all of them when full[i], else the first only (Pos
// without Next, as the one-occurrence phrase check does).
func cursorRead(t *testing.T, s *Source, frame []byte, docs int, ords []uint32, full []bool) (tfs []int, pos [][]uint32) {
	t.Helper()
	var c Cursor
	if err := s.Open(&c, frame, true, docs); err != nil {
		t.Fatalf("Open: %v", err)
	}
	for i, o := range ords {
		tf := c.TF(int(o))
		if tf == 0 {
			var err error
			if tf, err = c.Seek(int(o)); err != nil {
				t.Fatalf("Seek(%d): %v", o, err)
			}
		}
		tfs = append(tfs, tf)
		var got []uint32
		if full[i] {
			var err error
			if got, err = c.AppendPositions(nil); err != nil {
				t.Fatalf("doc %d: AppendPositions: %v", o, err)
			}
		} else {
			p, ok := c.Pos()
			if !ok {
				t.Fatalf("doc %d: Pos failed: %v", o, c.Err())
			}
			got = []uint32{p}
		}
		pos = append(pos, got)
	}
	return tfs, pos
}

// TestCursorMatchesWindow reads every test window, in every codec, through a
// Cursor on random ascending subsets of its documents (and on all of them),
// reading some documents whole and others by their first position only, and
// checks every frequency and position against the window. Dense subsets read
// a PFOR block often enough to unpack it whole midway (unpackAfter), sparse
// ones read its values from the packed bits, so both paths are compared to
// the same window.
func TestCursorMatchesWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	s := NewSource(DefaultLimits())
	defer s.Close()
	for _, nw := range testWindows() {
		w := nw.w
		n := w.Docs()
		for _, c := range []Codec{CodecRaw, CodecPFOR, CodecZstd} {
			frame := frameOf(t, c, w)
			subsets := [][]uint32{allOrds(n), randomOrds(rng, n, max(1, n/2)), randomOrds(rng, n, max(1, n/20))}
			for si, ords := range subsets {
				for _, mode := range []string{"full", "first", "mixed"} {
					t.Run(fmt.Sprintf("%s/%s/%d/%s", nw.name, c, si, mode), func(t *testing.T) {
						full := make([]bool, len(ords))
						for i := range full {
							full[i] = mode == "full" || (mode == "mixed" && rng.IntN(2) == 0)
						}
						tfs, pos := cursorRead(t, s, frame, n, ords, full)
						for i, o := range ords {
							want := w.Positions[w.Offsets[o]:w.Offsets[o+1]]
							if tfs[i] != len(want) {
								t.Fatalf("doc %d: tf %d, want %d", o, tfs[i], len(want))
							}
							if !full[i] {
								want = want[:1]
							}
							if d := cmp.Diff(want, pos[i]); d != "" {
								t.Fatalf("doc %d positions (-want +got):\n%s", o, d)
							}
						}
					})
				}
			}
		}
	}
}

// TestCursorFailedStaysFailed checks that a cursor that met an error answers
// nothing more: TF takes the slow path (0) and Pos fails, so the fast paths
// never read a half-parsed unit.
func TestCursorFailedStaysFailed(t *testing.T) {
	w := genWindow(rand.New(rand.NewPCG(3, 4)), 300, 1, 4, 50)
	frame := frameOf(t, CodecPFOR, w)
	s := NewSource(DefaultLimits())
	defer s.Close()
	var c Cursor
	if err := s.Open(&c, frame, true, w.Docs()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Seek(5); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Seek(2); err == nil { // backwards: an error
		t.Fatal("Seek backwards: no error")
	}
	if tf := c.TF(6); tf != 0 {
		t.Fatalf("TF after an error = %d, want 0", tf)
	}
	if _, ok := c.Pos(); ok {
		t.Fatal("Pos after an error succeeded")
	}
	if _, err := c.Seek(6); err == nil {
		t.Fatal("Seek after an error: no error")
	}
}
