package limits_test

import (
	"errors"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/limits"
)

// The zero value and the defaults are valid, a field may be lowered to 1, and
// a field above its default or negative is ErrInvalidArgument; Normalize fills
// only the zero fields.
func TestLimits(t *testing.T) {
	d := limits.Limits{}.Normalize()
	if d != (limits.Limits{MaxDocs: limits.DefaultMaxDocs, MaxPositions: limits.DefaultMaxPositions, MaxBytes: limits.DefaultMaxBytes}) {
		t.Fatalf("Limits{}.Normalize() = %+v", d)
	}
	for _, l := range []limits.Limits{{}, d, {MaxDocs: 1, MaxPositions: 1, MaxBytes: 1}} {
		if err := l.Validate(); err != nil {
			t.Errorf("%+v: %v", l, err)
		}
	}
	for _, l := range []limits.Limits{{MaxDocs: d.MaxDocs + 1}, {MaxPositions: -1}, {MaxBytes: d.MaxBytes + 1}} {
		if err := l.Validate(); !errors.Is(err, snii.ErrInvalidArgument) {
			t.Errorf("%+v: %v, want ErrInvalidArgument", l, err)
		}
	}
	if got := (limits.Limits{}).Normalize(); got != d {
		t.Errorf("zero Normalize() = %+v, want %+v", got, d)
	}
	if got := (limits.Limits{MaxDocs: 7}).Normalize(); got != (limits.Limits{MaxDocs: 7, MaxPositions: d.MaxPositions, MaxBytes: d.MaxBytes}) {
		t.Errorf("Normalize() = %+v", got)
	}
}
