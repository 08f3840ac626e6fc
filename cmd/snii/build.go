package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/s3url"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// buildHook extends snii build from another file (e.g. --capture): it adds its
// flags, and start may adjust the writer options before the build; the returned
// finish runs after the build with its error (nil on success) and may fail it.
type buildHook struct {
	addFlags func(fs *pflag.FlagSet)
	// start runs before the writer is created, with the options it will get and
	// the output path; finish runs after the build (buildErr nil when it succeeded).
	start func(o *writer.Options, output string) (finish func(buildErr error) error, err error)
}

type buildFlags struct {
	output   string
	format   *enumValue
	fields   []string
	analyzer *enumValue
	// maxToken: the analyzer's max_token_bytes; longer tokens are skipped and counted.
	maxToken int
	noNorms  bool
	policy   *policyFlags
	skipBad  bool
	quiet    bool
	json     bool
	// allowEmpty: write the segment even when no --field got a value.
	allowEmpty bool
	// maxLine: the longest line (document) accepted; 0: min(64MiB, --memory/4).
	maxLine sizeValue
	s3      s3Flags
	noStore bool
}

func newBuildCmd(e *env, hooks ...buildHook) *cobra.Command {
	f := &buildFlags{
		format:   newEnum("auto", "auto", formatLines, formatJSONL),
		analyzer: newEnum(analysis.Standard, analysis.Names()...),
	}
	cmd := &cobra.Command{
		Use:   "build -o OUT.snii [flags] INPUT...",
		Short: "Build a segment from log lines or JSON lines",
		Long: `Build a segment from inputs: files, or - for stdin. A .gz input is decompressed.

Formats (--format, by default from the extension: .jsonl, .ndjson and .json are jsonl):
  lines  every line is a document with one field, "text" (doc id = line number - 1,
         counting across the inputs in order)
  jsonl  every line is a JSON object; each --field is a dotted JSON path (msg, user.name)
         that becomes a field of the same name. Strings are indexed as they are,
         numbers as written, booleans as true/false; an array gives several values;
         a missing path, null or an object gives none. Blank lines are skipped.

An invalid JSON line stops the build with its file and line, unless --skip-bad-lines,
which skips and counts such lines. A progress bar is drawn on stderr when it is a
terminal (not with --quiet). At the end a summary gives the documents, terms and bytes
per section of each field, and the tokens skipped for being longer than
--max-token-bytes (default 255, as Lucene's standard tokenizer; such tokens, e.g.
long hex strings, are not indexed but still take a position). The segment is written to a temp file and renamed
into place: a failed build leaves nothing at OUT.

The segment also stores every document's record, byte for byte, in compressed blocks: the
input line without its line ending (lines), the JSON line as read (jsonl). snii get
prints them by doc id. --no-store leaves them out (the index alone, for an engine that
keeps its documents elsewhere).`,
		Example: `  snii build -o app.snii testdata/demo/app.log
  snii build -o events.snii --field msg --field user.name --field tags testdata/demo/events.jsonl
  zcat logs/*.gz | snii build -o logs.snii -
  snii build -o app.snii --prx-zstd-min-saving 0 app.log      # always the smallest frame
  snii build -o app.snii --budget-percent 15 --memory 64MiB app.log.gz
  snii build -o app.snii --no-store app.log                   # index only, no records`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBuild(cmd.Context(), e, f, hooks, args)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&f.output, "output", "o", "", "the segment file to write (required), or s3://bucket/key: built in a temp "+
		"directory (--temp-dir), then uploaded")
	fs.Var(f.format, "format", "input format: auto (by extension), lines or jsonl")
	fs.StringSliceVar(&f.fields, "field", nil, "jsonl: a dotted JSON path to index as a field (repeat, or separate with commas)")
	fs.Var(f.analyzer, "analyzer", "analyzer of every field: "+orList(analysis.Names()))
	fs.BoolVar(&f.noStore, "no-store", false, "keep no records: the segment holds the index only (query --ids and --count still work; "+
		"records are what query prints and get returns)")
	fs.BoolVar(&f.noNorms, "no-norms", false, "store no norms (per-document field lengths, 1 byte per document per field, used by query --top); keyword fields never store them")
	fs.IntVar(&f.maxToken, "max-token-bytes", analysis.DefaultMaxTokenBytes,
		fmt.Sprintf("longest token indexed, in bytes (1..%d); longer tokens are skipped and counted in the summary and by inspect", analysis.MaxMaxTokenBytes))
	f.policy = addPolicyFlags(fs)
	f.s3.add(fs)
	fs.BoolVar(&f.skipBad, "skip-bad-lines", false, "skip invalid lines (bad JSON, over-long lines) and count them, instead of failing")
	fs.BoolVar(&f.allowEmpty, "allow-empty", false, "jsonl: write the segment even when no --field matched any value (else exit 1)")
	fs.Var(&f.maxLine, "max-line-bytes", "the longest input line (one document) accepted, e.g. 16MiB; longer lines are bad lines (default: --memory/4, at most 64MiB)")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "no progress bar and no summary")
	fs.BoolVar(&f.json, "json", false, "print the summary as JSON")
	_ = cmd.MarkFlagFilename("output", "snii")
	_ = cmd.RegisterFlagCompletionFunc("format", f.format.complete)
	_ = cmd.RegisterFlagCompletionFunc("analyzer", f.analyzer.complete)
	for _, h := range hooks {
		if h.addFlags != nil {
			h.addFlags(fs)
		}
	}
	return cmd
}

