package peers

import (
	"math"
	"sort"
)

// median returns the median of xs (mean of the two middle values for an even
// count); 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// nearestRank returns the p-th percentile (0 < p ≤ 100) of xs by the nearest
// rank method: the smallest value with at least p% of the samples at or below
// it. With few samples a high percentile is simply the maximum.
func nearestRank(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	r := int(math.Ceil(p / 100 * float64(len(s))))
	if r < 1 {
		r = 1
	}
	if r > len(s) {
		r = len(s)
	}
	return s[r-1]
}

// geomean returns the geometric mean of positive xs (0 for none).
func geomean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum float64
	for _, x := range xs {
		sum += math.Log(x)
	}
	return math.Exp(sum / float64(len(xs)))
}

func minMax(xs []float64) (float64, float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	lo, hi := xs[0], xs[0]
	for _, x := range xs[1:] {
		lo = math.Min(lo, x)
		hi = math.Max(hi, x)
	}
	return lo, hi
}

// pairedRatio returns, for samples of engines A (s[0]) and B (s[1]) taken in
// the same cycles, the median of A's, the median of B's and the median of the
// per-cycle ratios A/B.
func pairedRatio(s [2][]float64) (medA, medB, ratio float64) {
	ratios := make([]float64, len(s[0]))
	for k := range ratios {
		ratios[k] = s[0][k] / s[1][k]
	}
	return median(s[0]), median(s[1]), median(ratios)
}
