package budget

import (
	"fmt"

	"github.com/snii-go/snii"
)

// DefaultBudgetPercent is the allowance of the default policy (Policy{}), in
// percent of the eligible windows' smallest frames.
const DefaultBudgetPercent = 8

// Kind is the kind of a codec policy.
type Kind uint8

// The policy kinds.
const (
	// Default: the per-field budget with an allowance of DefaultBudgetPercent
	// (the zero value). Its Percent is 0.
	Default Kind = iota
	// Budget: the per-field budget with an allowance of exactly Percent
	// (0..100; 0 is a zero allowance, which trades nothing).
	Budget
	// Smallest: always store the smallest frame.
	Smallest
	// FixedShare: store the faster frame when zstd saves less than Percent.
	FixedShare
)

// Policy selects how the eligible .prx windows are encoded. The zero value is
// the default: the budget with an allowance of DefaultBudgetPercent. A Percent
// of 0 never means "the default": the default is its own kind.
//
//	budget.Policy{}                                  // the default: the budget, 8%
//	budget.Policy{Kind: budget.Budget, Percent: 12}  // the budget, 12%
//	budget.Policy{Kind: budget.Budget, Percent: 0}   // the budget with a zero allowance
//	budget.Policy{Kind: budget.Smallest}             // always the smallest frame
//	budget.Policy{Kind: budget.FixedShare, Percent: 30}
type Policy struct {
	Kind Kind
	// Percent is the kind's parameter. Budget: the allowance in percent of the
	// eligible windows' smallest frames, 0..100. FixedShare: the share 1..100.
	// Default and Smallest: 0.
	Percent int
}

// FromPercents returns the policy of the two numbers a segment records and
// the CLI takes (--prx-zstd-min-saving, --budget-percent): minSaving -1 is the
// budget with an allowance of exactly budgetPercent (0..100; 0 is a zero
// allowance, not the default), 0 the smallest frame, 1..100 a fixed share
// (budgetPercent is then ignored). The default budget, (-1,
// DefaultBudgetPercent), is returned as the zero Policy, so that equal
// policies compare equal. It does not validate.
func FromPercents(minSaving, budgetPercent int) Policy {
	switch {
	case minSaving < 0:
		if budgetPercent == DefaultBudgetPercent {
			return Policy{}
		}
		return Policy{Kind: Budget, Percent: budgetPercent}
	case minSaving == 0:
		return Policy{Kind: Smallest}
	}
	return Policy{Kind: FixedShare, Percent: minSaving}
}

// Percents returns the two numbers of p as FromPercents takes them (a policy
// that is not a budget reports DefaultBudgetPercent as its budget percent).
func (p Policy) Percents() (minSaving, budgetPercent int) {
	switch p.Kind {
	case Smallest:
		return 0, DefaultBudgetPercent
	case FixedShare:
		return p.Percent, DefaultBudgetPercent
	}
	return -1, p.allowance()
}

// allowance returns a budget's allowance in percent (0..100):
// DefaultBudgetPercent for Default, Percent for Budget, 0 for the other kinds.
func (p Policy) allowance() int {
	switch p.Kind {
	case Default:
		return DefaultBudgetPercent
	case Budget:
		return p.Percent
	}
	return 0
}

// Validate reports an error wrapping snii.ErrInvalidArgument when p is out of range.
func (p Policy) Validate() error {
	switch p.Kind {
	case Default:
		if p.Percent != 0 {
			return fmt.Errorf("budget: default policy with percent %d (want 0; write Kind: budget.Budget for another allowance): %w",
				p.Percent, snii.ErrInvalidArgument)
		}
	case Budget:
		if p.Percent < 0 || p.Percent > 100 {
			return fmt.Errorf("budget: budget policy: allowance %d%% (want 0..100): %w", p.Percent, snii.ErrInvalidArgument)
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
	minSaving, budgetPercent := p.Percents()
	if minSaving < 0 {
		return fmt.Sprintf("budget:%d", budgetPercent)
	}
	return fmt.Sprint(minSaving)
}
