package prx

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/codec/chooser"
)

// oneDocPlain returns a one-doc window of n positions 0, 1, 2, ... whose RAW
// payload is n + 2*(blocks-1) bytes.
func oneDocPlain(n int) *Window { return tfWindow(n) }

// eligibleWindows draws windows whose units are mostly eligible, from very
// repetitive (zstd saves most) to noisy (zstd saves nothing).
func eligibleWindows(rng *rand.Rand, n int) []*Window {
	var out []*Window
	for len(out) < n {
		docs := 100 + rng.IntN(1500)
		period := 1 + rng.IntN(10)
		noise := rng.Float64()
		pattern := make([]uint32, period)
		for i := range pattern {
			pattern[i] = 1 + rng.Uint32N(300)
		}
		w := &Window{}
		var pos []uint32
		for d := 0; d < docs; d++ {
			pos = pos[:0]
			p := uint32(0)
			for i := 0; i < 1+(d%period)+rng.IntN(3); i++ {
				g := pattern[(i+d)%period]
				if rng.Float64() < noise {
					g = rng.Uint32N(20000)
				}
				p += g
				pos = append(pos, p)
			}
			w.AppendDoc(pos)
		}
		out = append(out, w)
	}
	return out
}

// checkUnitChoice checks the codec of every unit of f against the rules, given
// whether the chooser stored zstd for it (storeZstd, for eligible units).
func checkUnitChoice(t *testing.T, w *Window, f Frame, storeZstd func(u Unit) bool) {
	t.Helper()
	var sub Window
	for i, u := range f.Units {
		sz := u.Sizes
		singleton := u.Hi-u.Lo == 1 && u.Positions == 1
		if got := Eligible(w.Slice(u.Lo, u.Hi, &sub)); got != u.Eligible {
			t.Fatalf("unit %d: Eligible() %v, the encoder %v", i, got, u.Eligible)
		}
		switch {
		case singleton:
			if u.Codec != CodecRaw || u.Eligible || sz.PFOROK || sz.PFOR != 0 || sz.ZstdBuilt || sz.Raw != u.Len {
				t.Fatalf("singleton unit %d: %+v", i, u)
			}
		case u.PlainLen < ZstdMinPlain:
			if u.Eligible || sz.ZstdBuilt || sz.Zstd != 0 || !sz.PFOROK {
				t.Fatalf("short unit %d: %+v", i, u)
			}
			want := CodecRaw
			if sz.PFOR <= sz.Raw {
				want = CodecPFOR
			}
			if u.Codec != want {
				t.Fatalf("short unit %d: %s, sizes %+v", i, u.Codec, sz)
			}
		default:
			if !u.Eligible || !sz.ZstdBuilt || !sz.PFOROK {
				t.Fatalf("eligible unit %d: %+v", i, u)
			}
			fast, isPFOR := chooser.FastSize(sz.Raw, sz.PFOR, true)
			want := CodecRaw
			if isPFOR {
				want = CodecPFOR
			}
			if storeZstd(u) {
				want = CodecZstd
			}
			if u.Codec != want {
				t.Fatalf("eligible unit %d: %s, want %s (fast %d, zstd %d)", i, u.Codec, want, fast, sz.Zstd)
			}
		}
		// The stored frame has the size the encoder measured for its codec.
		var s int
		switch u.Codec {
		case CodecRaw:
			s = sz.Raw
		case CodecPFOR:
			s = sz.PFOR
		case CodecZstd:
			s = sz.Zstd
		}
		if s != u.Len {
			t.Fatalf("unit %d: %s frame of %d bytes, Sizes %+v", i, u.Codec, u.Len, sz)
		}
	}
}

// Policy 0 stores the smallest frame of every eligible unit (zstd only when
// strictly smaller), and the fast frame of the others.
func TestChoiceSmallest(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	e := newTestEncoder(t, budget.Policy{Kind: budget.Smallest})
	ws := append(eligibleWindows(rng, 20), testWindowsOnly()...)
	var eligible int64
	var seen [NumCodecs]int
	for _, w := range ws {
		f, err := e.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		checkUnitChoice(t, w, f, func(u Unit) bool {
			fast, _ := chooser.FastSize(u.Sizes.Raw, u.Sizes.PFOR, true)
			return u.Sizes.Zstd < fast
		})
		for _, u := range f.Units {
			seen[u.Codec]++
			if u.Eligible {
				eligible++
			}
		}
	}
	if o := e.Outcome(); o.Budget.Eligible != eligible || o.Budget.Traded != 0 {
		t.Fatalf("outcome %+v, %d eligible units", o.Budget, eligible)
	}
	for c, n := range seen {
		if n == 0 {
			t.Errorf("coverage: no %s unit", Codec(c))
		}
	}
}

