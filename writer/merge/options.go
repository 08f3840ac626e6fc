package merge

import (
	"fmt"
	"os"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/prx"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// DefaultMemoryLimit is the merge memory limit when Options.MemoryLimit is 0.
const DefaultMemoryLimit = 64 << 20

// Memory accounting of a merge pass (see Options.MemoryLimit).
const (
	// writerMemory is what the writer holds whatever the sources: its dict
	// spool (8 MiB) and doc-span spool (4 MiB) before they move to temp
	// files, the output buffer and the zstd encoder.
	writerMemory = 16 << 20
	// sourceMemory is the read state of one source of a pass: a decoded
	// dict block, a doc window, a decoded .prx window and its decode source
	// (zstd decoder and buffers), the read-ahead chunks (about 0.45 MB
	// measured, docs/BENCHMARKS.md).
	sourceMemory = 1 << 20
)

// Source is one segment to merge.
type Source struct {
	// Segment is an open segment. It must stay open during Merge; Merge does
	// not close it.
	Segment *reader.Segment
	// Path is the segment file to read when Segment is nil. Merge opens it
	// only while it reads it (pread with a small read-ahead, not mapped).
	Path string
	// Deleted holds doc ids of this source (as it numbers them) to drop; nil
	// or empty drops nothing. An id at or beyond the source's doc count is
	// an error. Merge does not modify it; it must not change during Merge.
	Deleted *roaring.Bitmap
}

// Options configure a merge. The zero value is valid: the sources' recorded
// policy, zstd level and window limits, DefaultMemoryLimit, and temp files
// next to the destination.
type Options struct {
	// MinSavingPercent overrides the codec policy of the .prx windows (-1 the
	// per-index budget, 0 always the smallest frame, 1..100 a fixed share;
	// see writer.Options). nil: the sources' recorded value.
	MinSavingPercent *int
	// BudgetPercent overrides the budget's allowance (0..100). nil: the
	// sources' recorded value.
	BudgetPercent *int
	// ZstdLevel overrides the zstd level of .prx windows and dict blocks
	// (0..writer.MaxZstdLevel). nil: the sources' recorded value.
	ZstdLevel *int
	// Limits overrides the .prx window limits (they decide where windows are
	// split). nil: the sources' recorded limits.
	Limits *prx.Limits
	// MemoryLimit bounds the merge's buffers (bytes): the writer's (counted
	// as 16 MiB) plus the read state of the sources merged at once (1 MiB
	// each). With more sources than fit, the merge runs in passes through
	// intermediate segments in TempDir; the output bytes do not depend on
	// it. 0 = DefaultMemoryLimit (64 MiB: 48 sources per pass). Any limit
	// allows at least two sources per pass.
	MemoryLimit int64
	// TempDir holds intermediate segments and the writer's spool files;
	// "" = the destination's directory.
	TempDir string
}

// Int returns a pointer to v, for the override fields of Options.
func Int(v int) *int { return &v }

// Stats describe a finished merge.
type Stats struct {
	Sources   int    // source segments
	Passes    int    // merge passes (1 unless the sources exceed the fan-in of MemoryLimit)
	DocsIn    uint64 // documents in the sources
	Deleted   uint64 // documents dropped
	Docs      uint64 // documents in the output
	Terms     uint64 // distinct terms over all logical indexes of the output
	Postings  uint64 // postings re-encoded into the output
	Positions uint64 // positions re-encoded into the output
	BytesOut  int64  // size of the output segment
}

// fanIn returns how many sources one pass may merge under the memory limit.
func fanIn(limit int64) int {
	return max(2, int((limit-writerMemory)/sourceMemory))
}

// setting is one recorded value of a source index, for disagreement messages.
type setting struct {
	src   int
	index string
	value string
}

// resolveInt picks the override or the value every source index agrees on.
func resolveInt(name, field string, override *int, vals []int, where []setting) (int, error) {
	if override != nil {
		return *override, nil
	}
	for i := 1; i < len(vals); i++ {
		if vals[i] != vals[0] {
			return 0, disagree(name, field, where, 0, i)
		}
	}
	return vals[0], nil
}

func disagree(name, field string, where []setting, a, b int) error {
	return errs.Invalidf("merge: the sources disagree on the %s (source %d index %q: %s, source %d index %q: %s); set Options.%s",
		name, where[a].src, where[a].index, where[a].value, where[b].src, where[b].index, where[b].value, field)
}

// writerOptions builds the destination's writer options: the fields with
// their analyzers, and the policy, zstd level and limits from the overrides
// or the sources' agreed values.
func writerOptions(srcs []*source, fields []fieldPlan, o *Options) (writer.Options, error) {
	var msp, bp, zl []int
	var lims []prx.Limits
	var wMsp, wBp, wZl, wLim []setting
	for _, s := range srcs {
		for _, name := range s.fields {
			m := s.metas[name]
			msp, bp, zl = append(msp, m.Policy.MinSavingPercent), append(bp, m.Policy.BudgetPercent), append(zl, m.ZstdLevel)
			lims = append(lims, m.Limits.Normalize())
			wMsp = append(wMsp, setting{s.ord, name, fmt.Sprint(m.Policy.MinSavingPercent)})
			wBp = append(wBp, setting{s.ord, name, fmt.Sprint(m.Policy.BudgetPercent)})
			wZl = append(wZl, setting{s.ord, name, fmt.Sprint(m.ZstdLevel)})
			wLim = append(wLim, setting{s.ord, name, fmt.Sprintf("%+v", m.Limits.Normalize())})
		}
	}
	wo := writer.Options{MemoryLimit: o.MemoryLimit, TempDir: o.TempDir}
	for _, f := range fields {
		wo.Fields = append(wo.Fields, writer.FieldOptions{Name: f.name, Analyzer: f.analyzer})
	}
	var err error
	if wo.MinSavingPercent, err = resolveInt("codec policy (min saving percent)", "MinSavingPercent", o.MinSavingPercent, msp, wMsp); err != nil {
		return wo, err
	}
	if wo.BudgetPercent, err = resolveInt("budget percent", "BudgetPercent", o.BudgetPercent, bp, wBp); err != nil {
		return wo, err
	}
	if wo.ZstdLevel, err = resolveInt("zstd level", "ZstdLevel", o.ZstdLevel, zl, wZl); err != nil {
		return wo, err
	}
	if o.Limits != nil {
		wo.Limits = *o.Limits
	} else {
		for i := 1; i < len(lims); i++ {
			if lims[i] != lims[0] {
				return wo, disagree("window limits", "Limits", wLim, 0, i)
			}
		}
		wo.Limits = lims[0]
	}
	return wo, nil
}

// checkOptions validates the options that do not depend on the sources.
func checkOptions(dst string, o *Options) error {
	if dst == "" {
		return errs.Invalidf("merge: empty destination path")
	}
	if o.MemoryLimit < 0 {
		return errs.Invalidf("merge: memory limit %d", o.MemoryLimit)
	}
	if o.MemoryLimit == 0 {
		o.MemoryLimit = DefaultMemoryLimit
	}
	if o.TempDir != "" {
		if fi, err := os.Stat(o.TempDir); err != nil || !fi.IsDir() {
			return errs.Invalidf("merge: temp dir %s is not a directory", o.TempDir)
		}
	}
	if o.ZstdLevel != nil && (*o.ZstdLevel < 0 || *o.ZstdLevel > writer.MaxZstdLevel) {
		return errs.Invalidf("merge: zstd level %d (want 0..%d)", *o.ZstdLevel, writer.MaxZstdLevel)
	}
	if o.MinSavingPercent != nil && (*o.MinSavingPercent < -1 || *o.MinSavingPercent > 100) {
		return errs.Invalidf("merge: min saving percent %d (want -1, 0 or 1..100)", *o.MinSavingPercent)
	}
	if o.BudgetPercent != nil && (*o.BudgetPercent < 0 || *o.BudgetPercent > 100) {
		return errs.Invalidf("merge: budget percent %d (want 0..100)", *o.BudgetPercent)
	}
	if o.Limits != nil {
		if err := o.Limits.Validate(); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
	}
	return nil
}
