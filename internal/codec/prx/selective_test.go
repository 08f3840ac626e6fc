package prx

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/limits"
)

// expectStats computes, from the window and the encoder's unit table, what one
// decode of f must add to the stats (all but DecodeNanos): ords nil with full for
// Decode. A selective decode of a multi-unit window reads only the units holding a
// selected doc; a single-unit window's unit is always read. In a unit read, the
// blocks decoded are those holding a value of a selected doc, found from the tf
// prefix sums.
func expectStats(w *Window, f Frame, ords []uint32, full bool) Stats {
	var s Stats
	s.Windows = 1
	s.TotalDocs = int64(w.Docs())
	if len(f.Units) > 1 {
		s.FrameBytes = int64(f.Units[0].Off)
	}
	if full {
		ords = allOrds(w.Docs())
	}
	k := 0
	for i, u := range f.Units {
		e := k
		for e < len(ords) && int(ords[e]) < u.Hi {
			e++
		}
		sel := ords[k:e]
		k = e
		if len(sel) == 0 && len(f.Units) > 1 {
			continue
		}
		s.Frames[u.Codec]++
		if u.Codec == CodecZstd {
			s.Inflated++
		}
		s.FrameBytes += int64(u.Len)
		if u.Codec != CodecPFOR {
			s.PlainBytes += int64(u.PlainLen)
		}
		s.TotalPositions += int64(u.Positions)
		base := w.Offsets[u.Lo]
		total := int(w.Offsets[u.Hi] - base)
		blocks := map[int]bool{}
		for _, o := range sel {
			lo, hi := int(w.Offsets[o]-base), int(w.Offsets[o+1]-base)
			for b := lo / bitpack.BlockLen; b <= (hi-1)/bitpack.BlockLen; b++ {
				blocks[b] = true
			}
			s.SelectedDocs++
			s.SelectedPositions += int64(hi - lo)
		}
		for b := range blocks {
			s.Blocks++
			s.DecodedPositions += int64(min(bitpack.BlockLen, total-b*bitpack.BlockLen))
		}
		_ = i
	}
	return s
}

// decodeStats runs one decode with fresh stats and returns them (DecodeNanos cleared).
func decodeStats(t *testing.T, src *Source, frame []byte, ords []uint32, full bool, dst *Window) Stats {
	t.Helper()
	var st Stats
	src.SetStats(&st)
	defer src.SetStats(nil)
	var err error
	if full {
		_, err = src.Decode(frame, true, dst)
	} else {
		_, err = src.DecodeSelected(frame, true, ords, dst)
	}
	if err != nil {
		t.Fatal(err)
	}
	st.DecodeNanos = 0
	return st
}

// selections returns the named selections of the selective matrix for n docs.
func selections(rng *rand.Rand, n int) map[string][]uint32 {
	var odd, even []uint32
	for i := 0; i < n; i++ {
		if i%2 == 1 {
			odd = append(odd, uint32(i))
		} else {
			even = append(even, uint32(i))
		}
	}
	firstLast := []uint32{0, uint32(n - 1)}
	if n == 1 {
		firstLast = firstLast[:1]
	}
	return map[string][]uint32{
		"none":        nil,
		"first":       {0},
		"last":        {uint32(n - 1)},
		"first-last":  firstLast,
		"all":         allOrds(n),
		"every-other": odd,
		"even":        even,
		"random-3":    randomOrds(rng, n, 3),
		"random-10%":  randomOrds(rng, n, max(1, n/10)),
		"random-half": randomOrds(rng, n, max(1, n/2)),
	}
}

