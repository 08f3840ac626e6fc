package replay

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/codec/prx/capture"
	"github.com/snii-go/snii/internal/errs"
)

// Applying a policy with chooser.Chooser on the prepared frames stores exactly
// what prx.Encoder stores under that policy, window by window, in every order.
func TestApplyEqualsEncoder(t *testing.T) {
	s := loadOne(t, captureOf(t, genWindows(1, 500), budget.Policy{}, false))
	if len(s.Eligible) < 100 {
		t.Fatalf("only %d eligible windows", len(s.Eligible))
	}
	for _, p := range testPolicies {
		if minSavingPercent(p) == 1 || minSavingPercent(p) == 60 {
			continue // shares are order-independent; 30 and 100 cover them
		}
		for _, o := range testOrders[:4] {
			a, err := s.Apply(p, o)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Verify(a); err != nil {
				t.Errorf("policy %s order %s: %v", p, o, err)
			}
		}
	}
}

// Verify notices a replay that stores something else than the encoder.
func TestVerifyDetectsDifference(t *testing.T) {
	s := loadOne(t, captureOf(t, genWindows(2, 200), budget.Policy{}, false))
	a, _ := s.Apply(budget.FromPercents(0, 8), Order{Kind: Captured})
	k := slices.IndexFunc(s.Eligible, func(i int) bool { return s.Windows[i].Eval.ZstdWins })
	a.StoreZstd[k] = false
	if err := s.Verify(a); !errors.Is(err, errs.Corrupt) {
		t.Fatalf("Verify of a tampered choice: %v", err)
	}
}

// Replaying a capture with the policy it was built with, in captured order,
// reproduces the recorded outcome exactly: for the eligible windows, and with a
// capture of all windows for every codec.
func TestReproducesRecordedOutcome(t *testing.T) {
	wins := genWindows(3, 400)
	for _, p := range []budget.Policy{budget.Policy{}, budget.FromPercents(30, 8), budget.FromPercents(0, 8),
		budget.FromPercents(-1, 12)} {
		for _, all := range []bool{false, true} {
			data := captureOf(t, wins, p, all)
			s := loadOne(t, data)
			rep := runNoTiming(t, []*Set{s}, Options{Policies: []budget.Policy{p}, Orders: []Order{{Kind: Captured}}})
			ir := rep.Indexes[0]
			if ir.Check == nil || !ir.Check.OK || ir.Check.AllCodecs != all {
				t.Fatalf("policy %s all=%v: check %+v", p, all, ir.Check)
			}
			rec := ir.Recorded
			res := ir.Results[0]
			if res.Frames.Zstd != rec.Windows[prx.CodecZstd] || res.FrameBytes.Zstd != rec.Bytes[prx.CodecZstd] {
				t.Fatalf("policy %s: zstd %d windows %d bytes, recorded %d, %d", p, res.Frames.Zstd, res.FrameBytes.Zstd,
					rec.Windows[prx.CodecZstd], rec.Bytes[prx.CodecZstd])
			}
			if all && (res.AllFrames.Array() != rec.Windows || res.AllBytes.Array() != rec.Bytes) {
				t.Fatalf("policy %s: all windows %v bytes %v, recorded %v %v", p, res.AllFrames, res.AllBytes, rec.Windows, rec.Bytes)
			}
			if !all && res.AllFrames != nil {
				t.Fatal("all-window counts reported for a capture of eligible windows")
			}
			if res.Extra != rec.Budget.Traded || int64(ir.Eligible) != rec.Budget.Eligible || ir.SumSmallest != rec.Budget.SumSmallest {
				t.Fatalf("policy %s: extra %d eligible %d smallest %d, recorded %+v", p, res.Extra, ir.Eligible, ir.SumSmallest, rec.Budget)
			}
		}
	}
}

// A replay whose frames differ from the recorded ones (another zstd level) says so.
func TestRecordedMismatchReported(t *testing.T) {
	data := captureOf(t, genWindows(4, 300), budget.Policy{}, true)
	sets, err := Load(bytes.NewReader(data), PrepareOptions{ZstdLevel: 4})
	if err != nil {
		t.Fatal(err)
	}
	rep := runNoTiming(t, sets, Options{})
	if c := rep.Indexes[0].Check; c == nil || c.OK || len(c.Mismatches) == 0 {
		t.Fatalf("check at another zstd level: %+v", c)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "MISMATCH") {
		t.Fatalf("text report does not flag the mismatch:\n%s", text.String())
	}
}

