package replay

import (
	"fmt"
	"slices"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/codec/prx/capture"
)

// Report is the result of a replay.
type Report struct {
	Env        Env           `json:"env"`
	Capture    string        `json:"capture,omitempty"` // set by the caller (file name)
	Policies   []string      `json:"policies"`
	Orders     []string      `json:"orders"`
	Cycles     int           `json:"cycles"`      // paired decode cycles (0: not timed)
	Blocks     int           `json:"blocks"`      // A B B A blocks per cycle, comparison and chunk
	ChunkBytes int           `json:"chunk_bytes"` // plain bytes of the windows timed as one sample
	Indexes    []IndexReport `json:"indexes"`
}

// IndexReport is the replay of one field.
type IndexReport struct {
	Index     string `json:"index"`
	ZstdLevel int    `json:"zstd_level"`
	All       bool   `json:"all_windows"` // the capture kept fast-path windows
	Windows   int    `json:"windows"`     // captured windows
	Eligible  int    `json:"eligible"`    // of which eligible
	// ZstdSmallest counts the eligible windows whose zstd frame is strictly the smallest.
	ZstdSmallest int   `json:"zstd_smallest"`
	PlainBytes   int64 `json:"plain_bytes"` // plain payloads of the eligible windows
	Positions    int64 `json:"positions"`   // positions of the eligible windows
	SumSmallest  int64 `json:"sum_smallest"`
	SumFast      int64 `json:"sum_fast"`
	SumZstd      int64 `json:"sum_zstd"`
	// FastPath counts the captured fast-path windows and their bytes per codec
	// (the same under every policy).
	FastPathFrames Codecs `json:"fast_path_frames"`
	FastPathBytes  Codecs `json:"fast_path_bytes"`
	// Recorded is the outcome the capture holds for the field, if any, and Check
	// compares a replay of the field's own policy, in captured order, with it.
	Recorded *capture.Outcome `json:"recorded,omitempty"`
	Check    *Check           `json:"check,omitempty"`
	Results  []Result         `json:"results"`
}

// Check is the comparison of a replay with the outcome recorded in the capture.
type Check struct {
	Policy     string   `json:"policy"`
	AllCodecs  bool     `json:"all_codecs"` // every codec compared (capture of all windows), else the eligible windows
	OK         bool     `json:"ok"`
	Mismatches []string `json:"mismatches,omitempty"`
}

// Result is one policy in one order.
type Result struct {
	Policy string `json:"policy"`
	Order  string `json:"order"`
	// Stored and Smallest are the bytes of the eligible windows' stored and
	// smallest frames; Extra = Stored - Smallest, ExtraPercent = 100*Extra/Smallest.
	Stored       int64   `json:"stored_bytes"`
	Smallest     int64   `json:"smallest_bytes"`
	Extra        int64   `json:"extra_bytes"`
	ExtraPercent float64 `json:"extra_percent"`
	Frames       Codecs  `json:"frames"`      // eligible windows per stored codec
	FrameBytes   Codecs  `json:"frame_bytes"` // their bytes per codec
	// AllFrames and AllBytes add the fast-path windows (captures of all windows only).
	AllFrames *Codecs `json:"all_frames,omitempty"`
	AllBytes  *Codecs `json:"all_bytes,omitempty"`
	// The chooser's accounting: windows stored fast although zstd was smaller, the
	// final share, and for the budget its allowance and the share of it spent (%).
	TradedCount int64   `json:"traded_windows"`
	FinalShare  int     `json:"final_share"`
	Allowance   int64   `json:"allowance,omitempty"`
	Utilisation float64 `json:"allowance_used_percent,omitempty"`
	// Decode compares decoding the stored frames with decoding the smallest frames.
	Decode *Decode `json:"decode,omitempty"`
	// ChoiceNs is the chooser's cost per eligible window, in nanoseconds.
	ChoiceNs float64 `json:"choice_ns_per_window"`

	policy  budget.Policy
	order   Order
	applied *Applied
	samples []cycleSamples
	ratios  []float64
	aMed    []float64
	bMed    []float64
}

// Decode is a paired-cycle decode comparison of the eligible windows' stored
// frames (B) with their smallest frames (A), decoded by the same pooled Source:
// per cycle, the ratio B/A of the summed per-chunk median times (see Run).
type Decode struct {
	Ratio      float64      `json:"ratio"` // median over cycles
	Min        float64      `json:"min"`
	Max        float64      `json:"max"`
	StoredNs   float64      `json:"stored_ns"`   // time to decode every stored frame once (median over cycles)
	SmallestNs float64      `json:"smallest_ns"` // same for the smallest frames
	PerCycle   []float64    `json:"per_cycle"`   // the ratio of each cycle
	CycleNs    [][2]float64 `json:"cycle_ns"`    // each cycle's [smallest, stored] times
}

