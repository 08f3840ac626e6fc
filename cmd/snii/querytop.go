package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/snii-go/snii/reader"
)

// hitReport is one hit of query --top (--json shape).
type hitReport struct {
	Doc     uint64         `json:"doc"` // a segment's id, or a global id over several
	Score   float32        `json:"score"`
	Explain *explainReport `json:"explain,omitempty"`

	explanation *reader.Explanation // what Explain reports, printed by its String
}

// explainReport is a score breakdown (reader.Explanation).
type explainReport struct {
	Query          string          `json:"query"`
	Score          float32         `json:"score"`
	IDF            float32         `json:"idf,omitempty"`
	Freq           float32         `json:"freq,omitempty"`
	FieldLength    uint32          `json:"field_length,omitempty"`
	AvgFieldLength float32         `json:"avg_field_length,omitempty"`
	DocCount       uint64          `json:"doc_count,omitempty"`
	DocFreq        uint64          `json:"doc_freq,omitempty"`
	K1             float32         `json:"k1,omitempty"`
	B              float32         `json:"b,omitempty"`
	Children       []explainReport `json:"children,omitempty"`
}

// runTop prints the --top best hits of rq by BM25 (rep holds the query, field
// and plan).
func runTop(ctx context.Context, e *env, f *queryFlags, seg *reader.Segment, rq reader.Query, rep queryReport, path string) error {
	to := &reader.TopOptions{BM25: &reader.BM25{K1: f.k1, B: f.b}, Explain: f.explain}
	var prof reader.Profile
	if f.profile {
		to.Profile = &prof
	}
	hits, err := seg.Top(ctx, rq, f.top, to)
	if err != nil {
		return fmt.Errorf("query %s: %w", path, err)
	}
	hr := newHitReports(hits)
	rep.Hits, rep.Count = &hr, uint64(len(hits))
	if f.profile {
		rep.Profile = newProfileReport(&prof)
	}
	return writeResult(e, f, &rep, rep.Count, func() error {
		return printTopTable(e.stdout, "", rep.Query, rep.Plan, hr, rep.Profile)
	})
}

// printTopTable prints the table of --top: the head row (if any), the query,
// the plan, the hits and the profile.
func printTopTable(w io.Writer, head, query, plan string, hits []hitReport, prof *profileReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if head != "" {
		fmt.Fprintln(tw, head)
	}
	fmt.Fprintf(tw, "query\t%s\n", query)
	fmt.Fprintf(tw, "plan\t%s\n", plan)
	fmt.Fprintf(tw, "hits\t%d\n", len(hits))
	printHits(tw, hits)
	printProfileRows(tw, prof)
	return tw.Flush()
}

// maxK1 is the largest --k1 accepted (a k1 that large already scores every
// frequency alike, as BM25 with no saturation).
const maxK1 = 1e6

// checkTop checks the ranking flags; topSet says --top was given (0, its
// default, means unranked results and cannot be asked for).
func (f *queryFlags) checkTop(topSet bool) error {
	switch {
	case f.top < 1 && topSet:
		return usagef("--top %d: want 1 or more (leave --top out for unranked doc ids)", f.top)
	case f.top > 0 && f.count:
		return usagef("--top and --count do not go together")
	case f.explain && f.top == 0:
		return usagef("--explain needs --top N")
	case !(f.k1 >= 0) || f.k1 > maxK1:
		return usagef("--k1 %v: want 0..%g", f.k1, maxK1)
	case !(f.b >= 0 && f.b <= 1):
		return usagef("--b %v: want 0..1", f.b)
	}
	return nil
}

func newHitReports(hits []reader.Hit) []hitReport {
	out := make([]hitReport, len(hits))
	for i, h := range hits {
		out[i] = hitReport{Doc: uint64(h.Doc), Score: h.Score}
		if h.Explanation != nil {
			e := newExplainReport(h.Explanation)
			out[i].Explain, out[i].explanation = &e, h.Explanation
		}
	}
	return out
}

func newExplainReport(e *reader.Explanation) explainReport {
	r := explainReport{Query: e.Query, Score: e.Score, IDF: e.IDF, Freq: e.Freq, FieldLength: e.FieldLength,
		AvgFieldLength: e.AvgFieldLength, DocCount: e.DocCount, DocFreq: e.DocFreq, K1: e.K1, B: e.B}
	for i := range e.Children {
		r.Children = append(r.Children, newExplainReport(&e.Children[i]))
	}
	return r
}

// printHits prints the hits of --top, one line each, with their
// explanations indented under them.
func printHits(w io.Writer, hits []hitReport) {
	for i, h := range hits {
		fmt.Fprintf(w, "#%d\tdoc %d, score %.6g\n", i+1, h.Doc, h.Score)
		if h.explanation != nil {
			for _, line := range strings.Split(h.explanation.String(), "\n") {
				fmt.Fprintf(w, "\t  %s\n", line)
			}
		}
	}
}
