package chooser

// PrxZstdBudget is the per-field budget specified in docs/BUDGET.md. One budget
// serves one field of one segment build and sees its eligible windows in
// the writer's canonical order. It is not safe for concurrent use.
type PrxZstdBudget struct {
	percent     int64
	n           int64
	sumSmallest int64
	spent       int64
	hist        [100]int64
	// tree is a Fenwick tree over hist (1-based), so the prefix sum the decision
	// needs costs 7 steps instead of a walk over up to 100 buckets.
	tree [101]int64
}

// NewPrxZstdBudget returns a budget whose allowance is percent% (0..100) of the
// eligible windows' smallest frames.
func NewPrxZstdBudget(percent int) *PrxZstdBudget {
	return &PrxZstdBudget{percent: int64(percent)}
}

// Observe adds one eligible window and reports whether its fast frame is stored.
// When it returns true, the trade has been added to the bytes spent.
func (b *PrxZstdBudget) Observe(e Eval) (storeFast bool) {
	b.n++
	b.sumSmallest += int64(e.Smallest)
	if !e.ZstdWins {
		return false
	}
	b.hist[e.Saving] += int64(e.Trade)
	for i := e.Saving + 1; i < len(b.tree); i += i & -i {
		b.tree[i] += int64(e.Trade)
	}
	trade := int64(e.Trade)
	bound := b.percent * b.sumSmallest // compare 100*x <= bound
	if 100*(b.spent+trade) > bound {
		return false
	}
	if b.n <= WarmupWindows {
		if e.Saving >= PriorShare {
			return false
		}
	} else {
		// saving < s  <=>  sum(hist[0..saving]) <= A, the prefix sums being monotone.
		var sum int64
		for i := e.Saving + 1; i > 0; i -= i & -i {
			sum += b.tree[i]
		}
		if 100*sum > bound {
			return false
		}
	}
	b.spent += trade
	return true
}

// Share returns the current share: the prior during warm-up, afterwards the
// largest s in 0..100 with sum(hist[b], b < s) <= allowance.
func (b *PrxZstdBudget) Share() int {
	if b.n <= WarmupWindows {
		return PriorShare
	}
	bound := b.percent * b.sumSmallest
	var sum int64
	for s, h := range b.hist {
		sum += h
		if 100*sum > bound {
			return s
		}
	}
	return 100
}

// Windows returns the number of eligible windows seen.
func (b *PrxZstdBudget) Windows() int64 { return b.n }

// SumSmallest returns the sum of the smallest frames of the eligible windows seen.
func (b *PrxZstdBudget) SumSmallest() int64 { return b.sumSmallest }

// Spent returns the bytes traded so far (fast frames stored in place of smaller zstd frames).
func (b *PrxZstdBudget) Spent() int64 { return b.spent }

// Allowance returns floor(P% of the smallest frames seen).
func (b *PrxZstdBudget) Allowance() int64 { return b.percent * b.sumSmallest / 100 }

// Percent returns the budget percent P.
func (b *PrxZstdBudget) Percent() int { return int(b.percent) }
