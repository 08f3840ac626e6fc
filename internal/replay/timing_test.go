package replay

import "testing"

// TestMedian checks median on odd, even and empty inputs, unsorted, for both
// element types it serves.
func TestMedian(t *testing.T) {
	if got := median([]int64(nil)); got != 0 {
		t.Errorf("median(nil) = %v, want 0", got)
	}
	for _, tc := range []struct {
		ints []int64
		want float64
	}{
		{[]int64{7}, 7},
		{[]int64{9, 1, 5}, 5},
		{[]int64{4, 1, 3, 2}, 2.5},
		{[]int64{-3, 10}, 3.5},
	} {
		fl := make([]float64, len(tc.ints))
		for i, v := range tc.ints {
			fl[i] = float64(v)
		}
		if got := median(append([]int64(nil), tc.ints...)); got != tc.want {
			t.Errorf("median(%v) int64 = %v, want %v", tc.ints, got, tc.want)
		}
		if got := median(fl); got != tc.want {
			t.Errorf("median(%v) float64 = %v, want %v", tc.ints, got, tc.want)
		}
	}
}
