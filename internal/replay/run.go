package replay

import (
	"context"
	"runtime"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/errs"
)

// Options configure Run. The zero value replays DefaultPolicies in DefaultOrders
// with 6 paired decode cycles.
type Options struct {
	Policies []budget.Policy // default DefaultPolicies
	Orders   []Order         // default DefaultOrders
	// Cycles is the number of paired decode cycles: 0 = 6; negative = no decode timing.
	Cycles int
	// Blocks is the number of A B B A blocks per cycle, comparison and chunk (A:
	// the smallest frames, B: the stored frames): 0 = 4, i.e. 8 samples a side.
	Blocks int
	// ChunkBytes is the plain payload bytes of the windows timed as one sample:
	// 0 = 64 KiB (well under a millisecond of decoding).
	ChunkBytes int
	// ChoiceWindows is the least number of choices timed per policy and order to
	// measure the choice cost: 0 = 1<<20; negative = no choice timing.
	ChoiceWindows int
	// Verify re-encodes every window with prx.Encoder for each policy and order and
	// fails unless it stores exactly the frames the replay chose (see Set.Verify).
	Verify bool
	// Progress, when set, is called after each timed unit of work (done of total).
	Progress func(done, total int)
	// KeepSamples keeps every decode sample in the report (for CSV output).
	KeepSamples bool
}

func (o *Options) normalize() {
	if len(o.Policies) == 0 {
		o.Policies = DefaultPolicies
	}
	if len(o.Orders) == 0 {
		o.Orders = DefaultOrders
	}
	if o.Cycles == 0 {
		o.Cycles = 6
	}
	if o.Blocks <= 0 {
		o.Blocks = 4
	}
	if o.ChunkBytes <= 0 {
		o.ChunkBytes = 64 << 10
	}
	if o.ChoiceWindows == 0 {
		o.ChoiceWindows = 1 << 20
	}
}

// comparison is one (set, result) pair timed against the set's smallest frames.
type comparison struct {
	set    int
	result *Result
	frames [][]byte
}

