package merge_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/writer"
	"github.com/snii-go/snii/writer/merge"
)

// Issue 16: the sources Merge opens get the caller's decode bounds. A unit
// ceiling below what the sources' zstd units declare fails the merge with
// ErrLimit (and leaves nothing at the destination); the default merges; a
// ceiling out of range is an invalid argument.
func TestMergeMaxUnitBytes(t *testing.T) {
	dir := t.TempDir()
	o := genOptions("text")
	o.Policy = budget.Policy{Kind: budget.Smallest} // every unit zstd can shrink is zstd
	// Regular positions: zstd shrinks them, so the windows are zstd units of
	// about a kilobyte.
	docs := make([]writer.Document, 3000)
	for i := range docs {
		docs[i].Fields = []writer.Field{{Name: "text", Values: []string{strings.Repeat("alpha beta gamma ", 4) + "delta"}}}
	}
	a := build(t, dir, "a.snii", o, docs)
	b := build(t, dir, "b.snii", o, docs[:1000])

	_, err := merge.Merge(context.Background(), dir+"/low.snii", paths(a, b), merge.Options{MaxUnitBytes: 64})
	if !errors.Is(err, snii.ErrLimit) || !strings.Contains(err.Error(), "MaxUnitBytes") {
		t.Fatalf("MaxUnitBytes 64: %v, want ErrLimit naming MaxUnitBytes", err)
	}
	checkDir(t, "after the failed merge", dir, "a.snii", "b.snii")

	for _, bad := range []int{-1, 1 << 30} {
		if _, err := merge.Merge(context.Background(), dir+"/bad.snii", paths(a, b), merge.Options{MaxUnitBytes: bad}); !errors.Is(err, snii.ErrInvalidArgument) {
			t.Errorf("MaxUnitBytes %d: %v, want ErrInvalidArgument", bad, err)
		}
	}
	doMerge(t, dir, "ok.snii", paths(a, b), merge.Options{})
}