func testWindowsOnly() []*Window {
	var out []*Window
	for _, nw := range testWindows() {
		out = append(out, nw.w)
	}
	return out
}

// Singletons are RAW (no PFOR built), alone or as a unit of a larger window.
func TestSingletonIsRaw(t *testing.T) {
	for _, p := range []uint32{0, 1, 127, 128, 1 << 20, MaxPosition} {
		e := newTestEncoder(t, budget.Policy{})
		w := newWindow([]uint32{p})
		f, err := e.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		checkUnitChoice(t, w, f, nil)
		if f.Codec != CodecRaw || f.Eligible || f.Sizes != (Sizes{Raw: len(f.Bytes)}) || len(f.Inline()) != len(f.Bytes)-CRCSize {
			t.Fatalf("singleton %d: %+v", p, f)
		}
		if Eligible(w) {
			t.Fatal("a singleton is eligible")
		}
	}
	// The last unit of {tf 1024, tf 1} is a singleton.
	w := tfWindow(1024, 1)
	e := newTestEncoder(t, budget.Policy{Kind: budget.Smallest})
	f, err := e.Encode(w)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Units) != 2 || f.Units[1].Codec != CodecRaw || f.Units[1].Sizes.PFOROK {
		t.Fatalf("units %+v", f.Units)
	}
	checkUnitChoice(t, w, f, func(u Unit) bool { return u.Sizes.Zstd < min(u.Sizes.Raw, u.Sizes.PFOR) })
}

// The zstd threshold is on the unit's RAW payload: 511 bytes is short, 512 eligible.
func TestZstdThreshold(t *testing.T) {
	for _, c := range []struct{ n, u int }{{504, 510}, {505, 511}, {506, 512}, {507, 513}} {
		w := oneDocPlain(c.n)
		e := newTestEncoder(t, budget.Policy{Kind: budget.Smallest})
		f, err := e.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		if f.PlainLen != c.u {
			t.Fatalf("n %d: PlainLen %d, want %d", c.n, f.PlainLen, c.u)
		}
		eligible := c.u >= ZstdMinPlain
		if f.Eligible != eligible || f.Sizes.ZstdBuilt != eligible || Eligible(w) != eligible {
			t.Fatalf("U=%d: eligible %v, zstd built %v, Eligible() %v", c.u, f.Eligible, f.Sizes.ZstdBuilt, Eligible(w))
		}
		if eligible && f.Codec != CodecZstd { // deltas of 1 compress very well
			t.Fatalf("U=%d: policy 0 stored %s, sizes %+v", c.u, f.Codec, f.Sizes)
		}
		want := int64(0)
		if eligible {
			want = 1
		}
		if got := e.Outcome().Budget.Eligible; got != want {
			t.Fatalf("U=%d: the chooser saw %d units", c.u, got)
		}
	}
}

// Short units take the smaller of PFOR and RAW, PFOR on a tie; the chooser never
// sees them.
func TestShortUnitChoice(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	e := newTestEncoder(t, budget.Policy{Kind: budget.Smallest})
	var pforWins, rawWins, ties int
	for i := 0; i < 4000; i++ {
		w := genWindow(rng, 1+rng.IntN(60), 1, 1+rng.IntN(4), uint32(rng.IntN(1<<uint(rng.IntN(30)))))
		f, err := e.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range f.Units {
			if u.Eligible || u.Hi-u.Lo == 1 && u.Positions == 1 {
				continue
			}
			switch {
			case u.Sizes.PFOR == u.Sizes.Raw:
				ties++
			case u.Codec == CodecPFOR:
				pforWins++
			default:
				rawWins++
			}
		}
		checkUnitChoice(t, w, f, func(u Unit) bool { return u.Sizes.Zstd < min(u.Sizes.Raw, u.Sizes.PFOR) })
	}
	if pforWins == 0 || rawWins == 0 || ties == 0 {
		t.Fatalf("coverage: %d PFOR wins, %d RAW wins, %d ties", pforWins, rawWins, ties)
	}
}

