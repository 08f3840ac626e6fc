package writer

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/zstdopt"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/limits"

	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/errs"
)

// DefaultMemoryLimit is the term buffer's memory limit when Options.MemoryLimit is 0.
const DefaultMemoryLimit = 256 << 20

// MaxZstdLevel is the highest Options.ZstdLevel.
const MaxZstdLevel = 4

// MaxZstdLevel is zstdopt.MaxLevel (the expression fails to compile otherwise).
const _ = uint(MaxZstdLevel-zstdopt.MaxLevel) + uint(zstdopt.MaxLevel-MaxZstdLevel)

// FieldOptions declares one field of the segment: its name and analyzer.
type FieldOptions struct {
	Name string // required, unique, non-empty
	// Analyzer is the analyzer spec: "" = "standard"; "whitespace",
	// "keyword", settings such as "standard;max_token_bytes=1024", or an
	// analyzer registered with analysis.Register (see analysis.New).
	Analyzer string
	// NoNorms turns off the field's norms (its per-document length, one byte
	// per document, which BM25 scoring needs). Norms are
	// stored by default for every analyzer but keyword, never for keyword.
	NoNorms bool
}

// storesNorms reports whether the field's index stores norms: unless NoNorms,
// for every analyzer but keyword (a keyword field holds one term per value, so
// its length says nothing; BM25 takes every document's length as 1 there).
func (f FieldOptions) storesNorms() bool {
	if f.NoNorms {
		return false
	}
	sp, err := analysis.ParseSpec(f.Analyzer)
	return err == nil && sp.Name != analysis.Keyword
}

// Options configure a segment build. Every field's zero value means its
// default (the budget policy, the default zstd level, DefaultMemoryLimit,
// temp files next to the output, prx's window limits); only Fields is
// required. DefaultOptions fills Fields with standard-analyzed fields. Two builds of the same documents with equal Options (apart
// from MemoryLimit and TempDir, which never change the bytes) produce
// byte-identical segments.
type Options struct {
	// Fields are the segment's fields, each with its analyzer. Required; names
	// unique and non-empty. Their order does not matter: fields are written
	// sorted by name.
	Fields []FieldOptions
	// Policy is the codec policy of the .prx windows; the zero value is the
	// per-field budget with an 8% allowance (see budget.Policy).
	Policy budget.Policy
	// ZstdLevel is the zstd level of .prx windows and dict blocks: 0 the
	// library's default speed, 1 fastest .. 4 best compression.
	ZstdLevel int
	// MemoryLimit bounds the term buffers and the store (bytes): the term
	// buffers spill sorted runs to temp files above it, less 16 MiB (at most
	// a quarter of it) left to the store's encoder and buffers when the
	// segment keeps records. 0 = DefaultMemoryLimit (256 MiB). The segment's
	// bytes do not depend on it. Each field holding terms uses at least
	// 136 KiB, so a limit below that spills after every document.
	MemoryLimit int64
	// TempDir holds the spilled runs and spools; "" = the output file's directory.
	TempDir string
	// Limits bound one .prx window; zero fields = defaults; they may only be
	// lowered. A window over a limit is split at doc boundaries; a single
	// document over a limit fails the build.
	Limits limits.Limits
	// NoStore keeps no records: the segment holds the index only (for an
	// engine that keeps its documents elsewhere). By default every
	// document's record (Document.Record) is stored, in compressed blocks.
	NoStore bool
	// RecordFormat says how the records hold the field values, for readers
	// that find a field in a record (reader.StoreInfo): 0 means snii.RecordJSON
	// (what a nil Document.Record stores).
	RecordFormat snii.RecordFormat
	// TextField is the field whose one value a text record is, with
	// snii.RecordText and snii.RecordMixed (required then; "" otherwise).
	TextField string
	// Pairs configure the phrase-pair index of every field; the zero
	// value is the default budget (see Pairs).
	Pairs Pairs
	// captureSeam holds the callback for every .prx window the build encodes
	// (internal/seam.SetOnWindow, the only way to set it).
	captureSeam

	faults *faults // test hook: injected failures (nil in production)
}

// captureSeam is the seam.Build that Options embeds; nothing of it is exported.
type captureSeam = seam.Build

// DefaultOptions returns the zero Options (every default) with the given
// fields, each with the standard analyzer.
func DefaultOptions(fields ...string) Options {
	var o Options
	for _, f := range fields {
		o.Fields = append(o.Fields, FieldOptions{Name: f, Analyzer: analysis.Standard})
	}
	return o
}

// normalize validates o and returns it with defaults filled in and fields
// sorted by name (analyzer "" replaced by "standard").
func (o Options) normalize() (Options, error) {
	if len(o.Fields) == 0 {
		return o, errs.Invalidf("writer: options: no fields")
	}
	fields := slices.Clone(o.Fields)
	for i := range fields {
		f := &fields[i]
		if f.Name == "" {
			return o, errs.Invalidf("writer: options: field %d has an empty name", i)
		}
		sp, err := analysis.ParseSpec(f.Analyzer)
		if err == nil {
			_, err = analysis.New(f.Analyzer)
		}
		if err != nil {
			return o, fmt.Errorf("writer: options: field %q: %w", f.Name, err) // index's kind: not registered, or a bad spec
		}
		f.Analyzer = sp.String()
	}
	slices.SortFunc(fields, func(a, b FieldOptions) int {
		return cmp.Compare(a.Name, b.Name)
	})
	for i := 1; i < len(fields); i++ {
		if fields[i].Name == fields[i-1].Name {
			return o, errs.Invalidf("writer: options: field %q declared twice", fields[i].Name)
		}
	}
	o.Fields = fields
	if o.RecordFormat == 0 {
		o.RecordFormat = snii.RecordJSON
	}
	switch {
	case !format.ValidRecordFormat(o.RecordFormat):
		return o, errs.Invalidf("writer: options: record format %d (want snii.RecordText, snii.RecordJSON or snii.RecordMixed)", o.RecordFormat)
	case o.RecordFormat == snii.RecordJSON && o.TextField != "":
		return o, errs.Invalidf("writer: options: text field %q with JSON records (a text field is for snii.RecordText and snii.RecordMixed)", o.TextField)
	case o.RecordFormat != snii.RecordJSON && !slices.ContainsFunc(fields, func(f FieldOptions) bool { return f.Name == o.TextField }):
		return o, errs.Invalidf("writer: options: %s records need a TextField naming one of the fields (got %q)", o.RecordFormat, o.TextField)
	}
	if err := o.Policy.Validate(); err != nil {
		return o, fmt.Errorf("writer: options: %w", err)
	}
	if err := o.Pairs.Validate(); err != nil {
		return o, fmt.Errorf("writer: options: %w", err)
	}
	if o.ZstdLevel < 0 || o.ZstdLevel > MaxZstdLevel {
		return o, errs.Invalidf("writer: options: zstd level %d (want 0..%d)", o.ZstdLevel, MaxZstdLevel)
	}
	if o.MemoryLimit < 0 {
		return o, errs.Invalidf("writer: options: memory limit %d", o.MemoryLimit)
	}
	if o.MemoryLimit == 0 {
		o.MemoryLimit = DefaultMemoryLimit
	}
	if err := o.Limits.Validate(); err != nil {
		return o, fmt.Errorf("writer: options: %w", err)
	}
	o.Limits = o.Limits.Normalize()
	return o, nil
}