// buildFields returns the fields of the segment: "text" when an input is lines,
// the --field paths when an input is jsonl.
func buildFields(ins []input, paths []string) ([]string, error) {
	var lines, jsonl []string
	for _, in := range ins {
		if in.format == formatLines {
			lines = append(lines, in.label)
		} else {
			jsonl = append(jsonl, in.label)
		}
	}
	var fields []string
	for _, p := range paths {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, usagef("--field: empty JSON path")
		}
		if !slices.Contains(fields, p) {
			fields = append(fields, p)
		}
	}
	switch {
	case len(jsonl) > 0 && len(fields) == 0:
		return nil, usagef("jsonl input %s needs --field: the JSON paths to index, e.g. --field msg", jsonl[0])
	case len(jsonl) == 0 && len(fields) > 0:
		return nil, usagef("--field applies to jsonl inputs, and %s is lines (use --format jsonl if it is JSON lines)", lines[0])
	}
	if len(lines) > 0 && !slices.Contains(fields, linesField) {
		fields = append(fields, linesField)
	}
	return fields, nil
}

// recordFormat returns how the records of a build from ins hold their fields:
// lines inputs store text records of field "text", jsonl inputs JSON objects,
// both together mixed records.
func recordFormat(ins []input) (snii.RecordFormat, string) {
	var lines, jsonl bool
	for _, in := range ins {
		if in.format == formatLines {
			lines = true
		} else {
			jsonl = true
		}
	}
	switch {
	case lines && jsonl:
		return snii.RecordMixed, linesField
	case lines:
		return snii.RecordText, linesField
	}
	return snii.RecordJSON, ""
}

// buildReport is the --json summary of snii build.
type buildReport struct {
	Output   string `json:"output"`
	Docs     uint64 `json:"docs"`
	BadLines int64  `json:"bad_lines"`
	// SkippedTokens: tokens longer than --max-token-bytes, over all fields (not indexed).
	SkippedTokens uint64        `json:"skipped_tokens"`
	InputBytes    int64         `json:"input_bytes"`
	FileBytes     int64         `json:"file_bytes"`
	Spills        int           `json:"spills"`
	Seconds       float64       `json:"seconds"`
	Indexes       []fieldReport `json:"indexes"`
	Store         *storeReport  `json:"store,omitempty"` // absent with --no-store
}