// Run applies every policy in every order to each set and measures it. The
// context stops a long replay between timed units.
func Run(ctx context.Context, sets []*Set, o Options) (*Report, error) {
	o.normalize()
	for _, p := range o.Policies {
		if err := p.Validate(); err != nil {
			return nil, errs.Invalidf("replay: %v", err)
		}
	}
	rep := &Report{Env: CurrentEnv(), Cycles: max(o.Cycles, 0), Blocks: o.Blocks, ChunkBytes: o.ChunkBytes}
	for _, p := range o.Policies {
		rep.Policies = append(rep.Policies, p.String())
	}
	for _, ord := range o.Orders {
		rep.Orders = append(rep.Orders, ord.String())
	}
	var cmps []comparison
	smallest := make([][][]byte, len(sets))
	for si, s := range sets {
		ir := s.summary()
		for _, p := range o.Policies {
			for _, ord := range o.Orders {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				a, err := s.Apply(p, ord)
				if err != nil {
					return nil, err
				}
				if o.Verify {
					if err := s.Verify(a); err != nil {
						return nil, err
					}
				}
				res := newResult(s, a)
				if o.ChoiceWindows > 0 {
					fast, zstd := s.orderedSizes(a.Perm)
					if res.ChoiceNs, err = choiceCost(p, fast, zstd, o.ChoiceWindows); err != nil {
						return nil, err
					}
				}
				ir.Results = append(ir.Results, res)
			}
		}
		if c := s.check(); c != nil {
			ir.Check = c
		}
		rep.Indexes = append(rep.Indexes, ir)
		smallest[si] = s.SmallestFrames()
	}
	// Pointers into rep.Indexes[*].Results are stable from here on.
	for si, s := range sets {
		if len(s.Eligible) == 0 {
			continue
		}
		for k := range rep.Indexes[si].Results {
			res := &rep.Indexes[si].Results[k]
			cmps = append(cmps, comparison{set: si, result: res, frames: s.Frames(res.applied)})
		}
	}
	if o.Cycles > 0 && len(cmps) > 0 {
		if err := timeDecodes(ctx, sets, smallest, cmps, &o); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// orderedSizes returns the fast and zstd sizes of the eligible windows in order perm.
func (s *Set) orderedSizes(perm []int) (fast, zstd []int) {
	fast, zstd = make([]int, len(perm)), make([]int, len(perm))
	for i, k := range perm {
		e := &s.Windows[s.Eligible[k]].Eval
		fast[i], zstd[i] = e.Fast, e.Zstd
	}
	return fast, zstd
}

// chunk is a run of eligible windows (positions in Set.Eligible) timed as one sample.
type chunk struct{ lo, hi int }

// chunks cuts the eligible windows of s, in captured order, into runs of about
// target plain bytes (at least one window each).
func (s *Set) chunks(target int) []chunk {
	var out []chunk
	lo, bytes := 0, 0
	for k, wi := range s.Eligible {
		bytes += s.Windows[wi].PlainLen
		if bytes >= target || k == len(s.Eligible)-1 {
			out = append(out, chunk{lo, k + 1})
			lo, bytes = k+1, 0
		}
	}
	return out
}

// timeDecodes runs the paired cycles. In each cycle, for each comparison and each
// chunk of windows, Blocks blocks of A B B A passes over the chunk (A: its smallest
// frames, B: its stored frames); the per-chunk medians of each side are summed
// into the cycle's A and B times, whose ratio B/A is the cycle's ratio. Short
// chunks keep A and B samples a fraction of a millisecond apart, so drift and
// preemption on a shared machine hit both sides alike, and the medians drop the
// samples a preemption did hit.
func timeDecodes(ctx context.Context, sets []*Set, smallest [][][]byte, cmps []comparison, o *Options) error {
	decs := make([]*decoder, len(sets))
	chunks := make([][]chunk, len(sets))
	for i, s := range sets {
		decs[i] = newDecoder(s.Limits)
		chunks[i] = s.chunks(o.ChunkBytes)
	}
	defer func() {
		for _, d := range decs {
			d.close()
		}
	}()
	// Warm-up: every frame list once.
	for _, c := range cmps {
		d := decs[c.set]
		if _, err := d.pass(smallest[c.set]); err != nil {
			return err
		}
		if _, err := d.pass(c.frames); err != nil {
			return err
		}
	}
	total, done := o.Cycles*len(cmps), 0
	as := make([]int64, 0, 2*o.Blocks)
	bs := make([]int64, 0, 2*o.Blocks)
	for cycle := range o.Cycles {
		runtime.GC()
		for _, c := range cmps {
			if err := ctx.Err(); err != nil {
				return err
			}
			d := decs[c.set]
			var aSum, bSum float64
			for ci, ch := range chunks[c.set] {
				as, bs = as[:0], bs[:0]
				a, b := smallest[c.set][ch.lo:ch.hi], c.frames[ch.lo:ch.hi]
				for range o.Blocks {
					for _, side := range [4]bool{false, true, true, false} {
						frames := a
						if side {
							frames = b
						}
						ns, err := d.pass(frames)
						if err != nil {
							return err
						}
						if side {
							bs = append(bs, ns)
						} else {
							as = append(as, ns)
						}
					}
				}
				if o.KeepSamples {
					c.result.samples = append(c.result.samples, cycleSamples{cycle: cycle, chunk: ci,
						a: append([]int64(nil), as...), b: append([]int64(nil), bs...)})
				}
				aSum += median(as)
				bSum += median(bs)
			}
			c.result.addCycle(aSum, bSum)
			done++
			if o.Progress != nil {
				o.Progress(done, total)
			}
		}
	}
	for _, c := range cmps {
		c.result.finishDecode()
	}
	return nil
}