// The selective matrix: every test window, every codec (forced and chosen), every
// selection; the result equals the oracle, the units read are exactly those
// holding a selected doc, and the stats are exact.
func TestSelectiveMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	src := NewSource(limits.Limits{})
	defer src.Close()
	e := newTestEncoder(t, budget.Policy{})
	var got Window
	for _, nw := range testWindows() {
		w := nw.w
		frames := map[string]Frame{}
		for _, c := range allCodecs {
			f, err := e.EncodeCodec(w, c)
			if err != nil {
				t.Fatal(err)
			}
			frames[c.String()] = cloneFrame(f)
		}
		f, err := e.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		frames["chosen"] = cloneFrame(f)
		for fname, f := range frames {
			for sname, ords := range selections(rng, w.Docs()) {
				st := decodeStats(t, src, f.Bytes, ords, false, &got)
				if d := diffWindow(oracleSelect(w, ords), &got); d != "" {
					t.Fatalf("%s %s %s: (-want +got)\n%s", nw.name, fname, sname, d)
				}
				if want := expectStats(w, f, ords, false); st != want {
					t.Fatalf("%s %s %s: stats\n got %+v\nwant %+v", nw.name, fname, sname, st, want)
				}
				if src.WindowDocs() != w.Docs() {
					t.Fatalf("%s %s %s: WindowDocs %d", nw.name, fname, sname, src.WindowDocs())
				}
				// Units(): the units holding a selected doc (the only unit of a
				// single-unit window).
				var want []int
				for i, u := range f.Units {
					for _, o := range ords {
						if int(o) >= u.Lo && int(o) < u.Hi {
							want = append(want, i)
							break
						}
					}
				}
				if len(f.Units) == 1 {
					want = []int{0}
				}
				units := src.Units()
				if len(units) != len(want) {
					t.Fatalf("%s %s %s: %d units read, want %d", nw.name, fname, sname, len(units), len(want))
				}
				for j, i := range want {
					if units[j].Lo != f.Units[i].Lo || units[j].Hi != f.Units[i].Hi || units[j].Codec != f.Units[i].Codec {
						t.Fatalf("%s %s %s: unit %+v read, want %+v", nw.name, fname, sname, units[j], f.Units[i])
					}
				}
			}
			st := decodeStats(t, src, f.Bytes, nil, true, &got)
			if want := expectStats(w, f, nil, true); st != want {
				t.Fatalf("%s %s full: stats\n got %+v\nwant %+v", nw.name, fname, st, want)
			}
			if st.DecodedPositions != int64(len(w.Positions)) || st.SelectedPositions != int64(len(w.Positions)) {
				t.Fatalf("%s %s full: %+v", nw.name, fname, st)
			}
		}
	}
}

func cloneFrame(f Frame) Frame {
	f.Bytes = slices.Clone(f.Bytes)
	f.Units = slices.Clone(f.Units)
	return f
}

// Ordinals out of order or repeated are snii.ErrInvalidArgument; an ordinal at or above
// the window's doc count is snii.ErrCorrupt; dst is reset on error and the stats unchanged.
func TestSelectiveErrors(t *testing.T) {
	src := NewSource(limits.Limits{})
	defer src.Close()
	var st Stats
	src.SetStats(&st)
	rng := rand.New(rand.NewPCG(43, 44))
	for _, w := range []*Window{genWindow(rng, 40, 1, 3, 10), genWindow(rng, 3000, 1, 3, 10)} {
		for _, c := range allCodecs {
			f := frameOf(t, c, w)
			n := uint32(w.Docs())
			for _, ords := range [][]uint32{{2, 1}, {1, 1}, {0, 5, 5}, {3, 2, 7}} {
				dst := *newWindow([]uint32{1})
				if _, err := src.DecodeSelected(f, true, ords, &dst); !isInvalid(err) {
					t.Fatalf("%s ords %v: %v", c, ords, err)
				}
				if dst.Docs() != 0 || src.WindowDocs() != 0 {
					t.Fatal("dst not reset")
				}
			}
			for _, ords := range [][]uint32{{n}, {0, n}, {n - 1, n + 100}, {1 << 31}} {
				dst := *newWindow([]uint32{1})
				if _, err := src.DecodeSelected(f, true, ords, &dst); !isCorrupt(err) {
					t.Fatalf("%s ords %v of %d docs: %v", c, ords, n, err)
				}
				if dst.Docs() != 0 || src.WindowDocs() != 0 {
					t.Fatal("dst not reset")
				}
			}
		}
	}
	if st != (Stats{}) {
		t.Fatalf("failed decodes were counted: %+v", st)
	}
}