// For every budget policy and order, the extra bytes stay within budget% of the
// smallest frames; a fixed share stores fast exactly when zstd is smallest and
// saves less than the share; policy 0 adds nothing.
func TestPolicyProperties(t *testing.T) {
	for seed := range uint64(4) {
		s := loadOne(t, captureOf(t, genWindows(10+seed, 500), budget.Policy{}, true))
		orders := append(slices.Clone(testOrders), Order{Kind: Shuffle, Seed: seed + 1000})
		rep := runNoTiming(t, []*Set{s}, Options{Policies: testPolicies, Orders: orders})
		for _, r := range rep.Indexes[0].Results {
			a, _ := s.Apply(r.policy, r.order)
			p := r.policy
			switch {
			case minSavingPercent(p) == -1:
				if 100*r.Extra > int64(budgetPercent(p))*r.Smallest {
					t.Errorf("%s %s: extra %d > %d%% of %d", r.Policy, r.Order, r.Extra, budgetPercent(p), r.Smallest)
				}
				// The bound holds after every window, not only at the end.
				var extra, smallest int64
				for _, k := range a.Perm {
					w := &s.Windows[s.Eligible[k]]
					smallest += int64(w.Eval.Smallest)
					extra += int64(len(w.Stored(a.StoreZstd[k]))) - int64(w.Eval.Smallest)
					if 100*extra > int64(budgetPercent(p))*smallest {
						t.Fatalf("%s %s: prefix extra %d > %d%% of %d", r.Policy, r.Order, extra, budgetPercent(p), smallest)
					}
				}
			case minSavingPercent(p) == 0:
				if r.Extra != 0 || r.Stored != r.Smallest || r.TradedCount != 0 {
					t.Errorf("policy 0 %s: extra %d", r.Order, r.Extra)
				}
			default:
				var want int64
				for k, wi := range s.Eligible {
					e := s.Windows[wi].Eval
					fast := e.ZstdWins && e.Saving < minSavingPercent(p)
					if a.StoreZstd[k] == fast && e.ZstdWins {
						t.Fatalf("share %d: window saving %d stores zstd=%v", minSavingPercent(p), e.Saving, a.StoreZstd[k])
					}
					if fast {
						want += int64(e.Trade)
					}
				}
				if r.Extra != want {
					t.Errorf("share %s %s: extra %d, want %d", r.Policy, r.Order, r.Extra, want)
				}
			}
			// A fixed share and policy 0 do not depend on the order.
			if minSavingPercent(p) >= 0 && r.Order != "captured" {
				base := rep.Indexes[0].Results[slices.IndexFunc(rep.Indexes[0].Results, func(x Result) bool {
					return x.Policy == r.Policy && x.Order == "captured"
				})]
				if base.Stored != r.Stored || base.Frames != r.Frames {
					t.Errorf("%s: order %s stores %d, captured %d", r.Policy, r.Order, r.Stored, base.Stored)
				}
			}
			if r.Frames.Total() != int64(len(s.Eligible)) || r.FrameBytes.Total() != r.Stored {
				t.Errorf("%s %s: frames %+v bytes %+v for %d windows, %d bytes", r.Policy, r.Order, r.Frames, r.FrameBytes,
					len(s.Eligible), r.Stored)
			}
		}
	}
}

func TestOrders(t *testing.T) {
	savings := []int{5, 0, 9, 5, 1, 9, 0, 3}
	sv := func(i int) int { return savings[i] }
	if got := (Order{Kind: Captured}).Permute(8, sv); !slices.Equal(got, []int{0, 1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("captured: %v", got)
	}
	if got := (Order{Kind: Ascending}).Permute(8, sv); !slices.Equal(got, []int{1, 6, 4, 7, 0, 3, 2, 5}) {
		t.Errorf("ascending (stable): %v", got)
	}
	if got := (Order{Kind: Descending}).Permute(8, sv); !slices.Equal(got, []int{2, 5, 0, 3, 7, 4, 1, 6}) {
		t.Errorf("descending (stable): %v", got)
	}
	a := (Order{Kind: Shuffle, Seed: 7}).Permute(100, func(int) int { return 0 })
	b := (Order{Kind: Shuffle, Seed: 7}).Permute(100, func(int) int { return 0 })
	c := (Order{Kind: Shuffle, Seed: 8}).Permute(100, func(int) int { return 0 })
	if !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Error("shuffle is not a function of its seed")
	}
	sorted := slices.Sorted(slices.Values(a))
	for i, v := range sorted {
		if v != i {
			t.Fatalf("shuffle is not a permutation: %v", a)
		}
	}
}

