package writer_test

import (
	"testing"

	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/internal/testkit/segtest"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/chooser"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/writer"
)

// policyDocs generates documents whose windowed terms give many eligible
// windows of varied compressibility (zstd saves a lot on some, little on others).
func policyDocs() []writer.Document {
	// Longer texts than genDocs': units of frequent words reach the
	// eligible size (a RAW payload of 512 bytes) within a 128-doc window.
	gen := testkit.GenLogs(7, 2500, testkit.LogOptions{Vocab: 1000, Exponent: 1.5, MinWords: 20, WordSpread: 60})
	docs := make([]writer.Document, len(gen))
	for i, d := range gen {
		docs[i] = segtest.Document(d)
	}
	return docs
}

// TestPolicySmallest: policy 0 stores the smallest frame of every window
// (recount checks each frame against all codecs) and trades nothing.
func TestPolicySmallest(t *testing.T) {
	docs := policyDocs()
	o := genOptions()
	o.Policy = budget.FromPercents(0, 8)
	path, _ := build(t, t.TempDir(), "p0.snii", o, docs)
	seg := checkAgainstOracle(t, path, o, docs)
	for _, d := range seg.Indexes {
		out := d.Meta.Outcome.Budget
		if out.Traded != 0 || out.TradedCount != 0 {
			t.Errorf("index %q: policy 0 traded %d bytes in %d windows", d.Meta.Name, out.Traded, out.TradedCount)
		}
	}
}

// TestPolicyBudget: the budget's bound holds over each whole index (and
// after every window, see recount), the recorded outcome equals the recount,
// and the budget build is no smaller than policy 0 by exactly its traded bytes.
func TestPolicyBudget(t *testing.T) {
	docs := policyDocs()
	dir := t.TempDir()
	o0 := genOptions()
	o0.Policy = budget.FromPercents(0, 8)
	p0, _ := build(t, dir, "p0.snii", o0, docs)
	seg0 := dumpFile(t, p0)
	for _, pct := range []int{8, 0, 30, 100} {
		o := genOptions()
		o.Policy = budget.FromPercents(-1, pct)
		path, _ := build(t, dir, "b.snii", o, docs)
		seg := checkAgainstOracle(t, path, o, docs)
		for _, d := range seg.Indexes {
			out := d.Meta.Outcome.Budget
			if 100*out.Traded > int64(pct)*out.SumSmallest {
				t.Errorf("budget %d%% index %q: traded %d of %d", pct, d.Meta.Name, out.Traded, out.SumSmallest)
			}
			if out.Allowance != int64(pct)*out.SumSmallest/100 {
				t.Errorf("budget %d%% index %q: allowance %d, want %d", pct, d.Meta.Name, out.Allowance, int64(pct)*out.SumSmallest/100)
			}
			d0 := seg0.index(t, d.Meta.Name)
			prx0 := d0.Meta.PrxBytes + d0.Meta.InlineFrameBytes
			prxB := d.Meta.PrxBytes + d.Meta.InlineFrameBytes
			if out.Eligible != d0.Meta.Outcome.Budget.Eligible || out.SumSmallest != d0.Meta.Outcome.Budget.SumSmallest {
				t.Errorf("budget %d%% index %q: eligible windows differ from policy 0", pct, d.Meta.Name)
			}
			if prxB-prx0 != uint64(out.Traded) {
				t.Errorf("budget %d%% index %q: prx bytes %d vs policy 0 %d: difference %d, traded %d",
					pct, d.Meta.Name, prxB, prx0, prxB-prx0, out.Traded)
			}
			if d.Meta.Name == "text" {
				t.Logf("budget %d%%: %d eligible windows, traded %d bytes in %d windows (%.2f%% of %d), share %d",
					pct, out.Eligible, out.Traded, out.TradedCount, 100*float64(out.Traded)/float64(out.SumSmallest), out.SumSmallest, out.FinalShare)
				if pct >= 8 && out.TradedCount == 0 {
					t.Errorf("budget %d%%: nothing traded; the test corpus does not exercise the budget", pct)
				}
			}
		}
	}
}

// TestPolicyFixedShare: a fixed share stores the fast frame exactly when zstd
// is the smallest and saves less than the share (checked window by window).
func TestPolicyFixedShare(t *testing.T) {
	docs := policyDocs()
	for _, share := range []int{30, 100} {
		o := genOptions()
		o.Policy = budget.FromPercents(share, 8)
		path, _ := build(t, t.TempDir(), "s.snii", o, docs)
		seg := checkAgainstOracle(t, path, o, docs)
		d := seg.index(t, "text")
		enc, err := prx.NewEncoder(prx.EncoderOptions{Policy: budget.Policy{}})
		if err != nil {
			t.Fatal(err)
		}
		var wantTraded int64
		for _, td := range d.Terms {
			for i := range td.allUnits() {
				fr := &td.units[i]
				if !prx.Eligible(&fr.window) {
					continue
				}
				raw := sizeOf(t, enc, &fr.window, prx.CodecRaw)
				pfor := sizeOf(t, enc, &fr.window, prx.CodecPFOR)
				fast, _ := chooser.FastSize(raw, pfor, pfor > 0)
				ev := chooser.Evaluate(fast, sizeOf(t, enc, &fr.window, prx.CodecZstd))
				if ev.ZstdWins && ev.Saving < share {
					wantTraded += int64(ev.Trade)
				}
			}
		}
		enc.Close()
		if got := d.Meta.Outcome.Budget.Traded; got != wantTraded {
			t.Errorf("share %d: traded %d, want %d", share, got, wantTraded)
		}
		if d.Meta.Outcome.Budget.FinalShare != share {
			t.Errorf("share %d: recorded share %d", share, d.Meta.Outcome.Budget.FinalShare)
		}
	}
}
