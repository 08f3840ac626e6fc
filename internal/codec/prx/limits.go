package prx

import "github.com/snii-go/snii/limits"

// checkedLimits validates and normalizes l.
func checkedLimits(l limits.Limits) (limits.Limits, error) {
	if err := l.Validate(); err != nil {
		return limits.Limits{}, err
	}
	return l.Normalize(), nil
}

// clampedLimits normalizes l for constructors that cannot fail: a field that is
// negative or above its default is replaced by the default (limits are never raised).
func clampedLimits(l limits.Limits) limits.Limits {
	d := limits.Limits{}.Normalize()
	if l.MaxDocs < 0 || l.MaxDocs > d.MaxDocs {
		l.MaxDocs = d.MaxDocs
	}
	if l.MaxPositions < 0 || l.MaxPositions > d.MaxPositions {
		l.MaxPositions = d.MaxPositions
	}
	if l.MaxBytes < 0 || l.MaxBytes > d.MaxBytes {
		l.MaxBytes = d.MaxBytes
	}
	return l.Normalize()
}
