package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/s3url"
	"github.com/snii-go/snii/reader"
	"github.com/spf13/cobra"
)

type queryFlags struct {
	field   string
	count   bool
	ids     bool
	color   *enumValue
	after   int // -A: records printed after each match
	before  int // -B: records printed before each match
	limit   int
	maxExp  int
	profile bool
	json    bool
	top     int
	explain bool
	k1, b   float32
	dec     decodeFlags
	s3      s3Flags
	timeout time.Duration
}

func newQueryCmd(e *env) *cobra.Command {
	f := &queryFlags{color: newEnum("auto", "auto", "always", "never")}
	var contextN int
	cmd := &cobra.Command{
		Use:   "query SEGMENT QUERY...",
		Short: "Run a query: terms, phrases, prefixes, AND, OR, NOT",
		Long: `Run a query against one field of a segment and print the matching records as grep
prints lines: one per line, in doc-id order (best first with --top), the matches
highlighted on a terminal (--color). For line input a record is its line, for JSON
lines the JSON line. -A/-B/-C print neighbouring records (the neighbouring lines of a
log), with "--" between groups that are not adjacent. --json prints one JSON object
per record: its id, the record, its highlight ranges (and its score with --top).
--ids prints the matching doc ids and the plan instead (--json: as one report), and
--count only their number. Several QUERY arguments are joined with spaces. Quote
the query for the shell so that its double quotes reach snii: '"connection refused"'.

SEGMENT may name several segments searched as one index: a quoted glob ('logs/*.snii'), a
directory (its .snii files) or an s3:// prefix or glob. Doc ids are then global (segments in
name order, each one's ids after the documents of those before it), and --top ranks with the
statistics of all of them, as on the segment snii merge makes of them.

Syntax:
  error                 a term
  "connection refused"  an exact phrase (ordered, adjacent)
  "conn refused"~2      a sloppy phrase: at most 2 position moves (reordered from 2)
  "timed out after*"    a phrase whose last word is a prefix
  conn*                 a prefix
  conection~1           a fuzzy term: the terms within 1 edit (~ alone: 2, as Lucene)
  *Exception  f?o       a wildcard over whole terms: '*' any run, '?' one character
  /conn(ection)?/       a term matching a regular expression (Go's RE2 syntax)
  "/conn.*/ refused"    a phrase with patterns at any position
  host:web-01           a word or phrase of another field than --field
  host:(a OR b*)        every word or phrase inside that names no field is of host
  a b   a AND b         both (AND binds tighter than OR)
  a OR b                either
  a -b  a NOT b         a but not b (a negation needs something else to match)
  (a OR b) c            grouping
  \* \? \/ \" \( \: \- \~ \\ a literal character; OR, AND, NOT are operators only in capitals

Query text goes through the field's analyzer, so 'User-ID' is the phrase "user id"
with the standard analyzer. Patterns match whole terms and skip the analyzer; a
lowercasing analyzer's field gets their literal characters lowercased ('*Exception'
finds "nullpointerexception"). To match a regexp against whole records, see snii grep. A syntax error names the column and what was expected,
and exits with code 2, as does an unknown field. No match is not an error (exit code 0).
A segment built with --no-store keeps no records: query it with --ids or --count.`,
		Example: `  snii query app.snii '"connection refused"'
  snii query app.snii '"connection refused"' -C 2 --color always | less -R
  snii query app.snii '"payment failed" (declined OR insufficient)' --ids --limit 0
  snii query app.snii '"timed out after*"' --count --profile
  snii query events.snii --field user.name 'zo*' --json`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.limit < 0 {
				return usagef("--limit %d: want 0 (all) or more", f.limit)
			}
			if f.maxExp < 0 {
				return usagef("--max-expansions %d: want 0 (unlimited) or more", f.maxExp)
			}
			if err := f.checkTop(cmd.Flags().Changed("top")); err != nil {
				return err
			}
			if f.timeout < 0 {
				return usagef("--timeout %v: want 0 (no limit) or more", f.timeout)
			}
			fl := cmd.Flags()
			if err := f.checkRecords(contextN, fl.Changed("context"), fl.Changed("after-context"), fl.Changed("before-context")); err != nil {
				return err
			}
			if f.ids && !fl.Changed("limit") && !fl.Changed("max-count") {
				f.limit = 20 // records: every match, as grep prints every line; ids: the first 20
			}
			ctx, cancel := withTimeout(cmd.Context(), f.timeout)
			defer cancel()
			return timedOut(ctx, f.timeout, runQuery(ctx, e, f, args[0], strings.Join(args[1:], " ")))
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) == 0 {
				return segmentFiles(cmd, args, "")
			}
			return nil, cobra.ShellCompDirectiveNoFileComp
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&f.field, "field", "f", "", `the field to search (default: the only field, else "text")`)
	fs.BoolVarP(&f.count, "count", "c", false, "print only the number of matching documents")
	fs.BoolVar(&f.ids, "ids", false, "print the matching doc ids (and the plan) instead of the records")
	fs.Var(f.color, "color", "highlight matches: auto (when stdout is a terminal and NO_COLOR is unset), always or never")
	fs.IntVarP(&f.after, "after-context", "A", 0, "print N records after each matching one")
	fs.IntVarP(&f.before, "before-context", "B", 0, "print N records before each matching one")
	fs.IntVarP(&contextN, "context", "C", 0, "print N records before and after each matching one")
	fs.IntVarP(&f.limit, "limit", "n", 0, "print at most N matches (0: all; default: every record, or 20 ids with --ids)")
	fs.IntVarP(&f.limit, "max-count", "m", 0, "the same as --limit, as grep spells it")
	fs.IntVar(&f.maxExp, "max-expansions", 0, "expand a prefix, fuzzy term or pattern to at most N terms, the first in byte order (0: unlimited)")
	fs.BoolVar(&f.profile, "profile", false, "print what the query did: frames per codec, bytes read, windows decoded, timings")
	fs.BoolVar(&f.json, "json", false, "print JSON: a line per record (id, record, highlight ranges, score with --top), or one report with --ids or --count")
	fs.IntVar(&f.top, "top", 0, "print the N best documents by BM25 score, best first (ties by doc id) instead of the matching ids")
	fs.BoolVar(&f.explain, "explain", false, "with --top: print each hit's score breakdown (idf, frequency, field length)")
	fs.Float32Var(&f.k1, "k1", 1.2, "with --top: BM25 k1 (term frequency saturation)")
	fs.Float32Var(&f.b, "b", 0.75, "with --top: BM25 b (length normalization, 0..1)")
	fs.DurationVar(&f.timeout, "timeout", defaultQueryTimeout, "give up on the query after this long, opening included (0: never)")
	f.dec.add(fs)
	f.s3.add(fs)
	_ = cmd.RegisterFlagCompletionFunc("color", f.color.complete)
	return cmd
}

