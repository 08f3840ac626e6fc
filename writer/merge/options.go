package merge

import (
	"fmt"
	"math"
	"os"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/limits"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// defaultMemoryLimit is the merge memory limit when Options.MemoryLimit is 0.
const defaultMemoryLimit = 64 << 20

// Memory accounting of a merge pass (see Options.MemoryLimit).
const (
	// writerMemory is what the writer holds whatever the sources: its dict
	// spool (8 MiB) and doc-span spool (4 MiB) before they move to temp
	// files, the output buffer and the zstd encoders (a merge writes the
	// store's blocks straight to the output: no store spool).
	writerMemory = 16 << 20
	// sourceMemory is the read state of one source of a pass: a decoded
	// dict block, a doc window, a decoded .prx window and its decode source
	// (zstd decoder and buffers), the read-ahead chunks: less than 1 MiB
	// (docs/bench/merge-rss.txt).
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

// Options configure a merge. Every field's zero value means its default: the
// policy, zstd level and window limits the sources recorded (they must agree
// on each one not set, or Merge fails with a *ConflictError),
// 64 MiB, and temp files next to the destination.
type Options struct {
	// Policy re-encodes the .prx windows with another codec policy. The zero
	// value keeps the sources' policy; to ask for the default budget
	// explicitly, write budget.Policy{Kind: budget.Budget, Percent: budget.DefaultBudgetPercent}.
	Policy budget.Policy
	// ZstdLevel re-encodes with another zstd level: 1..writer.MaxZstdLevel,
	// or DefaultZstdLevel for a build's level 0. 0 keeps the sources' level.
	ZstdLevel int
	// Limits re-splits the .prx windows with other window limits (they may only
	// be lowered). The zero value keeps the sources' limits; limits.Limits{}.Normalize()
	// asks for the defaults.
	Limits limits.Limits
	// Pairs rebuilds the pair sections with other settings. The zero value
	// keeps the sources' settings; to ask for the defaults explicitly, write
	// writer.Pairs{Percent: writer.DefaultPairsPercent}. The pairs are always
	// recounted from the merged postings, so a merge writes the pairs a build
	// of the same documents writes.
	Pairs writer.Pairs
	// MemoryLimit bounds the merge's buffers (bytes): the writer's (counted
	// as 16 MiB) plus the read state of the sources merged at once (1 MiB
	// each). With more sources than fit, the merge runs in passes through
	// intermediate segments in TempDir; the output bytes do not depend on
	// it. 0 = 64 MiB (48 sources per pass). Any limit
	// allows at least two sources per pass.
	MemoryLimit int64
	// TempDir holds intermediate segments and the writer's spool files;
	// "" = the destination's directory.
	TempDir string
	// MaxUnitBytes and DecodeBudget bound the memory of decoding the .prx
	// units of the sources Merge opens from a Path, as reader.Options'
	// fields of the same names do (0 and nil: the reader's defaults, 16 MiB
	// per unit and the process-wide budget). A caller's open Segment keeps
	// the bounds it was opened with.
	MaxUnitBytes int
	DecodeBudget *reader.DecodeBudget
	// NoStore drops the sources' records: the merged segment keeps none.
	// Without it the merged segment keeps the surviving documents' records
	// when every source keeps records (in the same record format), none
	// when no source does (segments of format 7 and older keep none), and
	// sources of both kinds are an invalid-argument error (set NoStore to
	// merge them without records).
	NoStore bool
}

// DefaultZstdLevel is the Options.ZstdLevel that re-encodes with the zstd
// level a build gets from writer.Options.ZstdLevel 0 (0 itself keeps the
// sources' level).
const DefaultZstdLevel = -1

// ConflictError is the error of a merge whose sources recorded different
// values of a setting that Options does not set. It wraps
// snii.ErrInvalidArgument.
type ConflictError struct {
	// Setting is the Options field to set: "Policy", "ZstdLevel", "Limits" or "Pairs".
	Setting string
	// Sources and Indexes are the two disagreeing source indexes (source
	// numbers as given to Merge) and Values their values.
	Sources [2]int
	Indexes [2]string
	Values  [2]string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("merge: the sources disagree on %s (source %d index %q: %s, source %d index %q: %s); set Options.%s: %v",
		e.Setting, e.Sources[0], e.Indexes[0], e.Values[0], e.Sources[1], e.Indexes[1], e.Values[1], e.Setting, snii.ErrInvalidArgument)
}

// Unwrap returns snii.ErrInvalidArgument.
func (e *ConflictError) Unwrap() error { return snii.ErrInvalidArgument }

// Stats describe a finished merge.
type Stats struct {
	Sources   int    // source segments
	Passes    int    // merge passes (1 unless the sources exceed the fan-in of MemoryLimit)
	DocsIn    uint64 // documents in the sources
	Deleted   uint64 // documents dropped
	Docs      uint64 // documents in the output
	Terms     uint64 // distinct terms over all fields of the output
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

// resolve returns the value every source index agrees on, or a *ConflictError.
func resolve[T comparable](setting string, vals []T, where []setting) (T, error) {
	for i := 1; i < len(vals); i++ {
		if vals[i] != vals[0] {
			a, b := where[0], where[i]
			return vals[0], &ConflictError{Setting: setting, Sources: [2]int{a.src, b.src},
				Indexes: [2]string{a.index, b.index}, Values: [2]string{a.value, b.value}}
		}
	}
	return vals[0], nil
}

// writerOptions builds the destination's writer options: the fields with
// their analyzers, and the policy, zstd level and limits from the options
// or the sources' agreed values.
func writerOptions(srcs []*source, fields []fieldPlan, o *Options) (writer.Options, error) {
	var pols []budget.Policy
	var zl []int
	var lims []limits.Limits
	var pairs []writer.Pairs
	var wPol, wZl, wLim, wPairs []setting
	for _, s := range srcs {
		for _, name := range s.fields {
			m := s.metas[name]
			pols, zl = append(pols, m.Policy), append(zl, m.ZstdLevel)
			lims = append(lims, m.Limits.Normalize())
			pairs = append(pairs, pairsFromPercent(m.PairsPercent, m.PairsMinDF))
			wPairs = append(wPairs, setting{s.ord, name, fmt.Sprintf("%d%%, min df %d", m.PairsPercent, m.PairsMinDF)})
			wPol = append(wPol, setting{s.ord, name, m.Policy.String()})
			wZl = append(wZl, setting{s.ord, name, fmt.Sprint(m.ZstdLevel)})
			wLim = append(wLim, setting{s.ord, name, fmt.Sprintf("%+v", m.Limits.Normalize())})
		}
	}
	wo := writer.Options{MemoryLimit: o.MemoryLimit, TempDir: o.TempDir, Policy: o.Policy, ZstdLevel: o.ZstdLevel, Limits: o.Limits, Pairs: o.Pairs}
	for _, f := range fields {
		wo.Fields = append(wo.Fields, writer.FieldOptions{Name: f.name, Analyzer: f.analyzer, NoNorms: !f.norms})
	}
	if err := storeOptions(srcs, o, &wo); err != nil {
		return wo, err
	}
	var err error
	if o.Policy == (budget.Policy{}) {
		if wo.Policy, err = resolve("Policy", pols, wPol); err != nil {
			return wo, err
		}
	}
	if o.ZstdLevel == DefaultZstdLevel {
		wo.ZstdLevel = 0
	}
	if o.ZstdLevel == 0 {
		if wo.ZstdLevel, err = resolve("ZstdLevel", zl, wZl); err != nil {
			return wo, err
		}
	}
	if o.Pairs == (writer.Pairs{}) && len(pairs) > 0 {
		if wo.Pairs, err = resolve("Pairs", pairs, wPairs); err != nil {
			return wo, err
		}
	}
	if o.Limits == (limits.Limits{}) {
		if wo.Limits, err = resolve("Limits", lims, wLim); err != nil {
			return wo, err
		}
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
	if o.MaxUnitBytes < 0 || o.MaxUnitBytes > limits.DefaultMaxBytes {
		return errs.Invalidf("merge: MaxUnitBytes = %d (want 0 for the reader's default, or 1..%d)", o.MaxUnitBytes, limits.DefaultMaxBytes)
	}
	if o.MemoryLimit == 0 {
		o.MemoryLimit = defaultMemoryLimit
	}
	if o.TempDir != "" {
		if fi, err := os.Stat(o.TempDir); err != nil || !fi.IsDir() {
			return errs.Invalidf("merge: temp dir %s is not a directory", o.TempDir)
		}
	}
	if o.ZstdLevel < DefaultZstdLevel || o.ZstdLevel > writer.MaxZstdLevel {
		return errs.Invalidf("merge: zstd level %d (want DefaultZstdLevel, 0 or 1..%d)", o.ZstdLevel, writer.MaxZstdLevel)
	}
	if err := o.Policy.Validate(); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if err := o.Pairs.Validate(); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if err := o.Limits.Validate(); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	return nil
}

// storeOptions sets wo's store options from the sources' stores (see
// Options.NoStore). Sources that keep records in one format give that
// format; text and JSON records together (a merge of line and JSON-line
// segments) give mixed records, as a build of both inputs does, when the
// sources that hold text records name the same text field.
func storeOptions(srcs []*source, o *Options, wo *writer.Options) error {
	wo.NoStore = true
	if o.NoStore || len(srcs) == 0 {
		return nil
	}
	first := srcs[0]
	format, textSrc := first.store.Format, (*source)(nil)
	for _, s := range srcs {
		if s.hasStore != first.hasStore {
			with, without := s, first
			if first.hasStore {
				with, without = first, s
			}
			return errs.Invalidf("merge: source %d (%s) keeps records and source %d (%s) keeps none; set Options.NoStore (snii merge --no-store) to merge them without records",
				with.ord, with.name, without.ord, without.name)
		}
		if !s.hasStore {
			continue
		}
		if s.store.Format != format {
			format = snii.RecordMixed
		}
		if s.store.Format == snii.RecordJSON {
			continue
		}
		if textSrc != nil && s.store.TextField != textSrc.store.TextField {
			return errs.Invalidf("merge: source %d (%s) keeps text records of field %q, source %d (%s) of field %q; set Options.NoStore to merge them without records",
				textSrc.ord, textSrc.name, textSrc.store.TextField, s.ord, s.name, s.store.TextField)
		}
		textSrc = s
	}
	if first.hasStore {
		wo.NoStore, wo.RecordFormat = false, format
		if textSrc != nil {
			wo.TextField = textSrc.store.TextField
		}
	}
	return nil
}

// pairsFromPercent returns the pair settings a segment recorded: percent 0 is
// off.
func pairsFromPercent(percent int, minDF uint64) writer.Pairs {
	p := writer.Pairs{Percent: percent, MinDF: int(min(minDF, math.MaxInt32))}
	if percent == 0 {
		p.Percent = writer.PairsOff
	}
	return p
}
