package prx

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/limits"
)

// mapVerified is a Verified over a map, for tests.
type mapVerified struct {
	mu sync.Mutex
	m  map[int64]bool
}

func (v *mapVerified) Verified(off int64) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.m[off]
}

func (v *mapVerified) MarkVerified(off int64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil {
		v.m = map[int64]bool{}
	}
	v.m[off] = true
}

// readAll reads every document of frame through a cursor opened with OpenAt
// (at offset at, regions recorded in v) and returns its term frequencies and
// positions, and the bytes whose CRC it computed.
func readAll(t *testing.T, frame []byte, docs int, v Verified, at int64) ([]int, [][]uint32, int64, error) {
	t.Helper()
	var st Stats
	s := NewSource(limits.Limits{}.Normalize())
	defer s.Close()
	s.SetStats(&st)
	var c Cursor
	if err := s.OpenAt(&c, frame, true, docs, v, at); err != nil {
		return nil, nil, st.CheckedBytes, err
	}
	var tfs []int
	var pos [][]uint32
	for o := 0; o < docs; o++ {
		tf, err := c.Seek(o)
		if err != nil {
			return nil, nil, st.CheckedBytes, err
		}
		p, err := c.AppendPositions(nil)
		if err != nil {
			return nil, nil, st.CheckedBytes, err
		}
		tfs, pos = append(tfs, tf), append(pos, p)
	}
	return tfs, pos, st.CheckedBytes, nil
}

// TestOpenAtTrusts: a cursor opened with OpenAt computes the CRC of every
// unit (and multi-unit header) it reads the first time and records it; a
// second cursor on the same frame and offset computes none and reads the
// same; at another offset (another region) it computes them again. A
// damaged unit is not recorded, so it fails every time.
func TestOpenAtTrusts(t *testing.T) {
	for _, nw := range testWindows() {
		w := nw.w
		for _, codec := range []Codec{CodecRaw, CodecPFOR, CodecZstd} {
			frame := frameOf(t, codec, w)
			v := &mapVerified{}
			tf1, pos1, c1, err := readAll(t, frame, w.Docs(), v, 1000)
			if err != nil {
				t.Fatal(err)
			}
			tf2, pos2, c2, err := readAll(t, frame, w.Docs(), v, 1000)
			if err != nil {
				t.Fatal(err)
			}
			_, _, c3, err := readAll(t, frame, w.Docs(), v, 5000)
			if err != nil {
				t.Fatal(err)
			}
			if c1 == 0 || c2 != 0 || c3 != c1 {
				t.Errorf("%s/%s: CRC bytes computed %d, then %d at the same offset, %d at another (want some, none, the same again)", nw.name, codec, c1, c2, c3)
			}
			if d := cmp.Diff(tf1, tf2); d != "" {
				t.Errorf("%s/%s: tfs differ when trusted:\n%s", nw.name, codec, d)
			}
			if d := cmp.Diff(pos1, pos2); d != "" {
				t.Errorf("%s/%s: positions differ when trusted:\n%s", nw.name, codec, d)
			}
			// The last byte before the last CRC: inside the last unit.
			bad := append([]byte(nil), frame...)
			bad[len(bad)-CRCSize-1] ^= 0x40
			bv := &mapVerified{}
			for i := range 2 {
				if _, _, _, err := readAll(t, bad, w.Docs(), bv, 1000); !isCorrupt(err) {
					t.Fatalf("%s/%s: damaged frame, read %d: %v (want a corruption error)", nw.name, codec, i+1, err)
				}
			}
		}
	}
}

// TestOpenAtTrustedHeader: a multi-unit header is recorded verified only
// once all its checks pass, its document total included; opened again
// trusted it reads the same, and its total is still checked against the
// window's documents (a header opened with the wrong count is corrupt every
// time, before and after it was recorded).
func TestOpenAtTrustedHeader(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 1))
	w := genWindow(rng, 2000, 1, 8, 300)
	for _, codec := range []Codec{CodecRaw, CodecPFOR, CodecZstd} {
		frame := frameOf(t, codec, w)
		if frame[0] != codecMulti {
			t.Fatalf("%s: the test window is one unit", codec)
		}
		v := &mapVerified{}
		for _, docs := range []int{w.Docs() + 1, w.Docs() - 1} {
			if _, _, _, err := readAll(t, frame, docs, v, 1000); !isCorrupt(err) {
				t.Fatalf("%s: %d docs for %d: %v (want a corruption error)", codec, docs, w.Docs(), err)
			}
		}
		if v.Verified(1000) {
			t.Fatalf("%s: a header whose total failed was recorded verified", codec)
		}
		tf1, pos1, _, err := readAll(t, frame, w.Docs(), v, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if !v.Verified(1000) {
			t.Fatalf("%s: the header read whole was not recorded", codec)
		}
		tf2, pos2, c2, err := readAll(t, frame, w.Docs(), v, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if c2 != 0 {
			t.Errorf("%s: trusted read computed %d CRC bytes", codec, c2)
		}
		if d := cmp.Diff(tf1, tf2); d != "" {
			t.Errorf("%s: tfs differ when the header is trusted:\n%s", codec, d)
		}
		if d := cmp.Diff(pos1, pos2); d != "" {
			t.Errorf("%s: positions differ when the header is trusted:\n%s", codec, d)
		}
		for _, docs := range []int{w.Docs() + 1, w.Docs() - 1} {
			if _, _, _, err := readAll(t, frame, docs, v, 1000); !isCorrupt(err) {
				t.Errorf("%s: trusted header, %d docs for %d: %v (want a corruption error)", codec, docs, w.Docs(), err)
			}
		}
	}
}

// trustAll is a Verified that holds every region verified: the reader of a
// damaged file whose window points at a region verified as another
// window's (a unit, a header, a doc window) trusts bytes it never checked.
type trustAll struct{}

func (trustAll) Verified(int64) bool { return true }
func (trustAll) MarkVerified(int64)  {}

// FuzzCursorTrusted: a cursor that trusts every header and unit of a frame
// it never checked (any bytes, not only a frame that decodes) reads it
// without a panic, and fails only with snii.ErrCorrupt.
func FuzzCursorTrusted(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s, uint16(0))
		f.Add(s, uint16(7))
	}
	src := NewSource(limits.Limits{MaxDocs: 1 << 12, MaxPositions: 1 << 16, MaxBytes: 1 << 20})
	f.Fuzz(func(t *testing.T, frame []byte, docs uint16) {
		var c Cursor
		if err := src.OpenAt(&c, frame, true, int(docs), trustAll{}, 0); err != nil {
			if !errors.Is(err, snii.ErrCorrupt) {
				t.Fatalf("OpenAt: error of another kind: %v", err)
			}
			return
		}
		for o := 0; o < int(docs); o++ {
			if _, err := c.Seek(o); err != nil {
				if !errors.Is(err, snii.ErrCorrupt) {
					t.Fatalf("Seek(%d): error of another kind: %v", o, err)
				}
				return
			}
			if _, err := c.AppendPositions(nil); err != nil {
				if !errors.Is(err, snii.ErrCorrupt) {
					t.Fatalf("doc %d: error of another kind: %v", o, err)
				}
				return
			}
		}
	})
}