func TestParse(t *testing.T) {
	ps, err := ParsePolicies("0,30, budget:5,budget:8,budget,budget:12")
	if err == nil {
		t.Fatalf("budget and budget:8 both listed: %v", ps)
	}
	ps, err = ParsePolicies("0,30,budget:5,-1,budget:12,100")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range ps {
		names = append(names, p.String())
	}
	if got := strings.Join(names, ","); got != "0,30,budget:5,budget:8,budget:12,100" {
		t.Fatalf("policies %s", got)
	}
	for _, bad := range []string{"", "101", "-2", "budget:x", "budget:101", "fast", "0,0"} {
		if _, err := ParsePolicies(bad); !errors.Is(err, errs.InvalidArgument) {
			t.Errorf("ParsePolicies(%q) = %v", bad, err)
		}
	}
	os, err := ParseOrders("captured,ascending,descending,shuffle:42,shuffle")
	if err != nil || len(os) != 5 || os[3] != (Order{Kind: Shuffle, Seed: 42}) || os[4].Seed != 1 {
		t.Fatalf("orders %v, %v", os, err)
	}
	for _, bad := range []string{"", "random", "shuffle:-1", "shuffle:x", "captured,captured"} {
		if _, err := ParseOrders(bad); !errors.Is(err, errs.InvalidArgument) {
			t.Errorf("ParseOrders(%q) = %v", bad, err)
		}
	}
	for _, o := range os {
		back, err := ParseOrder(o.String())
		if err != nil || back != o {
			t.Errorf("order %v does not round-trip: %v %v", o, back, err)
		}
	}
}

