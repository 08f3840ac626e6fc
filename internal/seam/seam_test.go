package seam_test

import (
	"context"
	"errors"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// TestBuildSeam: the callback set on Options is the one read back, and it
// travels with copies of the Options.
func TestBuildSeam(t *testing.T) {
	var o writer.Options
	if seam.OnWindow(&o) != nil {
		t.Fatal("zero Options has a window callback")
	}
	calls := 0
	seam.SetOnWindow(&o, func(string, *prx.Window, prx.Frame) error { calls++; return nil })
	c := o
	fn := seam.OnWindow(&c)
	if fn == nil {
		t.Fatal("a copy of the Options lost the window callback")
	}
	if err := fn("text", nil, prx.Frame{}); err != nil || calls != 1 {
		t.Fatalf("callback: err %v, calls %d", err, calls)
	}
}

// TestZeroSegment: a Segment that Open did not make is an invalid argument,
// not a panic.
func TestZeroSegment(t *testing.T) {
	var s reader.Segment
	if _, err := seam.IndexMeta(&s, "text"); !errors.Is(err, snii.ErrInvalidArgument) {
		t.Errorf("IndexMeta of a zero Segment: %v", err)
	}
	err := seam.SegmentWindows(context.Background(), &s, "text", func([]byte, *prx.Window, []prx.Unit) error { return nil })
	if !errors.Is(err, snii.ErrInvalidArgument) {
		t.Errorf("SegmentWindows of a zero Segment: %v", err)
	}
}
