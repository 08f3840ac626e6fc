package budget

import (
	"errors"
	"fmt"
)

const (
	// PolicyBudget is the MinSavingPercent value that selects the per-index budget.
	PolicyBudget = -1
	// PolicySmallest is the MinSavingPercent value that always stores the smallest frame.
	PolicySmallest = 0
	// DefaultBudgetPercent is the default allowance, in percent of the eligible
	// windows' smallest frames.
	DefaultBudgetPercent = 8
	// WarmupWindows is the number of eligible windows during which the prior share applies.
	WarmupWindows = 64
	// PriorShare is the share used during warm-up.
	PriorShare = 30
)

// ErrInvalidPolicy is returned by Policy.Validate for out-of-range values.
var ErrInvalidPolicy = errors.New("budget: invalid policy")

// Policy selects how eligible windows are encoded. The zero value is NOT the
// default; use DefaultPolicy.
type Policy struct {
	// MinSavingPercent: -1 budget (default), 0 smallest frame, 1..100 fixed share.
	MinSavingPercent int
	// BudgetPercent is the budget's allowance in percent of the eligible windows'
	// smallest frames (default 8, range 0..100). Used only when MinSavingPercent is -1.
	BudgetPercent int
}

// DefaultPolicy returns the budget policy with an 8% allowance.
func DefaultPolicy() Policy {
	return Policy{MinSavingPercent: PolicyBudget, BudgetPercent: DefaultBudgetPercent}
}

// Validate reports an error wrapping ErrInvalidPolicy when a field is out of range.
func (p Policy) Validate() error {
	if p.MinSavingPercent < -1 || p.MinSavingPercent > 100 {
		return fmt.Errorf("%w: min saving percent %d (want -1 for the budget, 0 for the smallest frame, or a share 1..100)", ErrInvalidPolicy, p.MinSavingPercent)
	}
	if p.BudgetPercent < 0 || p.BudgetPercent > 100 {
		return fmt.Errorf("%w: budget percent %d (want 0..100)", ErrInvalidPolicy, p.BudgetPercent)
	}
	return nil
}

// String renders the policy the way the CLI accepts it: "budget:8", "0" or "30".
func (p Policy) String() string {
	if p.MinSavingPercent == PolicyBudget {
		return fmt.Sprintf("budget:%d", p.BudgetPercent)
	}
	return fmt.Sprint(p.MinSavingPercent)
}

// Eval is the evaluation of one eligible window from its exact frame sizes.
type Eval struct {
	Fast     int  // size of the faster frame (min of PFOR and RAW)
	Zstd     int  // size of the zstd frame
	Smallest int  // min(Fast, Zstd), zstd only when strictly smaller
	Trade    int  // Fast - Zstd when zstd is the smallest, else 0
	Saving   int  // floor(100*Trade/Fast), 0..99
	ZstdWins bool // zstd is strictly smaller than Fast
}

// Evaluate computes the evaluation of an eligible window whose fast frame
// (min of PFOR and RAW) has size fast and whose zstd frame has size zstd.
// Both sizes must be positive.
func Evaluate(fast, zstd int) Eval {
	e := Eval{Fast: fast, Zstd: zstd, Smallest: fast}
	if zstd < fast {
		e.ZstdWins = true
		e.Smallest = zstd
		e.Trade = fast - zstd
		e.Saving = int(100 * int64(e.Trade) / int64(fast))
	}
	return e
}

// FastSize returns min(pfor, raw), PFOR on ties; raw alone when pforOK is false.
func FastSize(raw, pfor int, pforOK bool) (size int, isPFOR bool) {
	if pforOK && pfor <= raw {
		return pfor, true
	}
	return raw, false
}