func TestEmptyCapture(t *testing.T) {
	var buf bytes.Buffer
	w, _ := capture.NewWriter(&buf, capture.WriterOptions{})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	empty := bytes.Clone(buf.Bytes())
	buf.Reset()
	w, _ = capture.NewWriter(&buf, capture.WriterOptions{})
	_, _ = w.Index("body") // a field without windows
	_ = w.Close()
	noWindows := buf.Bytes()
	for name, data := range map[string][]byte{"empty": empty, "index without windows": noWindows} {
		sets, err := Load(bytes.NewReader(data), PrepareOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rep, err := Run(context.Background(), sets, Options{Cycles: 2})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, ir := range rep.Indexes {
			if ir.Eligible != 0 {
				t.Fatalf("%s: %d eligible", name, ir.Eligible)
			}
			for _, r := range ir.Results {
				if r.Stored != 0 || r.Extra != 0 || r.Decode != nil {
					t.Fatalf("%s: result %+v", name, r)
				}
			}
		}
		var out bytes.Buffer
		if err := rep.WriteText(&out); err != nil {
			t.Fatal(err)
		}
		if err := rep.WriteJSON(&out); err != nil {
			t.Fatal(err)
		}
		if err := rep.WriteCSV(&out); err != nil {
			t.Fatal(err)
		}
		var svg bytes.Buffer
		if err := rep.WriteSVG(&svg); err != nil {
			t.Fatal(err)
		}
		if n := countPoints(t, svg.Bytes()); n != 0 {
			t.Fatalf("%s: %d points", name, n)
		}
	}
}

func TestCorruptCaptureNamesRecord(t *testing.T) {
	data := captureOf(t, genWindows(5, 50), budget.Policy{}, false)
	bad := bytes.Clone(data)
	bad[len(bad)/2] ^= 0x10
	if _, err := Load(bytes.NewReader(bad), PrepareOptions{}); !errors.Is(err, errs.Corrupt) ||
		!strings.Contains(err.Error(), "capture record ") {
		t.Fatalf("corrupt capture: %v", err)
	}
	if _, err := Load(bytes.NewReader(data[:len(data)-3]), PrepareOptions{}); !errors.Is(err, errs.Corrupt) ||
		!strings.Contains(err.Error(), "capture record ") {
		t.Fatalf("truncated capture: %v", err)
	}
	if _, err := Load(bytes.NewReader(data), PrepareOptions{Field: "nope"}); !errors.Is(err, errs.NotFound) {
		t.Fatalf("missing field: %v", err)
	}
}

// A capture whose eligibility flag disagrees with its payload is rejected by name.
func TestEligibilityMismatch(t *testing.T) {
	var buf bytes.Buffer
	w, _ := capture.NewWriter(&buf, capture.WriterOptions{All: true})
	idx, _ := w.Index("body")
	var pw prx.Window
	pw.AppendDoc([]uint32{1, 2, 3})
	_ = w.Window(idx, true, prx.AppendPlain(nil, &pw)) // 5 bytes: never eligible
	_ = w.Close()
	_, err := Load(&buf, PrepareOptions{})
	if !errors.Is(err, errs.Corrupt) || !strings.Contains(err.Error(), `index "body": window 0 (capture record 1)`) {
		t.Fatalf("eligibility mismatch: %v", err)
	}
}

// A timed run: decode ratios, choice costs, CSV samples and a chart that parses
// as XML with one point per policy and order.
func TestTimedRunOutputs(t *testing.T) {
	s := loadOne(t, captureOf(t, genWindows(6, 100), budget.Policy{}, false))
	var progress []int
	o := Options{Cycles: 2, Blocks: 1, ChunkBytes: 4096, ChoiceWindows: 2000, KeepSamples: true, Verify: true,
		Progress: func(done, total int) { progress = append(progress, done) }}
	rep, err := Run(context.Background(), []*Set{s}, o)
	if err != nil {
		t.Fatal(err)
	}
	rep.Capture = "test.cap"
	results := rep.Indexes[0].Results
	if len(results) != len(DefaultPolicies)*len(DefaultOrders) {
		t.Fatalf("%d results", len(results))
	}
	for _, r := range results {
		if r.Decode == nil || r.Decode.Ratio <= 0 || len(r.Decode.PerCycle) != 2 || r.Decode.Min > r.Decode.Ratio || r.Decode.Ratio > r.Decode.Max {
			t.Fatalf("%s %s: decode %+v", r.Policy, r.Order, r.Decode)
		}
		if r.ChoiceNs <= 0 {
			t.Fatalf("%s %s: choice cost %v", r.Policy, r.Order, r.ChoiceNs)
		}
	}
	if len(progress) != 2*len(results) || progress[len(progress)-1] != 2*len(results) {
		t.Fatalf("progress %v", progress)
	}
	var csvBuf bytes.Buffer
	if err := rep.WriteCSV(&csvBuf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&csvBuf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	chunks := s.chunks(4096)
	if len(chunks) < 3 || chunks[len(chunks)-1].hi != len(s.Eligible) {
		t.Fatalf("chunks %v of %d eligible windows", chunks, len(s.Eligible))
	}
	// results × cycles × chunks × sides × 2 samples a side per A-B-B-A block
	if want := 1 + len(results)*2*len(chunks)*2*2; len(rows) != want {
		t.Fatalf("%d CSV rows, want %d", len(rows), want)
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Indexes[0].Results) != len(results) {
		t.Fatalf("JSON round trip: %v", err)
	}
	var svg bytes.Buffer
	if err := rep.WriteSVG(&svg); err != nil {
		t.Fatal(err)
	}
	if n := countPoints(t, svg.Bytes()); n != len(results) {
		t.Fatalf("%d points in the chart, want %d", n, len(results))
	}
	seen := map[string]bool{}
	for _, p := range pointAttrs(t, svg.Bytes()) {
		seen[p] = true
	}
	for _, r := range results {
		if !seen[r.Policy+"|"+r.Order] {
			t.Fatalf("no point for %s %s", r.Policy, r.Order)
		}
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"budget:8", "shuffle:1", "decode x", "the replay reproduces it exactly"} {
		if !strings.Contains(text.String(), want) {
			t.Fatalf("text report lacks %q:\n%s", want, text.String())
		}
	}
	if err := (&Report{Indexes: []IndexReport{{Eligible: 1, Results: []Result{{}}}}}).WriteSVG(io.Discard); !errors.Is(err, errs.InvalidArgument) {
		t.Fatalf("chart without timings: %v", err)
	}
}

// countPoints parses the SVG as XML and counts the point groups.
func countPoints(t *testing.T, svg []byte) int { return len(pointAttrs(t, svg)) }

func pointAttrs(t *testing.T, svg []byte) []string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	var out []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("SVG does not parse as XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "g" {
			var class, pol, ord string
			for _, a := range se.Attr {
				switch a.Name.Local {
				case "class":
					class = a.Value
				case "data-policy":
					pol = a.Value
				case "data-order":
					ord = a.Value
				}
			}
			if class == "point" {
				out = append(out, fmt.Sprint(pol, "|", ord))
			}
		}
	}
}