type cycleSamples struct {
	cycle, chunk int
	a, b         []int64
}

// summary returns the field-level part of the report of s.
func (s *Set) summary() IndexReport {
	ir := IndexReport{Index: s.Info.Name, ZstdLevel: s.ZstdLevel, All: s.All, Windows: len(s.Windows),
		Eligible: len(s.Eligible), Recorded: s.Info.Recorded}
	for i := range s.Windows {
		w := &s.Windows[i]
		if !w.Eligible {
			ir.FastPathFrames.Add(w.FastCodec, 1)
			ir.FastPathBytes.Add(w.FastCodec, int64(len(w.Fast)))
			continue
		}
		ir.PlainBytes += int64(w.PlainLen)
		ir.Positions += int64(w.Positions)
		ir.SumSmallest += int64(w.Eval.Smallest)
		ir.SumFast += int64(w.Eval.Fast)
		ir.SumZstd += int64(w.Eval.Zstd)
		if w.Eval.ZstdWins {
			ir.ZstdSmallest++
		}
	}
	return ir
}

func newResult(s *Set, a *Applied) Result {
	b := s.Bytes(a)
	r := Result{Policy: a.Policy.String(), Order: a.Order.String(), Stored: b.Stored, Smallest: b.Smallest,
		Extra: b.Stored - b.Smallest, Frames: b.Frames, FrameBytes: b.Sizes,
		TradedCount: a.Outcome.TradedCount, FinalShare: a.Outcome.FinalShare,
		policy: a.Policy, order: a.Order, applied: a}
	if b.Smallest > 0 {
		r.ExtraPercent = 100 * float64(r.Extra) / float64(b.Smallest)
	}
	if s.All {
		r.AllFrames, r.AllBytes = &b.AllFrames, &b.AllSizes
	}
	if k := a.Policy.Kind; k == budget.Default || k == budget.Budget {
		r.Allowance = a.Outcome.Allowance
		if r.Allowance > 0 {
			r.Utilisation = 100 * float64(a.Outcome.Traded) / float64(r.Allowance)
		}
	}
	return r
}

func (r *Result) addCycle(aMed, bMed float64) {
	r.aMed = append(r.aMed, aMed)
	r.bMed = append(r.bMed, bMed)
	ratio := 1.0
	if aMed > 0 {
		ratio = bMed / aMed
	}
	r.ratios = append(r.ratios, ratio)
}

func (r *Result) finishDecode() {
	if len(r.ratios) == 0 {
		return
	}
	d := &Decode{PerCycle: slices.Clone(r.ratios)}
	for i := range r.aMed {
		d.CycleNs = append(d.CycleNs, [2]float64{r.aMed[i], r.bMed[i]})
	}
	d.Min, d.Max = slices.Min(r.ratios), slices.Max(r.ratios)
	d.Ratio = median(slices.Clone(r.ratios))
	d.StoredNs = median(slices.Clone(r.bMed))
	d.SmallestNs = median(slices.Clone(r.aMed))
	r.Decode = d
}

// check replays the field's own policy in captured order and compares it with
// the outcome recorded in the capture; nil when the capture records none.
func (s *Set) check() *Check {
	rec := s.Info.Recorded
	if rec == nil || !s.Info.Known {
		return nil
	}
	a, err := s.Apply(s.Info.Policy, Order{Kind: Captured})
	c := &Check{Policy: s.Info.Policy.String(), AllCodecs: s.All}
	if err != nil {
		c.Mismatches = append(c.Mismatches, err.Error())
		return c
	}
	b := s.Bytes(a)
	miss := func(what string, replay, recorded int64) {
		if replay != recorded {
			c.Mismatches = append(c.Mismatches, fmt.Sprintf("%s: replay %d, recorded %d", what, replay, recorded))
		}
	}
	got, want := a.Outcome, rec.Budget
	miss("eligible windows", got.Eligible, want.Eligible)
	miss("sum of smallest frames", got.SumSmallest, want.SumSmallest)
	miss("traded bytes", got.Traded, want.Traded)
	miss("traded windows", got.TradedCount, want.TradedCount)
	miss("final share", int64(got.FinalShare), int64(want.FinalShare))
	miss("allowance", got.Allowance, want.Allowance)
	frames, sizes := b.Frames.Array(), b.Sizes.Array()
	if s.All {
		frames, sizes = b.AllFrames.Array(), b.AllSizes.Array()
	}
	for codec := range prx.NumCodecs {
		if !s.All && prx.Codec(codec) != prx.CodecZstd {
			continue // without the fast-path windows only zstd (eligible-only) counts compare
		}
		name := prx.Codec(codec).String()
		miss(name+" windows", frames[codec], rec.Windows[codec])
		miss(name+" bytes", sizes[codec], rec.Bytes[codec])
	}
	c.OK = len(c.Mismatches) == 0
	return c
}
