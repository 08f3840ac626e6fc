package main

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/snii-go/snii/internal/s3url"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/search"
)

// manyReport is the --json output of snii query over several segments (an
// s3:// prefix or glob, a local glob or directory).
type manyReport struct {
	Query     string          `json:"query"`
	Field     string          `json:"field"`
	Plan      string          `json:"plan"`
	Segments  []segmentReport `json:"segments"`
	Count     uint64          `json:"count"`
	Docs      []uint64        `json:"docs,omitempty"` // global ids: the segment's base + its doc id
	Hits      *[]hitReport    `json:"hits,omitempty"` // with --top (global ids)
	Truncated bool            `json:"truncated,omitempty"`
	Profile   *profileReport  `json:"profile,omitempty"`
}

// segmentReport names one segment of a many-segment query and its global ids.
type segmentReport struct {
	URL  string `json:"url,omitempty"`  // s3://bucket/key
	Path string `json:"path,omitempty"` // a local file
	Base uint64 `json:"base"`           // global id of its doc 0
	Docs uint32 `json:"docs"`
}

// namedSegments is the open segments of a many-segment query, in the order
// that numbers them, and what names each (an s3:// URL or a local path).
type namedSegments struct {
	names []string
	segs  []*reader.Segment
	local bool // names are local paths
}

// runQueryMany runs q over every segment under an s3:// prefix or glob, as
// one index: doc ids are global (segments in key order, each numbered after
// the documents of those before it).
func runQueryMany(ctx context.Context, e *env, f *queryFlags, u s3url.URL, q string, o reader.Options) error {
	rs, err := openMany(ctx, &f.s3, u, o)
	if err != nil {
		return err
	}
	defer rs.Close()
	ns := namedSegments{segs: make([]*reader.Segment, len(rs.segs))}
	for i, s := range rs.segs {
		ns.segs[i] = s.Segment
		ns.names = append(ns.names, "s3://"+u.Bucket+"/"+rs.keys[i])
	}
	return queryMany(ctx, e, f, &ns, q, u.String(), 16)
}

// queryMany runs q over the segments as one index (global doc ids), with
// at most parallel segments at a time: the matching ids, their count, or with
// --top the best documents ranked with the statistics of all the segments.
func queryMany(ctx context.Context, e *env, f *queryFlags, ns *namedSegments, q, label string, parallel int) error {
	var fields []string
	for _, s := range ns.segs {
		for _, name := range s.Fields() {
			if !slices.Contains(fields, name) {
				fields = append(fields, name)
			}
		}
	}
	slices.Sort(fields)
	field, err := defaultField(fields, f.field)
	if err != nil {
		return err
	}
	rq, parsed, err := compileQuery(manyAnalyzer{ns}, field, q, f.maxExp)
	if err != nil {
		return err
	}
	sr, err := search.New(ns.segs, search.Options{Parallel: parallel})
	if err != nil {
		return err
	}
	rep := manyReport{Query: parsed.String(), Field: field, Plan: rq.String()}
	for i, s := range ns.segs {
		sr := segmentReport{URL: ns.names[i], Base: sr.Base(i), Docs: s.DocCount()}
		if ns.local {
			sr.URL, sr.Path = "", ns.names[i]
		}
		rep.Segments = append(rep.Segments, sr)
	}
	if f.top > 0 {
		hits, prof, err := topMany(ctx, f, sr, rq)
		if err != nil {
			return fmt.Errorf("query %s: %w", label, err)
		}
		rep.Hits, rep.Count, rep.Profile = &hits, uint64(len(hits)), prof
		return writeResult(e, f, &rep, rep.Count, func() error {
			return printTopTable(e.stdout, manyHead(len(rep.Segments)), rep.Query, rep.Plan, hits, rep.Profile)
		})
	}
	if !f.ids && !f.count {
		return runRecordsMany(ctx, e, f, sr, ns.segs, ns.names, rq)
	}
	res, err := runSearch(f,
		func(p *reader.Profile) (uint64, error) { return sr.Count(ctx, rq, &search.SearchOptions{Profile: p}) },
		func(p *reader.Profile) ([]uint64, error) { return sr.Docs(ctx, rq, &search.SearchOptions{Profile: p}) })
	if err != nil {
		return fmt.Errorf("query %s: %w", label, err)
	}
	rep.Count, rep.Docs, rep.Truncated, rep.Profile = res.count, res.docs, res.truncated, res.profile
	return writeResult(e, f, &rep, rep.Count, func() error { return printManyReport(e.stdout, &rep, f.count) })
}

// topMany returns the --top best documents of rq over the searcher's
// segments (global ids) and, with --profile, the summed profile.
func topMany(ctx context.Context, f *queryFlags, sr *search.Searcher, rq reader.Query) ([]hitReport, *profileReport, error) {
	to := &search.TopOptions{BM25: &reader.BM25{K1: f.k1, B: f.b}, Explain: f.explain}
	var prof reader.Profile
	if f.profile {
		to.Profile = &prof
	}
	hits, err := sr.Top(ctx, rq, f.top, to)
	if err != nil {
		return nil, nil, err
	}
	out := make([]hitReport, len(hits))
	for i, h := range hits {
		out[i] = hitReport{Doc: h.Doc, Score: h.Score}
		if h.Explanation != nil {
			e := newExplainReport(h.Explanation)
			out[i].Explain = &e
		}
	}
	if f.profile {
		return out, newProfileReport(&prof), nil
	}
	return out, nil, nil
}

// manyAnalyzer analyzes a field's text with the analyzer of the segments that
// have the field: the query is compiled once for all of them, so they must
// analyze it alike. A field no segment has is the first segment's error.
type manyAnalyzer struct{ ns *namedSegments }

func (m manyAnalyzer) Analyze(field, text string) ([]string, error) {
	first := -1
	var want string
	for i, s := range m.ns.segs {
		if !slices.Contains(s.Fields(), field) {
			continue
		}
		info, err := s.Info(field)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.ns.names[i], err)
		}
		if first < 0 {
			first, want = i, info.Analyzer
			continue
		}
		if info.Analyzer != want {
			return nil, fmt.Errorf("%s analyzes %q with %s, %s with %s: query them separately",
				m.ns.names[i], field, info.Analyzer, m.ns.names[first], want)
		}
	}
	if first < 0 {
		first = 0
	}
	return m.ns.segs[first].Analyze(field, text)
}

func manyHead(n int) string {
	return fmt.Sprintf("segments\t%d (doc ids are global: a segment's base + its own id; --json lists the bases)", n)
}

func printManyReport(w io.Writer, r *manyReport, countOnly bool) error {
	return printQueryTable(w, manyHead(len(r.Segments)), r.Query, r.Plan, queryResult[uint64]{r.Count, r.Docs, r.Truncated, r.Profile}, countOnly)
}
