package main

import (
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/writer"
	"github.com/spf13/pflag"
)

// policyFlags are the codec-policy flags shared by build and merge.
type policyFlags struct {
	minSaving *intRange
	budgetPct *intRange
	zstdLevel *intRange
	pairsPct  *intRange
	memory    sizeValue
	tempDir   string
}

func addPolicyFlags(fs *pflag.FlagSet) *policyFlags {
	p := &policyFlags{
		minSaving: newIntRange(-1, -1, 100, "-1 (the budget), 0 (always the smallest frame) or a share 1..100"),
		budgetPct: newIntRange(budget.DefaultBudgetPercent, 0, 100, "a percent 0..100"),
		zstdLevel: newIntRange(0, 0, writer.MaxZstdLevel, "0 (default) or 1 (fastest) .. 4 (best compression)"),
		pairsPct:  newIntRange(writer.DefaultPairsPercent, 0, 100, "a percent 0..100 (0: no pairs)"),
	}
	fs.Var(p.minSaving, "prx-zstd-min-saving", "codec policy of .prx windows: -1 the per-field budget, 0 always the smallest frame, 1..100 keep the faster frame when zstd saves less than this percent")
	fs.Var(p.budgetPct, "budget-percent", "the budget's allowance, in percent of the eligible windows' smallest frames (with --prx-zstd-min-saving -1)")
	fs.Var(p.zstdLevel, "zstd-level", "zstd level of .prx windows and dictionary blocks: 0 default, 1 fastest .. 4 best")
	fs.Var(p.pairsPct, "pairs-budget", "the phrase-pair index of each field, in percent of its .prx bytes: docs-only lists of adjacent term pairs that answer two-term phrases and narrow longer ones; 0 writes none")
	fs.Var(&p.memory, "memory", "memory limit of the term buffers before they spill to temp files, e.g. 64MiB (default 256MiB); never changes the output bytes")
	fs.StringVar(&p.tempDir, "temp-dir", "", "directory of spill files (default: the output's directory)")
	return p
}

// apply sets the policy fields of writer options.
func (p *policyFlags) apply(o *writer.Options) {
	o.Policy = budget.FromPercents(p.minSaving.val, p.budgetPct.val)
	o.ZstdLevel = p.zstdLevel.val
	o.Pairs = pairsOf(p.pairsPct.val)
	o.MemoryLimit = p.memory.val
	o.TempDir = p.tempDir
}

// pairsOf returns the pair settings of a --pairs-budget percent (0: off).
func pairsOf(percent int) writer.Pairs {
	if percent == 0 {
		return writer.Pairs{Percent: writer.PairsOff}
	}
	return writer.Pairs{Percent: percent}
}
