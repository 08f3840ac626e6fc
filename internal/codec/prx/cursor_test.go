package prx

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/snii-go/snii/limits"
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
// the same window; with unpackAfter 1 (the vector unpacker's setting) every
// block is unpacked at its first read.
func TestCursorMatchesWindow(t *testing.T) {
	for _, after := range []int{unpackAfterFor(false), unpackAfterFor(true)} {
		t.Run(fmt.Sprintf("unpackAfter=%d", after), func(t *testing.T) {
			withUnpackAfter(t, after)
			cursorMatchesWindow(t)
		})
	}
}

// withUnpackAfter sets unpackAfter for the rest of the test: both settings
// are tested whatever the CPU (the package's tests do not run in parallel).
func withUnpackAfter(t *testing.T, n int) {
	old := unpackAfter
	unpackAfter = n
	t.Cleanup(func() { unpackAfter = old })
}

func cursorMatchesWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	s := NewSource(limits.Limits{}.Normalize())
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

// TestCursorNextAtLeast: on every test window in every codec, NextAtLeast(x)
// after Pos returns the first position >= x that follows, or false when none
// does, for targets below, inside and past each document's positions, then
// goes on from there like Next; and it counts the positions it passes as read,
// as the Next loop it replaces does.
func TestCursorNextAtLeast(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	s := NewSource(limits.Limits{}.Normalize())
	defer s.Close()
	for _, nw := range testWindows() {
		w := nw.w
		n := w.Docs()
		for _, codec := range []Codec{CodecRaw, CodecPFOR, CodecZstd} {
			frame := frameOf(t, codec, w)
			var c, ref Cursor
			var st, refSt Stats
			cs, rs := NewSource(limits.Limits{}.Normalize()), NewSource(limits.Limits{}.Normalize())
			cs.SetStats(&st)
			rs.SetStats(&refSt)
			if err := cs.Open(&c, frame, true, n); err != nil {
				t.Fatal(err)
			}
			if err := rs.Open(&ref, frame, true, n); err != nil {
				t.Fatal(err)
			}
			for _, o := range randomOrds(rng, n, max(1, n/3)) {
				if _, err := c.Seek(int(o)); err != nil {
					t.Fatal(err)
				}
				if _, err := ref.Seek(int(o)); err != nil {
					t.Fatal(err)
				}
				ps := w.Positions[w.Offsets[o]:w.Offsets[o+1]]
				p, ok := c.Pos()
				q, _ := ref.Pos()
				if !ok || p != ps[0] || q != p {
					t.Fatalf("%s/%s doc %d: Pos %d %v", nw.name, codec, o, p, ok)
				}
				for k := 0; ok; k++ {
					last := ps[len(ps)-1]
					x := p + 1 + uint32(rng.IntN(int(last-p)/2+3)) // sometimes past the end
					if k%3 == 0 {
						x = p // at or below the current: the next position
					}
					got, gok := c.NextAtLeast(x)
					want, wok := ref.Next()
					for wok && want < x {
						want, wok = ref.Next()
					}
					if gok != wok || (gok && got != want) {
						t.Fatalf("%s/%s doc %d: NextAtLeast(%d) = %d %v, want %d %v", nw.name, codec, o, x, got, gok, want, wok)
					}
					p, ok = got, gok
				}
				if st.SelectedPositions != refSt.SelectedPositions {
					t.Fatalf("%s/%s doc %d: %d positions read, the Next loop reads %d", nw.name, codec, o, st.SelectedPositions, refSt.SelectedPositions)
				}
			}
			cs.Close()
			rs.Close()
		}
	}
}

