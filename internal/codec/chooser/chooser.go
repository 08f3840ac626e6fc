package chooser

import "github.com/snii-go/snii/budget"

// Chooser applies one Policy to the eligible windows of one field. It is
// not safe for concurrent use; each field of a build owns one.
type Chooser struct {
	policy      budget.Policy
	budget      *PrxZstdBudget // only for the Budget kind
	eligible    int64
	sumSmallest int64
	traded      int64
	tradedCount int64
}

// New returns a chooser for p, or an error wrapping snii.ErrInvalidArgument.
func New(p budget.Policy) (*Chooser, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	c := &Chooser{policy: p}
	if p.Kind == budget.Default || p.Kind == budget.Budget {
		_, percent := p.Percents() // the allowance of a budget policy
		c.budget = NewPrxZstdBudget(percent)
	}
	return c, nil
}

// Choose takes the exact frame sizes of one eligible window (fast = min of PFOR and
// RAW, zstd) and reports whether the zstd frame is stored (otherwise the fast frame).
func (c *Chooser) Choose(fast, zstd int) (storeZstd bool, e Eval) {
	e = Evaluate(fast, zstd)
	c.eligible++
	c.sumSmallest += int64(e.Smallest)
	var storeFast bool
	switch c.policy.Kind {
	case budget.Default, budget.Budget:
		storeFast = c.budget.Observe(e)
	case budget.Smallest:
		storeFast = false
	default:
		storeFast = e.ZstdWins && e.Saving < c.policy.Percent
	}
	if storeFast {
		c.traded += int64(e.Trade)
		c.tradedCount++
	}
	return e.ZstdWins && !storeFast, e
}

// Policy returns the chooser's policy.
func (c *Chooser) Policy() budget.Policy { return c.policy }

// Budget returns the underlying budget, or nil when the policy is not the budget.
func (c *Chooser) Budget() *PrxZstdBudget { return c.budget }

// Outcome reports the accounting so far.
func (c *Chooser) Outcome() budget.Outcome {
	o := budget.Outcome{Policy: c.policy, Eligible: c.eligible, SumSmallest: c.sumSmallest,
		Traded: c.traded, TradedCount: c.tradedCount}
	switch {
	case c.budget != nil:
		o.FinalShare = c.budget.Share()
		o.Allowance = c.budget.Allowance()
	case c.policy.Kind == budget.FixedShare:
		o.FinalShare = c.policy.Percent
	}
	return o
}