// A capture of several fields gives one set per field, each with its own
// windows, in its own order; Field selects one.
func TestSeveralIndexes(t *testing.T) {
	var buf bytes.Buffer
	w, _ := capture.NewWriter(&buf, capture.WriterOptions{All: true})
	a, _ := w.Index("a")
	b, _ := w.Index("b")
	// A record is one unit: the first unit of each generated window.
	wins := genWindows(8, 60)
	for i := range wins {
		var u prx.Window
		wins[i] = *wins[i].Slice(0, prx.UnitBounds(&wins[i])[1], &u)
		idx := a
		if i%3 == 0 {
			idx = b
		}
		pl := prx.AppendPlain(nil, &wins[i])
		if err := w.Window(idx, prx.Eligible(&wins[i]), pl); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	sets, err := Load(bytes.NewReader(buf.Bytes()), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) != 2 || sets[0].Info.Name != "a" || sets[1].Info.Name != "b" || len(sets[0].Windows) != 40 || len(sets[1].Windows) != 20 {
		t.Fatalf("sets %d", len(sets))
	}
	only, err := Load(bytes.NewReader(buf.Bytes()), PrepareOptions{Field: "b"})
	if err != nil || len(only) != 1 || only[0].Info.Name != "b" || len(only[0].Windows) != 20 {
		t.Fatalf("Field b: %v", err)
	}
	for i, w := range only[0].Windows {
		if !bytes.Equal(w.Plain, prx.AppendPlain(nil, &wins[3*i])) {
			t.Fatalf("window %d of b is not the captured one", i)
		}
	}
	rep := runNoTiming(t, sets, Options{})
	if len(rep.Indexes) != 2 || rep.Indexes[1].Windows != 20 || rep.Indexes[0].Check != nil {
		t.Fatalf("report of two indexes: %+v", rep.Indexes)
	}
}

// A capture records units: with All, one record per unit of every window (some
// windows have several units), and replay verifies them unit by unit.
// A record that holds more than one unit is refused.
func TestCaptureRecordsUnits(t *testing.T) {
	wins := genWindows(11, 300)
	r := rand.New(rand.NewPCG(11, 12))
	for k := range 6 { // multi-unit windows
		var w prx.Window
		for range 600 + 300*k {
			w.AppendDoc(ascending(r, 1+r.IntN(3), uint32(10+200*k)))
		}
		wins = append(wins, w)
	}
	units := 0
	for i := range wins {
		units += len(prx.UnitBounds(&wins[i])) - 1
	}
	if units <= len(wins) {
		t.Fatalf("coverage: %d units in %d windows", units, len(wins))
	}
	s := loadOne(t, captureOf(t, wins, budget.Policy{}, true))
	if len(s.Windows) != units {
		t.Fatalf("%d records, %d units", len(s.Windows), units)
	}
	for _, o := range testOrders[:2] {
		a, err := s.Apply(budget.Policy{}, o)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Verify(a); err != nil {
			t.Fatal(err)
		}
	}
	// A two-unit payload as one record.
	var two prx.Window
	for d := range 1100 {
		two.AppendDoc([]uint32{uint32(d)})
	}
	var buf bytes.Buffer
	w, _ := capture.NewWriter(&buf, capture.WriterOptions{All: true})
	idx, _ := w.Index("f")
	if err := w.Window(idx, false, prx.AppendPlain(nil, &two)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bytes.NewReader(buf.Bytes()), PrepareOptions{}); !errors.Is(err, errs.Corrupt) {
		t.Fatalf("a record of two units: %v", err)
	}
}