// checkRecords checks the flags of the records output and applies -C (-A and
// -B given with it win, as in grep).
func (f *queryFlags) checkRecords(contextN int, setC, setA, setB bool) error {
	if f.explain {
		f.ids = true // score breakdowns print with the hits' ids
	}
	for _, c := range []struct {
		name string
		n    int
	}{{"-A", f.after}, {"-B", f.before}, {"-C", contextN}} {
		if c.n < 0 {
			return usagef("%s %d: want 0 or more records", c.name, c.n)
		}
	}
	if setC {
		if !setA {
			f.after = contextN
		}
		if !setB {
			f.before = contextN
		}
	}
	ctx := f.after > 0 || f.before > 0
	switch {
	case f.ids && f.count:
		return usagef("--ids and --count do not go together")
	case ctx && (f.ids || f.count):
		return usagef("-A/-B/-C print neighbouring records: not with --ids, --count or --explain")
	case ctx && f.top > 0:
		return usagef("-A/-B/-C print neighbouring records in doc-id order: not with --top")
	}
	return nil
}

// queryReport is the --json output of snii query.
type queryReport struct {
	Query     string         `json:"query"` // the parsed query, rendered canonically
	Field     string         `json:"field"`
	Plan      string         `json:"plan"` // the analyzed query the segment ran
	Count     uint64         `json:"count"`
	Docs      []uint32       `json:"docs,omitempty"` // absent with --count and --top
	Hits      *[]hitReport   `json:"hits,omitempty"` // with --top
	Truncated bool           `json:"truncated,omitempty"`
	Profile   *profileReport `json:"profile,omitempty"`
}

