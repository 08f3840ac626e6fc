package main

import (
	"context"
	"errors"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/budget"

	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer/merge"
)

// mergeSegments writes the merge of ins to dst. A policy flag given on the
// command line (changed reports which) overrides the sources' recorded
// value; the others keep what the sources recorded.
func mergeSegments(ctx context.Context, dst string, ins []mergeInput, p *policyFlags, ro reader.Options, noStore bool, changed func(flag string) bool) error {
	o := merge.Options{MemoryLimit: p.memory.val, TempDir: p.tempDir, MaxUnitBytes: ro.MaxUnitBytes, DecodeBudget: ro.DecodeBudget, NoStore: noStore}
	if changed("prx-zstd-min-saving") || changed("budget-percent") {
		o.Policy = budget.FromPercents(p.minSaving.val, p.budgetPct.val)
		if o.Policy == (budget.Policy{}) { // the default budget, asked for explicitly
			o.Policy.Percent = budget.DefaultBudgetPercent
		}
	}
	if changed("pairs-budget") {
		o.Pairs = pairsOf(p.pairsPct.val)
	}
	if changed("zstd-level") {
		o.ZstdLevel = p.zstdLevel.val
		if o.ZstdLevel == 0 {
			o.ZstdLevel = merge.DefaultZstdLevel
		}
	}
	srcs := make([]merge.Source, len(ins))
	for i, in := range ins {
		srcs[i] = merge.Source{Path: in.path, Deleted: in.deleted}
	}
	_, err := merge.Merge(ctx, dst, srcs, o)
	if _, ok := errors.AsType[*merge.ConflictError](err); ok {
		return asUsage(hinted{err, "the sources were written with different settings: choose one with --prx-zstd-min-saving, --budget-percent, --zstd-level or --pairs-budget"})
	}
	if err != nil && errors.Is(err, snii.ErrInvalidArgument) {
		// One rule for merge: what the command line asks for is impossible
		// (a source twice, the output a source, a deleted id out of range) is
		// a usage error, exit 2; an unreadable or corrupt file is a failure, exit 1.
		return asUsage(err)
	}
	return err
}
