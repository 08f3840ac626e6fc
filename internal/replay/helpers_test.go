package replay

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/codec/prx/capture"
	"github.com/snii-go/snii/limits"
)

// genWindows draws n windows of mixed shapes: singletons, small windows (fast
// path), and eligible windows whose zstd saving ranges from none to most.
func genWindows(seed uint64, n int) []prx.Window {
	r := rand.New(rand.NewPCG(seed, 7))
	out := make([]prx.Window, 0, n)
	for len(out) < n {
		var w prx.Window
		switch k := r.IntN(10); {
		case k == 0: // singleton
			w.AppendDoc([]uint32{r.Uint32N(1000)})
		case k <= 2: // small window
			for range 1 + r.IntN(8) {
				w.AppendDoc(ascending(r, 1+r.IntN(4), 50))
			}
		default: // eligible: repetitiveness decides how much zstd saves
			docs := 16 + r.IntN(100)
			period := 1 + r.IntN(12) // small period: very repetitive
			noise := r.Float64()     // share of random gaps
			pattern := make([]uint32, period)
			for i := range pattern {
				pattern[i] = 1 + r.Uint32N(40)
			}
			for d := range docs {
				cnt := 1 + (d % period) + r.IntN(3)
				pos := make([]uint32, cnt)
				p := uint32(0)
				for i := range pos {
					g := pattern[(i+d)%period]
					if r.Float64() < noise {
						g = r.Uint32N(5000)
					}
					p += g
					pos[i] = p
				}
				w.AppendDoc(pos)
			}
		}
		out = append(out, w)
	}
	return out
}

func ascending(r *rand.Rand, n int, gap uint32) []uint32 {
	out := make([]uint32, n)
	p := uint32(0)
	for i := range out {
		p += r.Uint32N(gap)
		out[i] = p
	}
	return out
}

// captureOf encodes wins with a prx.Encoder under policy p (as the writer does),
// captures them, records the encoder's outcome, and returns the capture bytes.
func captureOf(t testing.TB, wins []prx.Window, p budget.Policy, all bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	cw, err := capture.NewWriter(&buf, capture.WriterOptions{All: all})
	if err != nil {
		t.Fatal(err)
	}
	idx, err := cw.AddIndex(capture.IndexInfo{Name: "body", Known: true, Policy: p, ZstdLevel: 0, Limits: limits.Limits{}.Normalize()})
	if err != nil {
		t.Fatal(err)
	}
	enc, err := prx.NewEncoder(prx.EncoderOptions{Policy: p})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	for i := range wins {
		f, err := enc.Encode(&wins[i])
		if err != nil {
			t.Fatal(err)
		}
		if err := cw.Encoded(idx, &wins[i], f); err != nil { // one record per unit
			t.Fatal(err)
		}
	}
	out := enc.Outcome()
	if err := cw.SetOutcome(idx, capture.Outcome{Windows: out.Windows, Bytes: out.Bytes, Budget: out.Budget}); err != nil {
		t.Fatal(err)
	}
	if err := cw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func loadOne(t testing.TB, data []byte) *Set {
	t.Helper()
	sets, err := Load(bytes.NewReader(data), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) != 1 {
		t.Fatalf("%d sets, want 1", len(sets))
	}
	return sets[0]
}

var testPolicies = []budget.Policy{
	budget.FromPercents(0, 8),
	budget.FromPercents(1, 8),
	budget.FromPercents(30, 8),
	budget.FromPercents(60, 8),
	budget.FromPercents(100, 8),
	budget.FromPercents(-1, 0),
	budget.FromPercents(-1, 5),
	budget.FromPercents(-1, 8),
	budget.FromPercents(-1, 12),
	budget.FromPercents(-1, 100),
}

var testOrders = []Order{{Kind: Captured}, {Kind: Ascending}, {Kind: Descending}, {Kind: Shuffle, Seed: 1}, {Kind: Shuffle, Seed: 99}}

func runNoTiming(t testing.TB, sets []*Set, o Options) *Report {
	t.Helper()
	o.Cycles = -1
	o.ChoiceWindows = -1
	rep, err := Run(context.Background(), sets, o)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
