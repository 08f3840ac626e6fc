package s3

import (
	"slices"
	"testing"
)

// TestPlan: touching ranges are one request; gaps are merged smallest first
// while they add up to no more than the bytes asked for and each is within
// gap; past that budget only to keep the requests within maxReqs.
func TestPlan(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rs      []rng
		gap     int64
		maxReqs int
		want    []rng
	}{
		{"touching", []rng{{0, 10}, {10, 5}}, 0, 100, []rng{{0, 15}}},
		{"no gap merged", []rng{{0, 10}, {11, 5}}, 0, 100, []rng{{0, 10}, {11, 5}}},
		// 30 bytes asked: gaps 5 and 20 fit the budget (25), the gap of 40 is over gap.
		{"budget", []rng{{0, 10}, {15, 10}, {45, 10}, {95, 1}}, 32, 100, []rng{{0, 55}, {95, 1}}},
		// 3 bytes asked: the gap of 4 is over the budget.
		{"over budget", []rng{{0, 1}, {5, 1}, {7, 1}}, 100, 100, []rng{{0, 1}, {5, 3}}},
		// Past the budget, the smallest gaps go until there are 2 requests.
		{"max requests", []rng{{0, 1}, {5, 1}, {7, 1}, {20, 1}}, 100, 2, []rng{{0, 8}, {20, 1}}},
		// gap bounds every merge, even past the budget.
		{"max requests, gap", []rng{{0, 1}, {500, 1}}, 100, 1, []rng{{0, 1}, {500, 1}}},
	} {
		if got := plan(tc.rs, tc.gap, tc.maxReqs); !slices.Equal(got, tc.want) {
			t.Errorf("%s: plan = %v, want %v", tc.name, got, tc.want)
		}
	}
}
