package prx

import (
	"math/rand/v2"
	"testing"

	"github.com/snii-go/snii/budget"
)

// windowWithPlain returns a window whose plain payload is exactly u bytes (u >= 3):
// one doc whose positions are all 0 except the last, padded as needed.
func windowWithPlain(t *testing.T, u int) *Window {
	t.Helper()
	// doc_count (1) + pos_count (vlen n) + n single-byte deltas.
	for n := 1; n < u; n++ {
		if 1+uvarintLen32(uint32(n))+n == u {
			pos := make([]uint32, n)
			for i := range pos {
				pos[i] = uint32(i) // deltas of 1 after the first 0: one byte each
			}
			w := newWindow(pos)
			if PlainSize(w) != u {
				t.Fatalf("plain size %d, want %d", PlainSize(w), u)
			}
			return w
		}
	}
	t.Fatalf("no window with plain size %d", u)
	return nil
}

func TestZstdThreshold(t *testing.T) {
	for _, u := range []int{510, 511, 512, 513} {
		// A single doc with many positions: zstd compresses it well (all deltas 1).
		w := windowWithPlain(t, u)
		e := newTestEncoder(t, budget.Policy{})
		f, err := e.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		eligible := u >= ZstdMinPlain
		if f.Eligible != eligible || f.Sizes.ZstdBuilt != eligible {
			t.Fatalf("U=%d: eligible %v, zstd built %v; want %v", u, f.Eligible, f.Sizes.ZstdBuilt, eligible)
		}
		if eligible && f.Codec != CodecZstd {
			t.Fatalf("U=%d: policy 0 stored %s, sizes %+v", u, f.Codec, f.Sizes)
		}
		if !eligible && f.Codec == CodecZstd {
			t.Fatalf("U=%d: zstd below the threshold", u)
		}
		if got := e.Outcome().Budget.Eligible; got != map[bool]int64{true: 1, false: 0}[eligible] {
			t.Fatalf("U=%d: chooser saw %d windows", u, got)
		}
		if f.PlainLen != u {
			t.Fatalf("PlainLen %d, want %d", f.PlainLen, u)
		}
	}
}

func TestSingletonIsRaw(t *testing.T) {
	for _, p := range []uint32{0, 1, 127, 128, 1 << 20, maxUint32} {
		e := newTestEncoder(t, budget.DefaultPolicy())
		f, err := e.Encode(newWindow([]uint32{p}))
		if err != nil {
			t.Fatal(err)
		}
		if f.Codec != CodecRaw || f.Eligible || f.Sizes.PFOR != 0 || f.Sizes.PFOROK || f.Sizes.ZstdBuilt {
			t.Fatalf("singleton %d: %+v", p, f)
		}
		if len(f.Inline()) != len(f.Bytes)-4 || f.Sizes.Raw != len(f.Bytes) {
			t.Fatalf("singleton %d: sizes %+v, frame %d bytes", p, f.Sizes, len(f.Bytes))
		}
	}
}

// Short windows (U < 512) take the smaller of PFOR and RAW.
func TestShortWindowChoice(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	e := newTestEncoder(t, budget.Policy{})
	pforWins, rawWins, eligible := 0, 0, int64(0)
	for i := 0; i < 3000; i++ {
		docs := 1 + rng.IntN(300)
		w := genWindow(rng, docs, 0, 1+rng.IntN(3), uint32(rng.IntN(200)))
		f, err := e.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		if f.PlainLen >= ZstdMinPlain {
			eligible++
			continue
		}
		if docs == 1 && len(w.Positions) == 1 {
			continue
		}
		if f.Eligible || f.Sizes.ZstdBuilt || f.Codec == CodecZstd {
			t.Fatalf("short window went to zstd: %+v", f.Sizes)
		}
		sz := f.Sizes
		want, wantLen := CodecRaw, sz.Raw
		if sz.PFOROK && sz.PFOR <= sz.Raw {
			want, wantLen = CodecPFOR, sz.PFOR
		}
		if f.Codec != want || len(f.Bytes) != wantLen {
			t.Fatalf("chose %s (%d bytes), sizes %+v", f.Codec, len(f.Bytes), sz)
		}
		if f.Codec == CodecPFOR {
			pforWins++
		} else {
			rawWins++
		}
	}
	if pforWins == 0 || rawWins == 0 {
		t.Fatalf("coverage: %d PFOR wins, %d RAW wins", pforWins, rawWins)
	}
	if o := e.Outcome(); o.Budget.Eligible != eligible {
		t.Fatalf("chooser saw %d windows, %d were eligible", o.Budget.Eligible, eligible)
	}
}

