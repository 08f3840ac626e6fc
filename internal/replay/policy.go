package replay

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/snii-go/snii"

	"github.com/snii-go/snii/budget"
)

// DefaultPolicies are the policies replayed when Options.Policies is empty.
var DefaultPolicies = []budget.Policy{
	{Kind: budget.Smallest},
	{Kind: budget.FixedShare, Percent: 30},
	{Kind: budget.Budget, Percent: 5},
	{},
	{Kind: budget.Budget, Percent: 12},
}

// DefaultOrders are the orders replayed when Options.Orders is empty.
var DefaultOrders = []Order{{Kind: Captured}, {Kind: Ascending}, {Kind: Descending}, {Kind: Shuffle, Seed: 1}}

// ParsePolicy parses one policy as the CLI writes it: "0" (the smallest frame),
// "1".."100" (a fixed share), "budget:P" (the budget with P percent, 0..100),
// "budget" or "-1" (the budget with the default 8 percent).
func ParsePolicy(s string) (budget.Policy, error) {
	s = strings.TrimSpace(s)
	var p budget.Policy
	switch {
	case s == "budget" || s == "-1":
		p = budget.Policy{}
	case strings.HasPrefix(s, "budget:"):
		v, err := strconv.Atoi(strings.TrimPrefix(s, "budget:"))
		if err != nil {
			return p, parseErrorf("replay: policy %q: want budget:P with P in 0..100", s)
		}
		if v < 0 {
			return p, parseErrorf("replay: policy %q: want budget:P with P in 0..100", s)
		}
		p = budget.FromPercents(-1, v)
	default:
		v, err := strconv.Atoi(s)
		if err != nil {
			return p, parseErrorf("replay: policy %q: want 0, a share 1..100, or budget:P", s)
		}
		if v < -1 {
			return p, parseErrorf("replay: policy %q: want 0, a share 1..100, or budget:P", s)
		}
		p = budget.FromPercents(v, budget.DefaultBudgetPercent)
	}
	if err := p.Validate(); err != nil {
		return p, &ParseError{Msg: fmt.Sprintf("replay: policy %q: %v", s, errors.Unwrap(err))}
	}
	return p, nil
}

// ParsePolicies parses a comma-separated list of policies (see ParsePolicy).
// Duplicates are an error.
func ParsePolicies(list string) ([]budget.Policy, error) {
	var out []budget.Policy
	seen := map[string]bool{}
	for _, s := range strings.Split(list, ",") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		p, err := ParsePolicy(s)
		if err != nil {
			return nil, err
		}
		if seen[p.String()] {
			return nil, parseErrorf("replay: policy %s listed twice", p)
		}
		seen[p.String()] = true
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, parseErrorf("replay: empty policy list")
	}
	return out, nil
}

// OrderKind says how the eligible windows are ordered before a policy sees them.
type OrderKind int

// The orders.
const (
	Captured   OrderKind = iota // as captured (the writer's emission order)
	Ascending                   // by saving percent, lowest first (stable)
	Descending                  // by saving percent, highest first (stable)
	Shuffle                     // a seeded shuffle (PCG)
)

// Order is one order of the eligible windows.
type Order struct {
	Kind OrderKind
	Seed uint64 // Shuffle only
}

// String renders the order as the CLI accepts it.
func (o Order) String() string {
	switch o.Kind {
	case Captured:
		return "captured"
	case Ascending:
		return "ascending"
	case Descending:
		return "descending"
	case Shuffle:
		return "shuffle:" + strconv.FormatUint(o.Seed, 10)
	}
	return fmt.Sprintf("order(%d)", int(o.Kind))
}

// ParseOrder parses "captured", "ascending", "descending" or "shuffle:SEED"
// ("shuffle" alone is seed 1).
func ParseOrder(s string) (Order, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "captured":
		return Order{Kind: Captured}, nil
	case "ascending":
		return Order{Kind: Ascending}, nil
	case "descending":
		return Order{Kind: Descending}, nil
	case "shuffle":
		return Order{Kind: Shuffle, Seed: 1}, nil
	}
	if seed, ok := strings.CutPrefix(s, "shuffle:"); ok {
		v, err := strconv.ParseUint(seed, 10, 64)
		if err != nil {
			return Order{}, parseErrorf("replay: order %q: the seed must be an unsigned integer", s)
		}
		return Order{Kind: Shuffle, Seed: v}, nil
	}
	return Order{}, parseErrorf("replay: order %q: want captured, ascending, descending or shuffle:SEED", s)
}

// ParseOrders parses a comma-separated list of orders (see ParseOrder).
func ParseOrders(list string) ([]Order, error) {
	var out []Order
	seen := map[Order]bool{}
	for _, s := range strings.Split(list, ",") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		o, err := ParseOrder(s)
		if err != nil {
			return nil, err
		}
		if seen[o] {
			return nil, parseErrorf("replay: order %s listed twice", o)
		}
		seen[o] = true
		out = append(out, o)
	}
	if len(out) == 0 {
		return nil, parseErrorf("replay: empty order list")
	}
	return out, nil
}

// Permute returns the order of n windows whose savings are given by saving(i):
// a permutation of 0..n-1.
func (o Order) Permute(n int, saving func(i int) int) []int {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	switch o.Kind {
	case Ascending:
		slices.SortStableFunc(perm, func(a, b int) int { return cmp.Compare(saving(a), saving(b)) })
	case Descending:
		slices.SortStableFunc(perm, func(a, b int) int { return cmp.Compare(saving(b), saving(a)) })
	case Shuffle:
		r := rand.New(rand.NewPCG(o.Seed, 0x736e6969)) // "snii"
		r.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	}
	return perm
}

// ParseError is the error of ParsePolicy, ParsePolicies, ParseOrder and
// ParseOrders: Msg is the message for a usage error, and the error wraps
// snii.ErrInvalidArgument.
type ParseError struct{ Msg string }

func (e *ParseError) Error() string { return e.Msg + ": " + snii.ErrInvalidArgument.Error() }

// Unwrap returns snii.ErrInvalidArgument.
func (e *ParseError) Unwrap() error { return snii.ErrInvalidArgument }

func parseErrorf(format string, args ...any) error {
	return &ParseError{Msg: fmt.Sprintf(format, args...)}
}
