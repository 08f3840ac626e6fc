package budget

// Outcome is what a Chooser did over all the eligible windows it saw.
type Outcome struct {
	Policy      Policy
	Eligible    int64 // eligible windows seen
	SumSmallest int64 // sum of their smallest frames
	Traded      int64 // bytes stored beyond the smallest frames (fast frames kept)
	TradedCount int64 // eligible windows stored fast although zstd was smaller
	FinalShare  int   // the budget's share after the last window (the fixed share, or 0)
	Allowance   int64 // the budget's allowance after the last window (0 for other policies)
}

// Chooser applies one Policy to the eligible windows of one logical index. It is
// not safe for concurrent use; each logical index of a build owns one.
type Chooser struct {
	policy      Policy
	budget      *PrxZstdBudget // only for the Budget kind
	eligible    int64
	sumSmallest int64
	traded      int64
	tradedCount int64
}

// NewChooser returns a chooser for p, or an error wrapping snii.ErrInvalidArgument.
func NewChooser(p Policy) (*Chooser, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	c := &Chooser{policy: p}
	if p.Kind == Budget {
		c.budget = NewPrxZstdBudget(p.Allowance())
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
	case Budget:
		storeFast = c.budget.Observe(e)
	case Smallest:
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
func (c *Chooser) Policy() Policy { return c.policy }

// Budget returns the underlying budget, or nil when the policy is not the budget.
func (c *Chooser) Budget() *PrxZstdBudget { return c.budget }

// Outcome reports the accounting so far.
func (c *Chooser) Outcome() Outcome {
	o := Outcome{Policy: c.policy, Eligible: c.eligible, SumSmallest: c.sumSmallest,
		Traded: c.traded, TradedCount: c.tradedCount}
	switch {
	case c.budget != nil:
		o.FinalShare = c.budget.Share()
		o.Allowance = c.budget.Allowance()
	case c.policy.Kind == FixedShare:
		o.FinalShare = c.policy.Percent
	}
	return o
}
