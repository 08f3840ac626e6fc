package budget

import (
	"fmt"

	"github.com/snii-go/snii"
)

const (
	// DefaultBudgetPercent is the default allowance, in percent of the eligible
	// windows' smallest frames.
	DefaultBudgetPercent = 8
	// WarmupWindows is the number of eligible windows during which the prior share applies.
	WarmupWindows = 64
	// PriorShare is the share used during warm-up.
	PriorShare = 30
	// NoAllowance is the Percent of a Budget policy with a zero allowance
	// (Percent 0 means DefaultBudgetPercent).
	NoAllowance = -1
)

// Kind is the kind of a codec policy.
type Kind uint8

// The policy kinds.
const (
	// Budget: the per-index budget (the zero value, and the default).
	Budget Kind = iota
	// Smallest: always store the smallest frame.
	Smallest
	// FixedShare: store the faster frame when zstd saves less than Percent.
	FixedShare
)

// Policy selects how the eligible .prx windows are encoded. The zero value is
// the default: the budget with an allowance of DefaultBudgetPercent.
//
//	budget.Policy{}                                  // the budget, 8%
//	budget.Policy{Kind: budget.Budget, Percent: 12}  // the budget, 12%
//	budget.Policy{Kind: budget.Smallest}             // always the smallest frame
//	budget.Policy{Kind: budget.FixedShare, Percent: 30}
type Policy struct {
	Kind Kind
	// Percent is the kind's parameter. Budget: the allowance in percent of the
	// eligible windows' smallest frames, 1..100 (0 means DefaultBudgetPercent,
	// NoAllowance a zero allowance). FixedShare: the share 1..100. Smallest: 0.
	Percent int
}

// FromPercents returns the policy (in its canonical form: the default budget
// is the zero Policy) of the two numbers a segment records and
// the CLI takes (--prx-zstd-min-saving, --budget-percent): minSaving -1 is the
// budget with an allowance of budgetPercent (0..100), 0 the smallest frame,
// 1..100 a fixed share (budgetPercent is then ignored). It does not validate.
func FromPercents(minSaving, budgetPercent int) Policy {
	switch {
	case minSaving < 0:
		switch budgetPercent {
		case 0:
			budgetPercent = NoAllowance
		case DefaultBudgetPercent:
			budgetPercent = 0 // the zero Policy
		}
		return Policy{Kind: Budget, Percent: budgetPercent}
	case minSaving == 0:
		return Policy{Kind: Smallest}
	}
	return Policy{Kind: FixedShare, Percent: minSaving}
}

// Percents returns the two numbers of p as FromPercents takes them (a policy
// that is not the budget reports DefaultBudgetPercent as its budget percent).
func (p Policy) Percents() (minSaving, budgetPercent int) {
	switch p.Kind {
	case Smallest:
		return 0, DefaultBudgetPercent
	case FixedShare:
		return p.Percent, DefaultBudgetPercent
	}
	return -1, p.Allowance()
}

// Allowance returns the budget's allowance in percent (0..100): Percent with
// 0 meaning DefaultBudgetPercent and NoAllowance meaning 0. It is 0 for the
// other kinds.
func (p Policy) Allowance() int {
	if p.Kind != Budget {
		return 0
	}
	switch p.Percent {
	case 0:
		return DefaultBudgetPercent
	case NoAllowance:
		return 0
	}
	return p.Percent
}

// Validate reports an error wrapping snii.ErrInvalidArgument when p is out of range.
func (p Policy) Validate() error {
	switch p.Kind {
	case Budget:
		if p.Percent < NoAllowance || p.Percent > 100 {
			return fmt.Errorf("budget: budget policy: allowance %d%% (want 1..100, 0 for the default %d%%, or NoAllowance): %w",
				p.Percent, DefaultBudgetPercent, snii.ErrInvalidArgument)
		}
	case Smallest:
		if p.Percent != 0 {
			return fmt.Errorf("budget: smallest-frame policy with percent %d (want 0): %w", p.Percent, snii.ErrInvalidArgument)
		}
	case FixedShare:
		if p.Percent < 1 || p.Percent > 100 {
			return fmt.Errorf("budget: fixed-share policy: share %d%% (want 1..100): %w", p.Percent, snii.ErrInvalidArgument)
		}
	default:
		return fmt.Errorf("budget: unknown policy kind %d: %w", p.Kind, snii.ErrInvalidArgument)
	}
	return nil
}

// String renders the policy the way the CLI accepts it: "budget:8", "0" or "30".
func (p Policy) String() string {
	ms, bp := p.Percents()
	if ms < 0 {
		return fmt.Sprintf("budget:%d", bp)
	}
	return fmt.Sprint(ms)
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
