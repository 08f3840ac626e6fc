package replay

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/chooser"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/limits"
)

// decoder decodes whole frames with a Source from a pool, the way the segment
// reader does (one Source per query, CRC checked, output buffers reused).
type decoder struct {
	pool *prx.SourcePool
	src  *prx.Source
	win  prx.Window
}

func newDecoder(limits limits.Limits) *decoder {
	p := prx.NewSourcePool(limits)
	return &decoder{pool: p, src: p.Get()}
}

func (d *decoder) close() {
	d.pool.Put(d.src)
	d.pool.Close()
}

// pass decodes every frame once and returns the elapsed time.
func (d *decoder) pass(frames [][]byte) (int64, error) {
	t0 := time.Now()
	for i, f := range frames {
		if _, err := d.src.Decode(f, true, &d.win); err != nil {
			return 0, fmt.Errorf("replay: decoding eligible window %d: %w", i, err)
		}
	}
	return int64(time.Since(t0)), nil
}

// median returns the median of v (the mean of the two middle values for an even
// count); v is sorted in place.
func median[T int64 | float64](v []T) float64 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return float64(v[n/2])
	}
	return (float64(v[n/2-1]) + float64(v[n/2])) / 2
}

// choiceRounds is the number of rounds the choice cost is measured in; the
// fastest round is reported (interference on a shared machine only adds time).
// Short rounds (2^14 choices by default, well under a millisecond) mostly run
// between two preemptions.
const choiceRounds = 64

// choiceCost times a fresh chooser for p over the eligible sizes in order
// (fast[i], zstd[i]), in choiceRounds rounds of at least minWindows/choiceRounds
// choices each, and returns the nanoseconds per window of the fastest round.
// Choosers are created outside the timed regions.
func choiceCost(p budget.Policy, fast, zstd []int, minWindows int) (float64, error) {
	n := len(fast)
	if n == 0 {
		return 0, nil
	}
	reps := max(1, (minWindows/choiceRounds+n-1)/n) // passes over the windows per round
	batch := min(reps, max(1, min(1024, (1<<16)/n)))
	choosers := make([]*chooser.Chooser, batch)
	best := math.Inf(1)
	var sink int
	for range choiceRounds {
		var total, choices int64
		for done := 0; done < reps; done += batch {
			k := min(batch, reps-done)
			for i := range k {
				c, err := chooser.New(p)
				if err != nil {
					return 0, err
				}
				choosers[i] = c
			}
			t0 := time.Now()
			for _, c := range choosers[:k] {
				for i := range n {
					if z, _ := c.Choose(fast[i], zstd[i]); z {
						sink++
					}
				}
			}
			total += int64(time.Since(t0))
			choices += int64(k * n)
		}
		best = math.Min(best, float64(total)/float64(choices))
	}
	if sink < 0 {
		return 0, nil // never: keeps the choices from being optimised away
	}
	return best, nil
}