// profileReport is the --json shape of a query profile (times in milliseconds).
type profileReport struct {
	Frames            codecCounts `json:"frames"`
	ZstdInflated      int64       `json:"zstd_inflated"` // zstd units inflated (of frames.zstd read)
	FrameBytes        int64       `json:"frame_bytes"`
	PlainBytes        int64       `json:"plain_bytes"`
	TotalDocs         int64       `json:"total_docs"`
	SelectedDocs      int64       `json:"selected_docs"`
	TotalPositions    int64       `json:"total_positions"`
	SelectedPositions int64       `json:"selected_positions"`
	BytesRead         int64       `json:"bytes_read"`
	ReadRanges        int64       `json:"read_ranges"`
	DictBlocksRead    int64       `json:"dict_blocks_read"`
	DocWindowsRead    int64       `json:"doc_windows_read"`
	DocBlocksRead     int64       `json:"doc_blocks_read"` // 128-doc blocks of blocked doc windows
	DocsDecoded       int64       `json:"docs_decoded"`    // doc ids decoded (windows and blocks)
	PrxWindowsRead    int64       `json:"prx_windows_read"`
	Rounds            int64       `json:"rounds,omitempty"`        // remote segments: round trips,
	Requests          int64       `json:"requests,omitempty"`      // requests sent
	FetchedBytes      int64       `json:"fetched_bytes,omitempty"` // and bytes received
	PairPlans         int64       `json:"pair_plans"`              // phrases planned with the pair section
	CandidatesBefore  int64       `json:"candidates_before"`       // the rarest term's df in those phrases
	CandidatesAfter   int64       `json:"candidates_after"`        // docs the pairs left
	PairDocs          int64       `json:"pair_docs"`               // doc ids decoded from pair lists
	PairProved        int64       `json:"pair_proved"`             // candidates matched from their pairs and tfs, no position read
	DecodeMillis      float64     `json:"decode_ms"`
	VerifyMillis      float64     `json:"verify_ms"`
	TotalMillis       float64     `json:"total_ms"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func newProfileReport(p *reader.Profile) *profileReport {
	return &profileReport{
		Frames: codecCounts{Raw: p.Frames[prx.CodecRaw], PFOR: p.Frames[prx.CodecPFOR], Zstd: p.Frames[prx.CodecZstd]}, ZstdInflated: p.Inflated,
		FrameBytes: p.FrameBytes, PlainBytes: p.PlainBytes,
		TotalDocs: p.TotalDocs, SelectedDocs: p.SelectedDocs, TotalPositions: p.TotalPositions, SelectedPositions: p.SelectedPositions,
		BytesRead: p.BytesRead, ReadRanges: p.ReadRanges, DictBlocksRead: p.DictBlocksRead,
		DocWindowsRead: p.DocWindowsRead, PrxWindowsRead: p.WindowsRead,
		DocBlocksRead: p.DocBlocksRead, DocsDecoded: p.DocsDecoded,
		Rounds: p.Rounds, Requests: p.Requests, FetchedBytes: p.FetchedBytes,
		PairPlans: p.PairPlans, CandidatesBefore: p.CandidatesBefore, CandidatesAfter: p.CandidatesAfter, PairDocs: p.PairDocs, PairProved: p.PairProved,
		DecodeMillis: ms(time.Duration(p.DecodeNanos)), VerifyMillis: ms(p.VerifyTime), TotalMillis: ms(p.TotalTime),
	}
}

func runQuery(ctx context.Context, e *env, f *queryFlags, path, q string) error {
	o, err := f.dec.options()
	if err != nil {
		return err
	}
	if s3url.IsURL(path) {
		u, err := parseS3(path)
		if err != nil {
			return err
		}
		if u.IsPrefix() || u.IsGlob() {
			return runQueryMany(ctx, e, f, u, q, o)
		}
	} else if paths, many, err := localSegments(path); err != nil || many {
		if err != nil {
			return err
		}
		return runQueryLocal(ctx, e, f, path, paths, q, o)
	}
	seg, err := openAny(ctx, &f.s3, path, o)
	if err != nil {
		return err
	}
	defer seg.Close()
	field, err := defaultField(seg.Fields(), f.field)
	if err != nil {
		return err
	}
	rq, parsed, err := compileQuery(seg, field, q, f.maxExp)
	if err != nil {
		return err
	}
	if !f.ids && !f.count {
		return runRecords(ctx, e, f, seg.Segment, rq, path)
	}
	if f.top > 0 {
		return runTop(ctx, e, f, seg.Segment, rq, queryReport{Query: parsed.String(), Field: field, Plan: rq.String()}, path)
	}
	res, err := runSearch(f,
		func(p *reader.Profile) (uint64, error) { return seg.Count(ctx, rq, searchOptions(p)) },
		func(p *reader.Profile) ([]uint32, error) { return seg.Docs(ctx, rq, searchOptions(p)) })
	if err != nil {
		return fmt.Errorf("query %s: %w", path, err)
	}
	rep := queryReport{Query: parsed.String(), Field: field, Plan: rq.String(),
		Count: res.count, Docs: res.docs, Truncated: res.truncated, Profile: res.profile}
	return writeResult(e, f, &rep, rep.Count, func() error { return printQueryReport(e.stdout, &rep, f.count) })
}

func searchOptions(p *reader.Profile) *reader.SearchOptions {
	if p == nil {
		return nil
	}
	return &reader.SearchOptions{Profile: p}
}

// queryResult is what a query returned, for the reports.
type queryResult[T uint32 | uint64] struct {
	count     uint64
	docs      []T // nil with --count
	truncated bool
	profile   *profileReport
}

// runSearch runs a query (count or docs, per the flags) and keeps --limit docs.
func runSearch[T uint32 | uint64](f *queryFlags, count func(*reader.Profile) (uint64, error), docs func(*reader.Profile) ([]T, error)) (queryResult[T], error) {
	var r queryResult[T]
	var prof reader.Profile
	var p *reader.Profile
	if f.profile {
		p = &prof
	}
	var err error
	if f.count {
		r.count, err = count(p)
	} else {
		var d []T
		d, err = docs(p)
		r.count = uint64(len(d))
		if f.limit > 0 && len(d) > f.limit {
			d, r.truncated = d[:f.limit], true
		}
		r.docs = d
	}
	if err != nil {
		return r, err
	}
	if f.profile {
		r.profile = newProfileReport(&prof)
	}
	return r, nil
}

// writeResult prints a query's report: JSON, the bare count, or the table.
func writeResult(e *env, f *queryFlags, rep any, count uint64, table func() error) error {
	if f.json {
		return writeJSON(e.stdout, rep)
	}
	if f.count && !f.profile {
		_, err := fmt.Fprintln(e.stdout, count)
		return err
	}
	return table()
}

func printQueryReport(w io.Writer, r *queryReport, countOnly bool) error {
	return printQueryTable(w, "", r.Query, r.Plan, queryResult[uint32]{r.Count, r.Docs, r.Truncated, r.Profile}, countOnly)
}

// printQueryTable prints a query's table: the head row (if any), the query,
// the plan, the matches, the docs (first of more when truncated), the profile.
func printQueryTable[T uint32 | uint64](w io.Writer, head, query, plan string, r queryResult[T], countOnly bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if head != "" {
		fmt.Fprintln(tw, head)
	}
	fmt.Fprintf(tw, "query\t%s\n", query)
	fmt.Fprintf(tw, "plan\t%s\n", plan)
	fmt.Fprintf(tw, "matches\t%d\n", r.count)
	if !countOnly && r.count > 0 {
		ids := make([]string, len(r.docs))
		for i, d := range r.docs {
			ids[i] = fmt.Sprint(d)
		}
		s := strings.Join(ids, " ")
		if r.truncated {
			s += fmt.Sprintf(" ... (first %d of %d; --limit 0 prints all)", len(r.docs), r.count)
		}
		fmt.Fprintf(tw, "docs\t%s\n", s)
	}
	printProfileRows(tw, r.profile)
	return tw.Flush()
}

// printProfileRows prints the rows of a --profile (nothing when p is nil).
func printProfileRows(tw io.Writer, p *profileReport) {
	if p == nil {
		return
	}
	fmt.Fprintf(tw, "time\t%.3f ms total, %.3f ms decoding .prx frames, %.3f ms verifying positions\n", p.TotalMillis, p.DecodeMillis, p.VerifyMillis)
	fmt.Fprintf(tw, "read\t%s in %s; %s, %s, %s\n", formatBytes(p.BytesRead), plural(p.ReadRanges, "range", "ranges"),
		plural(p.DictBlocksRead, "dict block", "dict blocks"), plural(p.DocWindowsRead, "doc window", "doc windows"),
		plural(p.PrxWindowsRead, "prx window", "prx windows"))
	fmt.Fprintf(tw, "doc ids\t%d decoded (%s of 128 in blocked windows)\n", p.DocsDecoded, plural(p.DocBlocksRead, "block", "blocks"))
	if p.Requests > 0 {
		fmt.Fprintf(tw, "fetched\t%s in %s, %s\n", formatBytes(p.FetchedBytes), plural(p.Rounds, "round", "rounds"), plural(p.Requests, "request", "requests"))
	}
	fmt.Fprintf(tw, "prx frames\traw %d, pfor %d, zstd %d (%d inflated): %s stored, %s plain parsed\n",
		p.Frames.Raw, p.Frames.PFOR, p.Frames.Zstd, p.ZstdInflated, formatBytes(p.FrameBytes), formatBytes(p.PlainBytes))
	fmt.Fprintf(tw, "candidates\t%d of %d docs and %d of %d positions in the decoded windows were needed\n",
		p.SelectedDocs, p.TotalDocs, p.SelectedPositions, p.TotalPositions)
	if p.PairPlans > 0 {
		fmt.Fprintf(tw, "pairs\t%s used the pair section: candidates %d -> %d (%d doc ids decoded from pair lists); %d matched from pairs and term frequencies, no position read\n",
			plural(p.PairPlans, "phrase", "phrases"), p.CandidatesBefore, p.CandidatesAfter, p.PairDocs, p.PairProved)
	} else {
		fmt.Fprintf(tw, "pairs\tnot used\n")
	}
}