// A fixed share m stores the fast frame when zstd saves less than m percent.
func TestChoiceFixedShare(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	ws := eligibleWindows(rng, 25)
	for _, m := range []int{1, 10, 30, 60, 100} {
		e := newTestEncoder(t, budget.FromPercents(m, 0))
		var traded int64
		for _, w := range ws {
			f, err := e.Encode(w)
			if err != nil {
				t.Fatal(err)
			}
			checkUnitChoice(t, w, f, func(u Unit) bool {
				fast, _ := chooser.FastSize(u.Sizes.Raw, u.Sizes.PFOR, true)
				ev := chooser.Evaluate(fast, u.Sizes.Zstd)
				if ev.ZstdWins && ev.Saving < m {
					traded += int64(ev.Trade)
				}
				return ev.ZstdWins && ev.Saving >= m
			})
		}
		if o := e.Outcome().Budget; o.Traded != traded || o.FinalShare != m {
			t.Fatalf("m=%d: outcome %+v, traded %d", m, o, traded)
		}
	}
}

// Under the budget, after every window, the bytes traded stay within P% of the
// eligible units' smallest frames, in any order of the windows; and the encoder's
// decisions are exactly those of a chooser.Chooser fed the same units.
func TestBudgetBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	ws := eligibleWindows(rng, 60)
	// Order the windows by the zstd saving of their frames under policy 0.
	saving := map[*Window]int{}
	{
		e := newTestEncoder(t, budget.Policy{Kind: budget.Smallest})
		for _, w := range ws {
			f, err := e.Encode(w)
			if err != nil {
				t.Fatal(err)
			}
			var fast, z int
			for _, u := range f.Units {
				if u.Eligible {
					fs, _ := chooser.FastSize(u.Sizes.Raw, u.Sizes.PFOR, true)
					fast, z = fast+fs, z+min(fs, u.Sizes.Zstd)
				}
			}
			saving[w] = 100 * (fast - z) / max(fast, 1)
		}
	}
	orders := map[string][]*Window{"ascending": slices.Clone(ws), "descending": slices.Clone(ws), "shuffled": slices.Clone(ws)}
	sort.SliceStable(orders["ascending"], func(i, j int) bool { return saving[orders["ascending"][i]] < saving[orders["ascending"][j]] })
	sort.SliceStable(orders["descending"], func(i, j int) bool { return saving[orders["descending"][i]] > saving[orders["descending"][j]] })
	rng.Shuffle(len(ws), func(i, j int) {
		orders["shuffled"][i], orders["shuffled"][j] = orders["shuffled"][j], orders["shuffled"][i]
	})
	for _, pct := range []int{0, 5, 8, 20, 100} {
		for name, order := range orders {
			p := budget.FromPercents(-1, pct)
			e := newTestEncoder(t, p)
			ch, err := chooser.New(p)
			if err != nil {
				t.Fatal(err)
			}
			var traded int
			for _, w := range order {
				f, err := e.Encode(w)
				if err != nil {
					t.Fatal(err)
				}
				checkUnitChoice(t, w, f, func(u Unit) bool {
					fast, _ := chooser.FastSize(u.Sizes.Raw, u.Sizes.PFOR, true)
					z, _ := ch.Choose(fast, u.Sizes.Zstd)
					return z
				})
				o := e.Outcome().Budget
				if 100*o.Traded > int64(pct)*o.SumSmallest {
					t.Fatalf("P=%d %s: traded %d over %d%% of %d", pct, name, o.Traded, pct, o.SumSmallest)
				}
				if o != ch.Outcome() {
					t.Fatalf("P=%d %s: encoder %+v, chooser %+v", pct, name, o, ch.Outcome())
				}
				if o.TradedCount > 0 {
					traded++
				}
			}
			if pct >= 8 && traded == 0 {
				t.Errorf("P=%d %s: coverage: nothing traded", pct, name)
			}
		}
	}
}

