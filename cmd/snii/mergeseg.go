package main

import (
	"context"
	"errors"
	"strings"

	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/writer/merge"
)

// mergeSegments writes the merge of ins to dst. A policy flag given on the
// command line (changed reports which) overrides the sources' recorded
// value; the others keep what the sources recorded.
func mergeSegments(ctx context.Context, dst string, ins []mergeInput, p *policyFlags, changed func(flag string) bool) error {
	o := merge.Options{MemoryLimit: p.memory.val, TempDir: p.tempDir}
	if changed("prx-zstd-min-saving") {
		o.MinSavingPercent = merge.Int(p.minSaving.val)
	}
	if changed("budget-percent") {
		o.BudgetPercent = merge.Int(p.budgetPct.val)
	}
	if changed("zstd-level") {
		o.ZstdLevel = merge.Int(p.zstdLevel.val)
	}
	srcs := make([]merge.Source, len(ins))
	for i, in := range ins {
		srcs[i] = merge.Source{Path: in.path, Deleted: in.deleted}
	}
	_, err := merge.MergeContext(ctx, dst, srcs, o)
	if err != nil && errors.Is(err, errs.InvalidArgument) {
		// One rule for merge: what the command line asks for is impossible
		// (a source twice, the output a source, a deleted id out of range,
		// settings the sources disagree on) is a usage error, exit 2; an
		// unreadable or corrupt file is a failure, exit 1.
		if strings.Contains(err.Error(), "set Options.") {
			return asUsage(hinted{err, "the sources were written with different settings: choose one with --prx-zstd-min-saving, --budget-percent or --zstd-level"})
		}
		return asUsage(err)
	}
	return err
}