// tieWindow returns 128 one-position docs with m large deltas (14 bits, at least one
// per 32-value group so every group is 14 bits wide) and small ones elsewhere: the
// PFOR frame size does not depend on m, the RAW frame grows by one byte per large delta.
func tieWindow(m int) *Window {
	w := &Window{}
	big := 0
	for i := 0; i < 128; i++ {
		p := uint32(1)
		if i%32 != 0 && big < m && (i%32 <= (m+3)/4) {
			p = 8192 + uint32(i)
			big++
		}
		w.AppendDoc([]uint32{p})
	}
	return w
}

func TestPFORRawTieIsPFOR(t *testing.T) {
	e := newTestEncoder(t, budget.Policy{})
	found := false
	for m := 4; m < 100; m++ {
		f, err := e.Encode(tieWindow(m))
		if err != nil {
			t.Fatal(err)
		}
		sz := f.Sizes
		if !sz.PFOROK || f.PlainLen >= ZstdMinPlain {
			t.Fatalf("m=%d: sizes %+v, plain %d", m, sz, f.PlainLen)
		}
		if sz.PFOR == sz.Raw {
			found = true
			if f.Codec != CodecPFOR {
				t.Fatalf("tie at %d bytes stored %s", sz.Raw, f.Codec)
			}
		}
	}
	if !found {
		t.Fatal("no PFOR/RAW tie constructed")
	}
}

// eligibleWindows generates windows with U >= 512 and varied zstd savings.
func eligibleWindows(rng *rand.Rand, n int) []*Window {
	var ws []*Window
	for len(ws) < n {
		docs := 60 + rng.IntN(400)
		var w *Window
		if rng.IntN(2) == 0 {
			w = genWindow(rng, docs, 1, 1+rng.IntN(8), uint32(1)<<rng.IntN(16))
		} else { // repetitive: zstd shrinks it a lot
			w = &Window{}
			pat := genWindow(rng, 1+rng.IntN(8), 1, 4, 300)
			for d := 0; d < docs; d++ {
				w.AppendDoc(pat.Doc(d % pat.Docs()))
			}
		}
		if PlainSize(w) >= ZstdMinPlain {
			ws = append(ws, w)
		}
	}
	return ws
}

func TestPolicySmallestGivesSmallestFrame(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	e := newTestEncoder(t, budget.Policy{MinSavingPercent: 0})
	var zstdWins, fastWins int
	for _, w := range eligibleWindows(rng, 400) {
		f, err := e.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		sz := f.Sizes
		smallest := sz.Raw
		if sz.PFOROK {
			smallest = min(smallest, sz.PFOR)
		}
		smallest = min(smallest, sz.Zstd)
		if !f.Eligible || len(f.Bytes) != smallest {
			t.Fatalf("stored %s of %d bytes, sizes %+v", f.Codec, len(f.Bytes), sz)
		}
		if f.Codec == CodecZstd {
			zstdWins++
		} else {
			fastWins++
		}
	}
	if zstdWins == 0 || fastWins == 0 {
		t.Fatalf("coverage: zstd %d, fast %d", zstdWins, fastWins)
	}
	if o := e.Outcome(); o.Budget.Traded != 0 {
		t.Fatalf("policy 0 traded %d bytes", o.Budget.Traded)
	}
}

func TestFixedShare(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	const share = 30
	e := newTestEncoder(t, budget.Policy{MinSavingPercent: share})
	traded := 0
	for _, w := range eligibleWindows(rng, 400) {
		f, err := e.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		sz := f.Sizes
		fast, isPFOR := budget.FastSize(sz.Raw, sz.PFOR, sz.PFOROK)
		ev := budget.Evaluate(fast, sz.Zstd)
		want := CodecZstd
		if !ev.ZstdWins || ev.Saving < share {
			want = CodecRaw
			if isPFOR {
				want = CodecPFOR
			}
		}
		if f.Codec != want {
			t.Fatalf("stored %s, want %s (eval %+v)", f.Codec, want, ev)
		}
		if ev.ZstdWins && want != CodecZstd {
			traded++
		}
	}
	if traded == 0 {
		t.Fatal("no window traded: test data does not cover the share")
	}
	if o := e.Outcome(); o.Budget.TradedCount != int64(traded) || o.Budget.FinalShare != share {
		t.Fatalf("outcome %+v, want %d traded", o.Budget, traded)
	}
}

