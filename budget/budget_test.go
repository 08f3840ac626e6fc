package budget

import (
	"errors"
	"testing"

	"github.com/snii-go/snii"
)

func TestPolicyValidate(t *testing.T) {
	for _, p := range []Policy{{Budget, -1}, {Budget, 101}, {Default, 8}, {Default, -1}, {Smallest, 1}, {FixedShare, 0}, {FixedShare, 101}, {Kind(9), 0}} {
		if err := p.Validate(); !errors.Is(err, snii.ErrInvalidArgument) {
			t.Errorf("%+v: got %v, want ErrInvalidArgument", p, err)
		}
	}
	for _, p := range []Policy{{}, FromPercents(0, 0), FromPercents(100, 0), FromPercents(30, 8), FromPercents(-1, 0), FromPercents(-1, 100)} {
		if err := p.Validate(); err != nil {
			t.Errorf("%+v: %v", p, err)
		}
		if m, b := p.Percents(); FromPercents(m, b) != p {
			t.Errorf("%+v: Percents %d %d do not round-trip", p, m, b)
		}
	}
	if got := (Policy{}).String(); got != "budget:8" {
		t.Errorf("String = %q", got)
	}
	if got := (FromPercents(30, 8)).String(); got != "30" {
		t.Errorf("String = %q", got)
	}
}

// A zero means one thing: Percent 0 of a budget is a zero allowance in every
// spelling, and the default is its own kind (the zero Policy).
func TestZeroAllowanceIsExplicit(t *testing.T) {
	for _, tc := range []struct {
		p         Policy
		allowance int
		text      string
	}{
		{Policy{}, DefaultBudgetPercent, "budget:8"},
		{Policy{Kind: Default}, DefaultBudgetPercent, "budget:8"},
		{Policy{Kind: Budget}, 0, "budget:0"},
		{FromPercents(-1, 0), 0, "budget:0"},
		{Policy{Kind: Budget, Percent: 12}, 12, "budget:12"},
		{FromPercents(-1, DefaultBudgetPercent), DefaultBudgetPercent, "budget:8"},
		{Policy{Kind: Smallest}, 0, "0"},
	} {
		if got := tc.p.allowance(); got != tc.allowance {
			t.Errorf("%+v: allowance %d, want %d", tc.p, got, tc.allowance)
		}
		if got := tc.p.String(); got != tc.text {
			t.Errorf("%+v: %q, want %q", tc.p, got, tc.text)
		}
	}
	if FromPercents(-1, 0) == (Policy{}) {
		t.Error("FromPercents(-1, 0), a zero allowance, is the default policy")
	}
	if FromPercents(-1, DefaultBudgetPercent) != (Policy{}) {
		t.Error("the default budget's percents do not give the zero Policy")
	}
}