// Eligible agrees with Encode for single-unit windows and for every unit.
func TestEligibleAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	e := newTestEncoder(t, budget.Policy{})
	var yes, no int
	for i := 0; i < 2000; i++ {
		w := genWindow(rng, 1+rng.IntN(300), 1, 1+rng.IntN(6), uint32(rng.IntN(3000)))
		f, err := e.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Units) == 1 {
			if Eligible(w) != f.Eligible {
				t.Fatalf("Eligible %v, Encode %v (plain %d)", Eligible(w), f.Eligible, f.PlainLen)
			}
			if f.Eligible {
				yes++
			} else {
				no++
			}
		}
		checkUnitChoice(t, w, f, func(u Unit) bool { return u.Codec == CodecZstd })
	}
	if yes == 0 || no == 0 {
		t.Fatalf("coverage: %d eligible, %d not", yes, no)
	}
	if Eligible(&Window{}) {
		t.Fatal("an empty window is eligible")
	}
}

// Sizes are exact: each equals the length of the frame EncodeCodec builds for that
// codec, and the formulas of the format.
func TestExactSizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	ws := append(testWindowsOnly(), eligibleWindows(rng, 10)...)
	e := newTestEncoder(t, budget.Policy{Kind: budget.Smallest})
	fe := newTestEncoder(t, budget.Policy{Kind: budget.Smallest})
	var sub Window
	for _, w := range ws {
		f, err := e.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range slices.Clone(f.Units) {
			uw := w.Slice(u.Lo, u.Hi, &sub)
			vals, tfs := refStream(w, u.Lo, u.Hi)
			docs := uint32(u.Hi - u.Lo)
			U := len(refRawPayload(vals))
			tfRaw := 0
			for _, v := range tfs {
				tfRaw += bitpack.UvarintLen32(v)
			}
			tfPacked := len(refPackedColumn(nil, tfs))
			P := len(refPackedColumn(nil, vals))
			raw := 1 + bitpack.UvarintLen32(docs) + tfRaw + bitpack.UvarintLen32(uint32(U)) + U + 4
			pfor := 1 + bitpack.UvarintLen32(docs) + tfPacked + bitpack.UvarintLen32(uint32(P)) + P + 4
			for _, c := range allCodecs {
				g, err := fe.EncodeCodec(uw, c)
				if err != nil {
					t.Fatal(err)
				}
				var got, formula int
				switch c {
				case CodecRaw:
					got, formula = u.Sizes.Raw, raw
				case CodecPFOR:
					got, formula = u.Sizes.PFOR, pfor
					if !u.Sizes.PFOROK {
						continue
					}
				case CodecZstd:
					if !u.Sizes.ZstdBuilt {
						continue
					}
					C := len(refZstd(t, refRawPayload(vals)))
					got, formula = u.Sizes.Zstd, 1+bitpack.UvarintLen32(docs)+tfPacked+bitpack.UvarintLen32(uint32(U))+bitpack.UvarintLen32(uint32(C))+C+4
				}
				if got != len(g.Bytes) || got != formula || g.Sizes.Raw+g.Sizes.PFOR+g.Sizes.Zstd != len(g.Bytes) {
					t.Fatalf("%s: Sizes %d, frame %d, formula %d (EncodeCodec Sizes %+v)", c, got, len(g.Bytes), formula, g.Sizes)
				}
			}
		}
	}
}

// Outcome counts units and bytes per codec, multi-unit windows and header bytes;
// EncodeCodec counts nothing.
func TestOutcomeCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	e := newTestEncoder(t, budget.Policy{})
	var want Outcome
	for _, w := range append(testWindowsOnly(), eligibleWindows(rng, 10)...) {
		if _, err := e.EncodeCodec(w, CodecZstd); err != nil {
			t.Fatal(err)
		}
		f, err := e.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range f.Units {
			want.Windows[u.Codec]++
			want.Bytes[u.Codec] += int64(u.Len)
		}
		if len(f.Units) > 1 {
			want.MultiUnit++
			want.HeaderBytes += int64(f.Units[0].Off)
		}
	}
	o := e.Outcome()
	if o.Windows != want.Windows || o.Bytes != want.Bytes || o.MultiUnit != want.MultiUnit || o.HeaderBytes != want.HeaderBytes || want.MultiUnit == 0 {
		t.Fatalf("outcome %+v, want %+v", o, want)
	}
}