func TestBudgetBoundAndOutcome(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	e := newTestEncoder(t, budget.DefaultPolicy())
	var windows, bytes [NumCodecs]int64
	ws := append(eligibleWindows(rng, 300), testWindowsList()...)
	for _, w := range ws {
		f, err := e.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		windows[f.Codec]++
		bytes[f.Codec] += int64(len(f.Bytes))
		o := e.Outcome().Budget
		if 100*o.Traded > int64(budget.DefaultBudgetPercent)*o.SumSmallest {
			t.Fatalf("budget spent %d of %d smallest bytes", o.Traded, o.SumSmallest)
		}
	}
	o := e.Outcome()
	if o.Windows != windows || o.Bytes != bytes {
		t.Fatalf("outcome %v/%v, frames %v/%v", o.Windows, o.Bytes, windows, bytes)
	}
	if o.Budget.Eligible == 0 || o.Budget.Policy != budget.DefaultPolicy() {
		t.Fatalf("budget outcome %+v", o.Budget)
	}
}

func testWindowsList() []*Window {
	var ws []*Window
	m := testWindows()
	for _, n := range sortedNames(m) {
		ws = append(ws, m[n])
	}
	return ws
}

// The same windows give the same bytes (the segment invariants rely on it).
func TestEncoderDeterministic(t *testing.T) {
	ws := eligibleWindows(rand.New(rand.NewPCG(19, 20)), 100)
	run := func() [][]byte {
		e := newTestEncoder(t, budget.DefaultPolicy())
		var out [][]byte
		for _, w := range ws {
			f, err := e.Encode(w)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, append([]byte(nil), f.Bytes...))
		}
		return out
	}
	a, b := run(), run()
	for i := range a {
		if string(a[i]) != string(b[i]) {
			t.Fatalf("window %d encoded differently", i)
		}
	}
}

func TestNewEncoderOptions(t *testing.T) {
	for _, o := range []EncoderOptions{
		{ZstdLevel: 5},
		{ZstdLevel: -1},
		{Policy: budget.Policy{MinSavingPercent: 101}},
		{Policy: budget.Policy{MinSavingPercent: -1, BudgetPercent: 200}},
		{Limits: Limits{MaxDocs: DefaultMaxDocs + 1}},
	} {
		if _, err := NewEncoder(o); !isInvalid(err) {
			t.Errorf("NewEncoder(%+v) = %v, want ErrInvalidArgument", o, err)
		}
	}
	for lvl := 0; lvl <= 4; lvl++ {
		e, err := NewEncoder(EncoderOptions{ZstdLevel: lvl, Policy: budget.DefaultPolicy()})
		if err != nil {
			t.Fatal(err)
		}
		w := eligibleWindows(rand.New(rand.NewPCG(1, uint64(lvl))), 1)[0]
		if _, err := e.EncodeCodec(w, CodecZstd); err != nil {
			t.Fatalf("level %d: %v", lvl, err)
		}
		e.Close()
		e.Close()
		if _, err := e.Encode(w); !isClosed(err) {
			t.Fatalf("Encode after Close: %v", err)
		}
	}
}

// Eligible classifies a window exactly as Encode does, around both fast paths.
func TestEligibleMatchesEncode(t *testing.T) {
	enc, err := NewEncoder(EncoderOptions{Policy: budget.DefaultPolicy()})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	rng := rand.New(rand.NewPCG(11, 12))
	windows := []*Window{newWindow([]uint32{7}), newWindow([]uint32{7, 9}), newWindow([]uint32{1}, []uint32{2})}
	for i := 0; i < 400; i++ {
		windows = append(windows, genWindow(rng, 1+rng.IntN(300), 1, 1+rng.IntN(6), uint32(rng.IntN(5000))))
	}
	near := 0
	for _, w := range windows {
		f, err := enc.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		if got := Eligible(w); got != f.Eligible {
			t.Fatalf("Eligible = %v, Encode says %v (docs %d, positions %d, plain %d)", got, f.Eligible, w.Docs(), len(w.Positions), PlainSize(w))
		}
		if p := PlainSize(w); p >= ZstdMinPlain-64 && p < ZstdMinPlain+64 {
			near++
		}
	}
	if near == 0 {
		t.Fatal("no window near the 512-byte threshold: the test does not probe the boundary")
	}
}
