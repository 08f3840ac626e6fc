package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/snii-go/snii/prx"
	"github.com/snii-go/snii/reader"
	"github.com/spf13/cobra"
)

type queryFlags struct {
	field   string
	count   bool
	limit   int
	maxExp  int
	profile bool
	json    bool
	dec     decodeFlags
}

func newQueryCmd(e *env) *cobra.Command {
	f := &queryFlags{}
	cmd := &cobra.Command{
		Use:   "query SEGMENT QUERY...",
		Short: "Run a query: terms, phrases, prefixes, AND, OR, NOT",
		Long: `Run a query against one field of a segment and print the matching doc ids
(ascending). Several QUERY arguments are joined with spaces. Quote the query for the
shell so that its double quotes reach snii: '"connection refused"'.

Syntax:
  error                 a term
  "connection refused"  an exact phrase (ordered, adjacent)
  "conn refused"~2      a sloppy phrase: at most 2 position moves (reordered from 2)
  "timed out after*"    a phrase whose last word is a prefix
  conn*                 a prefix
  host:web-01           a word or phrase of another field than --field
  a b   a AND b         both (AND binds tighter than OR)
  a OR b                either
  a -b  a NOT b         a but not b (a negation needs something else to match)
  (a OR b) c            grouping
  \* \" \( \: \- \\     a literal character; OR, AND, NOT are operators only in capitals

Query text goes through the field's analyzer, so 'User-ID' is the phrase "user id"
with the standard analyzer. A syntax error names the column and what was expected,
and exits with code 2, as does an unknown field. No match is not an error (exit code 0).`,
		Example: `  snii query app.snii '"connection refused"'
  snii query app.snii '"payment failed" (declined OR insufficient)' --limit 0
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
			return runQuery(cmd.Context(), e, f, args[0], strings.Join(args[1:], " "))
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
	fs.IntVarP(&f.limit, "limit", "n", 20, "print at most N doc ids (0: all)")
	fs.IntVar(&f.maxExp, "max-expansions", 0, "expand a prefix to at most N terms, the first in byte order (0: unlimited)")
	fs.BoolVar(&f.profile, "profile", false, "print what the query did: frames per codec, bytes read, windows decoded, timings")
	fs.BoolVar(&f.json, "json", false, "print JSON")
	f.dec.add(fs)
	return cmd
}

// queryReport is the --json output of snii query.
type queryReport struct {
	Query     string         `json:"query"` // the parsed query, rendered canonically
	Field     string         `json:"field"`
	Plan      string         `json:"plan"` // the analyzed query the segment ran
	Count     uint64         `json:"count"`
	Docs      []uint32       `json:"docs,omitempty"` // absent with --count
	Truncated bool           `json:"truncated,omitempty"`
	Profile   *profileReport `json:"profile,omitempty"`
}

// profileReport is the --json shape of a query profile (times in milliseconds).
type profileReport struct {
	Frames            codecCounts `json:"frames"`
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
	PrxWindowsRead    int64       `json:"prx_windows_read"`
	PairPlans         int64       `json:"pair_plans"`        // phrases planned with the pair section
	CandidatesBefore  int64       `json:"candidates_before"` // the rarest term's df in those phrases
	CandidatesAfter   int64       `json:"candidates_after"`  // docs the pairs left
	PairDocs          int64       `json:"pair_docs"`         // doc ids decoded from pair lists
	DecodeMillis      float64     `json:"decode_ms"`
	VerifyMillis      float64     `json:"verify_ms"`
	TotalMillis       float64     `json:"total_ms"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func newProfileReport(p *reader.Profile) *profileReport {
	return &profileReport{
		Frames:     codecCounts{Raw: p.Frames[prx.CodecRaw], PFOR: p.Frames[prx.CodecPFOR], Zstd: p.Frames[prx.CodecZstd]},
		FrameBytes: p.FrameBytes, PlainBytes: p.PlainBytes,
		TotalDocs: p.TotalDocs, SelectedDocs: p.SelectedDocs, TotalPositions: p.TotalPositions, SelectedPositions: p.SelectedPositions,
		BytesRead: p.BytesRead, ReadRanges: p.ReadRanges, DictBlocksRead: p.DictBlocksRead,
		DocWindowsRead: p.DocWindowsRead, PrxWindowsRead: p.WindowsRead,
		PairPlans: p.PairPlans, CandidatesBefore: p.CandidatesBefore, CandidatesAfter: p.CandidatesAfter, PairDocs: p.PairDocs,
		DecodeMillis: ms(p.DecodeTime()), VerifyMillis: ms(p.VerifyTime), TotalMillis: ms(p.TotalTime),
	}
}

func runQuery(ctx context.Context, e *env, f *queryFlags, path, q string) error {
	o, err := f.dec.options()
	if err != nil {
		return err
	}
	seg, err := openSegment(path, o)
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
	rep := queryReport{Query: parsed.String(), Field: field, Plan: rq.String()}
	var opts *reader.SearchOptions
	var prof reader.Profile
	if f.profile {
		opts = &reader.SearchOptions{Profile: &prof}
	}
	if f.count {
		rep.Count, err = seg.Count(ctx, rq, opts)
	} else {
		var docs []uint32
		docs, err = seg.Docs(ctx, rq, opts)
		rep.Count = uint64(len(docs))
		if f.limit > 0 && len(docs) > f.limit {
			docs, rep.Truncated = docs[:f.limit], true
		}
		rep.Docs = docs
	}
	if err != nil {
		return fmt.Errorf("query %s: %w", path, err)
	}
	if f.profile {
		rep.Profile = newProfileReport(&prof)
	}
	if f.json {
		if !f.count && rep.Docs == nil {
			rep.Docs = []uint32{}
		}
		return writeJSON(e.stdout, rep)
	}
	if f.count && !f.profile {
		_, err := fmt.Fprintln(e.stdout, rep.Count)
		return err
	}
	return printQueryReport(e.stdout, &rep, f.count)
}

func printQueryReport(w io.Writer, r *queryReport, countOnly bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "query\t%s\n", r.Query)
	fmt.Fprintf(tw, "plan\t%s\n", r.Plan)
	fmt.Fprintf(tw, "matches\t%d\n", r.Count)
	if !countOnly && r.Count > 0 {
		ids := make([]string, len(r.Docs))
		for i, d := range r.Docs {
			ids[i] = fmt.Sprint(d)
		}
		s := strings.Join(ids, " ")
		if r.Truncated {
			s += fmt.Sprintf(" ... (first %d of %d; --limit 0 prints all)", len(r.Docs), r.Count)
		}
		fmt.Fprintf(tw, "docs\t%s\n", s)
	}
	if p := r.Profile; p != nil {
		fmt.Fprintf(tw, "time\t%.3f ms total, %.3f ms decoding .prx frames, %.3f ms verifying positions\n", p.TotalMillis, p.DecodeMillis, p.VerifyMillis)
		fmt.Fprintf(tw, "read\t%s in %s; %s, %s, %s\n", formatBytes(p.BytesRead), plural(p.ReadRanges, "range", "ranges"),
			plural(p.DictBlocksRead, "dict block", "dict blocks"), plural(p.DocWindowsRead, "doc window", "doc windows"),
			plural(p.PrxWindowsRead, "prx window", "prx windows"))
		fmt.Fprintf(tw, "prx frames\traw %d, pfor %d, zstd %d: %s stored, %s plain parsed\n",
			p.Frames.Raw, p.Frames.PFOR, p.Frames.Zstd, formatBytes(p.FrameBytes), formatBytes(p.PlainBytes))
		fmt.Fprintf(tw, "candidates\t%d of %d docs and %d of %d positions in the decoded windows were needed\n",
			p.SelectedDocs, p.TotalDocs, p.SelectedPositions, p.TotalPositions)
		if p.PairPlans > 0 {
			fmt.Fprintf(tw, "pairs\t%s used the pair section: candidates %d -> %d (%d doc ids decoded from pair lists)\n",
				plural(p.PairPlans, "phrase", "phrases"), p.CandidatesBefore, p.CandidatesAfter, p.PairDocs)
		} else {
			fmt.Fprintf(tw, "pairs\tnot used\n")
		}
	}
	return tw.Flush()
}