// TestCursorFailedStaysFailed checks that a cursor that met an error answers
// nothing more: TF takes the slow path (0) and Pos fails, so the fast paths
// never read a half-parsed unit.
func TestCursorFailedStaysFailed(t *testing.T) {
	w := genWindow(rand.New(rand.NewPCG(3, 4)), 300, 1, 4, 50)
	frame := frameOf(t, CodecPFOR, w)
	s := NewSource(limits.Limits{}.Normalize())
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

// TestCursorLazyInflate: a cursor parses a ZSTD unit's tf column without
// inflating it (Stats.Inflated and PlainBytes stay 0 while only term
// frequencies are read), and inflates it once, at its first position read;
// the positions are the window's.
func TestCursorLazyInflate(t *testing.T) {
	for _, nw := range testWindows() {
		w := nw.w
		n := w.Docs()
		frame := frameOf(t, CodecZstd, w)
		var st Stats
		s := NewSource(limits.Limits{}.Normalize())
		s.SetStats(&st)
		var c Cursor
		if err := s.Open(&c, frame, true, n); err != nil {
			t.Fatal(err)
		}
		for o := 0; o < n; o++ {
			tf, err := c.Seek(o)
			if err != nil {
				t.Fatal(err)
			}
			if tf != len(w.Doc(o)) {
				t.Fatalf("%s: doc %d: tf %d, want %d", nw.name, o, tf, len(w.Doc(o)))
			}
		}
		if st.Frames[CodecZstd] == 0 || st.Inflated != 0 || st.PlainBytes != 0 {
			t.Fatalf("%s: tf only: %+v, want zstd units read and none inflated", nw.name, st)
		}
		if err := s.Open(&c, frame, true, n); err != nil {
			t.Fatal(err)
		}
		last := n - 1
		if _, err := c.Seek(last); err != nil {
			t.Fatal(err)
		}
		if !c.Pending() {
			t.Fatalf("%s: a zstd unit whose tf was read: not Pending", nw.name)
		}
		got, err := c.AppendPositions(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, w.Doc(last)) {
			t.Fatalf("%s: doc %d: positions %v, want %v", nw.name, last, got, w.Doc(last))
		}
		if c.Pending() {
			t.Fatalf("%s: Pending after its positions were read", nw.name)
		}
		if st.Inflated != 1 || st.PlainBytes == 0 {
			t.Fatalf("%s: one doc's positions: %d units inflated (%d plain bytes), want 1", nw.name, st.Inflated, st.PlainBytes)
		}
		s.Close()
	}
}

// TestCursorReuse opens one Cursor on every test window in every codec in
// turn, so each Open finds the state another frame left (a located PFOR block
// with exceptions, an unpacked block, an inflated unit): every frequency and
// first position must still be the window's. Open resets the block reader
// field by field, keeping its buffers; a field it forgot would leak from the
// previous frame here.
func TestCursorReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	s := NewSource(limits.Limits{}.Normalize())
	defer s.Close()
	var c Cursor
	for round := range 2 {
		for _, nw := range testWindows() {
			w := nw.w
			n := w.Docs()
			for _, codec := range []Codec{CodecPFOR, CodecRaw, CodecZstd} {
				frame := frameOf(t, codec, w)
				if err := s.Open(&c, frame, true, n); err != nil {
					t.Fatalf("%s/%s: Open: %v", nw.name, codec, err)
				}
				ords := randomOrds(rng, n, max(1, n/(3+round*7)))
				if round == 1 { // start past the first blocks: no walk starts from 0 by itself
					ords = ords[len(ords)/2:]
				}
				for _, o := range ords {
					tf, err := c.Seek(int(o))
					if err != nil {
						t.Fatalf("%s/%s: Seek(%d): %v", nw.name, codec, o, err)
					}
					want := w.Positions[w.Offsets[o]:w.Offsets[o+1]]
					if tf != len(want) {
						t.Fatalf("%s/%s: doc %d: tf %d, want %d", nw.name, codec, o, tf, len(want))
					}
					p, ok := c.Pos()
					if !ok || p != want[0] {
						t.Fatalf("%s/%s: doc %d: first position %d (ok %v), want %d", nw.name, codec, o, p, ok, want[0])
					}
					if o%3 == 0 { // sometimes read on, leaving a block unpacked
						for k := 1; k < len(want); k++ {
							if q, ok := c.Next(); !ok || q != want[k] {
								t.Fatalf("%s/%s: doc %d: position %d is %d (ok %v), want %d", nw.name, codec, o, k, q, ok, want[k])
							}
						}
					}
				}
			}
		}
	}
}