func runBuild(ctx context.Context, e *env, f *buildFlags, hooks []buildHook, args []string) (err error) {
	start := time.Now()
	if f.output == "" {
		return usagef("--output (-o) is required: the segment file to write")
	}
	format := f.format.val
	if format == "auto" {
		format = ""
	}
	ins, err := resolveInputs(args, format)
	if err != nil {
		return err
	}
	fields, err := buildFields(ins, f.fields)
	if err != nil {
		return err
	}
	if f.maxToken < 1 || f.maxToken > analysis.MaxMaxTokenBytes {
		return usagef("--max-token-bytes %d: want 1..%d", f.maxToken, analysis.MaxMaxTokenBytes)
	}
	spec := analysis.Spec{Name: f.analyzer.val, MaxTokenBytes: f.maxToken}.String()
	o := writer.DefaultOptions(fields...)
	for i := range o.Fields {
		o.Fields[i].Analyzer = spec
		o.Fields[i].NoNorms = f.noNorms
	}
	f.policy.apply(&o)
	o.NoStore = f.noStore
	o.RecordFormat, o.TextField = recordFormat(ins)
	output := f.output // what the report names
	var up *s3Upload
	if s3url.IsURL(f.output) {
		// Check the URL, the credentials and the bucket before reading anything.
		if up, err = f.s3.prepareUpload(ctx, f.output, o.TempDir); err != nil {
			return err
		}
		defer up.cleanup()
		local := *f
		local.output = up.local
		f = &local
	}
	var finishers []func(error) error
	defer func() {
		for _, fin := range finishers {
			if ferr := fin(err); ferr != nil && err == nil {
				err = ferr
			}
		}
	}()
	for _, h := range hooks {
		if h.start == nil {
			continue
		}
		fin, err := h.start(&o, f.output)
		if err != nil {
			return err
		}
		if fin != nil {
			finishers = append(finishers, fin)
		}
	}
	uploadDir := ""
	if up != nil {
		uploadDir = up.parent
	}
	cleanLeftovers(e, f.quiet, filepath.Dir(f.output), o.TempDir, uploadDir)
	w, err := writer.Create(ctx, f.output, o)
	if err != nil {
		if errors.Is(err, errs.InvalidArgument) {
			return asUsage(err)
		}
		return err
	}
	total := int64(0)
	for _, in := range ins {
		if in.size < 0 {
			total = -1
			break
		}
		total += in.size
	}
	bar := newProgress(e.stderr, e.tty && !f.quiet && !f.json, total, "reading")
	doc := writer.Document{}
	values := make(map[string]int64, len(fields)) // values per field, for the --field warnings
	st, err := readInputs(ctx, ins, e.stdin, inputOptions{
		Fields:       f.fields,
		SkipBadLines: f.skipBad,
		MaxLineBytes: maxLineFor(f.maxLine.val, o.MemoryLimit),
		OnBytes:      bar.addBytes,
	}, func(d []writer.Field, rec []byte) error {
		doc.Fields = doc.Fields[:0]
		if !o.NoStore {
			doc.Record = rec
		}
		for _, x := range d {
			values[x.Name] += int64(len(x.Values))
		}
		doc.Fields = append(doc.Fields, d...)
		if _, err := w.Add(doc); err != nil {
			if !errors.Is(err, errs.InvalidArgument) && !errors.Is(err, errs.Limit) {
				// I/O of the spilled runs (temp dir, disk full): not this document's fault.
				return notLineError{err}
			}
			return err
		}
		bar.addDoc()
		return nil
	})
	if err != nil {
		bar.finish()
		_ = w.Abort()
		return err
	}
	if err := checkFieldValues(e, f.fields, values, st.Docs, f.allowEmpty); err != nil {
		bar.finish()
		_ = w.Abort()
		return err
	}
	bar.status("writing " + f.output)
	err = w.Close()
	bar.finish()
	if err != nil {
		return err
	}
	if up != nil {
		if err := up.upload(ctx, e, e.tty && !f.quiet && !f.json); err != nil {
			return err
		}
	}
	if f.quiet && !f.json {
		return nil
	}
	ws := w.Stats()
	rep := buildReport{Output: output, Docs: ws.Docs, BadLines: st.BadLines, SkippedTokens: ws.SkippedTokens, InputBytes: st.Bytes,
		FileBytes: ws.BytesOut, Spills: ws.Spills, Seconds: time.Since(start).Seconds()}
	seg, err := reader.Open(f.output, reader.Options{})
	if err != nil {
		return fmt.Errorf("reading back %s: %w", f.output, err)
	}
	defer seg.Close()
	rep.Store = newStoreReport(seg)
	for _, name := range seg.Fields() {
		m, err := fieldMeta(seg, name)
		if err != nil {
			return err
		}
		rep.Indexes = append(rep.Indexes, newFieldReport(&m))
	}
	if f.json {
		return writeJSON(e.stdout, rep)
	}
	return printBuildReport(e.stdout, &rep)
}

// maxLineFor returns the longest line accepted: the --max-line-bytes flag, or
// by default a quarter of the memory limit, at most maxLineBytes. A document's
// own buffers (the line, its string, its postings before the spill) are not
// part of the memory limit, so this bounds them (README: the memory bound).
func maxLineFor(flag, memory int64) int {
	if flag > 0 {
		return int(min(flag, 1<<40))
	}
	if memory <= 0 {
		memory = writer.DefaultMemoryLimit
	}
	return int(max(min(memory/4, maxLineBytes), 64<<10))
}

// checkFieldValues warns for every jsonl --field path that got no value, and
// fails when the build has --field paths and no field got a value (unless
// allowEmpty): such a segment is empty, most likely from a wrong path.
func checkFieldValues(e *env, paths []string, values map[string]int64, docs int64, allowEmpty bool) error {
	if len(paths) == 0 {
		return nil // lines inputs only
	}
	total := int64(0)
	for _, n := range values {
		total += n
	}
	warned := map[string]bool{}
	for _, p := range paths {
		p = strings.TrimSpace(p)
		if values[p] == 0 && !warned[p] {
			warned[p] = true
			fmt.Fprintf(e.stderr, "snii: warning: --field %s matched no value in %s\n", p, plural(docs, "document", "documents"))
		}
	}
	if total == 0 && !allowEmpty {
		return fmt.Errorf("no --field matched any value in %s: the segment would be empty "+
			"(check the JSON paths, e.g. user.name for {\"user\":{\"name\":...}}; --allow-empty writes it anyway)", plural(docs, "document", "documents"))
	}
	return nil
}