// The example of the issue: 2000 docs of tf 1 (units of UnitValues docs, the
// last one of the rest); three docs of the first unit in different blocks
// decode three blocks of 128 values.
func TestStatsThreeBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	w := genWindow(rng, 2000, 1, 1, 50)
	src := NewSource(limits.Limits{})
	defer src.Close()
	var got Window
	last := 2000 % UnitValues // docs of the last unit
	for _, c := range allCodecs {
		f := frameOf(t, c, w)
		st := decodeStats(t, src, f, []uint32{5, 200, 400}, false, &got)
		var frames [NumCodecs]int64
		frames[c] = 1
		if st.Blocks != 3 || st.DecodedPositions != 3*128 || st.Frames != frames || st.SelectedPositions != 3 || st.TotalPositions != UnitValues || st.TotalDocs != 2000 || st.SelectedDocs != 3 {
			t.Fatalf("%s: %+v", c, st)
		}
		// One doc in the first unit and one in the last: both units, one
		// block each; the last block of the last unit holds what its last
		// full block leaves.
		st = decodeStats(t, src, f, []uint32{0, 1999}, false, &got)
		frames[c] = 2
		if st.Blocks != 2 || st.DecodedPositions != int64(128+(last-1)%128+1) || st.Frames != frames || st.TotalPositions != int64(UnitValues+last) {
			t.Fatalf("%s: %+v", c, st)
		}
	}
}

// The counter gate: on large windows (1024 docs x 30 positions: units of
// UnitValues/30 docs, 4 blocks each), a selective decode of k docs decodes only the blocks
// holding them, never the whole window, and only the units holding them are read
// (for ZSTD: inflated).
func TestCounterGate(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	w := genWindow(rng, 1024, 30, 30, 25)
	wide := genWindow(rng, 1024, 1, 60, 25) // varied tf: blocks straddle docs
	src := NewSource(limits.Limits{})
	defer src.Close()
	var got Window
	for _, win := range []*Window{w, wide} {
		e := newTestEncoder(t, budget.Policy{Kind: budget.Smallest})
		for _, c := range allCodecs {
			fr, err := e.EncodeCodec(win, c)
			if err != nil {
				t.Fatal(err)
			}
			f := cloneFrame(fr)
			if per := UnitValues / 30; win == w && len(f.Units) != (1024+per-1)/per {
				t.Fatalf("%d units", len(f.Units))
			}
			totalBlocks := int64(0)
			for _, u := range f.Units {
				totalBlocks += int64((u.Positions + bitpack.BlockLen - 1) / bitpack.BlockLen)
			}
			for _, k := range []int{1, 2, 5, 10, 30} {
				for rep := 0; rep < 5; rep++ {
					ords := randomOrds(rng, win.Docs(), k)
					st := decodeStats(t, src, f.Bytes, ords, false, &got)
					if d := diffWindow(oracleSelect(win, ords), &got); d != "" {
						t.Fatalf("%s k=%d: (-want +got)\n%s", c, k, d)
					}
					want := expectStats(win, f, ords, false)
					if st != want {
						t.Fatalf("%s k=%d: stats\n got %+v\nwant %+v", c, k, st, want)
					}
					// Each selected doc (at most 60 values) touches at most 2 blocks.
					if st.Blocks > int64(2*k) || st.Blocks >= totalBlocks || st.DecodedPositions >= int64(len(win.Positions)) {
						t.Fatalf("%s k=%d: %d of %d blocks, %d of %d positions decoded", c, k, st.Blocks, totalBlocks, st.DecodedPositions, len(win.Positions))
					}
					touched := int64(0)
					for _, n := range st.Frames {
						touched += n
					}
					if touched > int64(k) || st.Frames[c] != touched {
						t.Fatalf("%s k=%d: units read %v", c, k, st.Frames)
					}
				}
			}
			// A full decode decodes every block.
			if st := decodeStats(t, src, f.Bytes, nil, true, &got); st.Blocks != totalBlocks || st.Frames[c] != int64(len(f.Units)) {
				t.Fatalf("%s full: %+v", c, st)
			}
		}
	}
}

// Stats.Add sums every field; stats are opt-in and a nil Stats reads no clock.
func TestStatsAdd(t *testing.T) {
	a := Stats{Windows: 1, Frames: [NumCodecs]int64{1, 2, 3}, FrameBytes: 4, PlainBytes: 5, TotalDocs: 6, SelectedDocs: 7,
		TotalPositions: 8, Blocks: 9, DecodedPositions: 10, SelectedPositions: 11, DecodeNanos: 12}
	b := a
	b.Add(&a)
	want := Stats{Windows: 2, Frames: [NumCodecs]int64{2, 4, 6}, FrameBytes: 8, PlainBytes: 10, TotalDocs: 12, SelectedDocs: 14,
		TotalPositions: 16, Blocks: 18, DecodedPositions: 20, SelectedPositions: 22, DecodeNanos: 24}
	if b != want {
		t.Fatalf("%+v", b)
	}
}
