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
	Doc     uint32         `json:"doc"`
	Score   float32        `json:"score"`
	Explain *explainReport `json:"explain,omitempty"`
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
		tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "query\t%s\n", rep.Query)
		fmt.Fprintf(tw, "plan\t%s\n", rep.Plan)
		fmt.Fprintf(tw, "hits\t%d\n", rep.Count)
		printHits(tw, hr)
		printProfileRows(tw, rep.Profile)
		return tw.Flush()
	})
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
		out[i] = hitReport{Doc: h.Doc, Score: h.Score}
		if h.Explanation != nil {
			e := newExplainReport(h.Explanation)
			out[i].Explain = &e
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
		if h.Explain != nil {
			printExplain(w, h.Explain, 1)
		}
	}
}

func printExplain(w io.Writer, e *explainReport, depth int) {
	pad := strings.Repeat("  ", depth)
	switch {
	case len(e.Children) > 0:
		fmt.Fprintf(w, "\t%s%.6g = sum of %s of %s\n", pad, e.Score, plural(int64(len(e.Children)), "matching clause", "matching clauses"), e.Query)
		for i := range e.Children {
			printExplain(w, &e.Children[i], depth+1)
		}
	case e.IDF != 0 || e.Freq != 0:
		df := ""
		if e.DocFreq > 0 {
			df = fmt.Sprintf(", df %d", e.DocFreq)
		}
		fmt.Fprintf(w, "\t%s%.6g = %s: idf %.6g (N %d%s) · freq %g / (freq + k1 %g · (1 - b %g + b · field length %d / avg %.6g))\n",
			pad, e.Score, e.Query, e.IDF, e.DocCount, df, e.Freq, e.K1, e.B, e.FieldLength, e.AvgFieldLength)
	default:
		fmt.Fprintf(w, "\t%s%.6g = %s (constant score)\n", pad, e.Score, e.Query)
	}
}
