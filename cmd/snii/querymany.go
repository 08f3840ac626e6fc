package main

import (
	"context"
	"fmt"
	"io"

	"github.com/snii-go/snii/objstore/s3"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/search"
)

// manyReport is the --json output of snii query over an s3:// prefix or glob.
type manyReport struct {
	Query     string          `json:"query"`
	Field     string          `json:"field"`
	Plan      string          `json:"plan"`
	Segments  []segmentReport `json:"segments"`
	Count     uint64          `json:"count"`
	Docs      []uint64        `json:"docs,omitempty"` // global ids: the segment's base + its doc id
	Truncated bool            `json:"truncated,omitempty"`
	Profile   *profileReport  `json:"profile,omitempty"`
}

// segmentReport names one segment of a many-segment query and its global ids.
type segmentReport struct {
	URL  string `json:"url"`
	Base uint64 `json:"base"` // global id of its doc 0
	Docs uint32 `json:"docs"`
}

// runQueryMany runs q over every segment under an s3:// prefix or glob, as
// one index: doc ids are global (segments in key order, each numbered after
// the documents of those before it).
func runQueryMany(ctx context.Context, e *env, f *queryFlags, u s3.URL, q string, o reader.Options) error {
	rs, err := openMany(ctx, &f.s3, u, o)
	if err != nil {
		return err
	}
	defer rs.Close()
	segs := make([]*reader.Segment, len(rs.segs))
	for i, s := range rs.segs {
		segs[i] = s.Segment
	}
	field, err := defaultField(segs[0].Fields(), f.field)
	if err != nil {
		return err
	}
	rq, parsed, err := compileQuery(segs[0], field, q, f.maxExp)
	if err != nil {
		return err
	}
	// One query for all: every segment must analyze the field alike.
	want, err := segs[0].Info(field)
	if err != nil {
		return err
	}
	for i, s := range segs[1:] {
		m, err := s.Info(field)
		if err != nil {
			return fmt.Errorf("%s: %w", u.Bucket+"/"+rs.keys[i+1], err)
		}
		if m.Analyzer != want.Analyzer {
			return fmt.Errorf("s3://%s/%s analyzes %q with %s, s3://%s/%s with %s: query them separately",
				u.Bucket, rs.keys[i+1], field, m.Analyzer, u.Bucket, rs.keys[0], want.Analyzer)
		}
	}
	sr, err := search.New(segs, search.Options{Parallel: 16})
	if err != nil {
		return err
	}
	if !f.ids && !f.count {
		urls := make([]string, len(rs.keys))
		for i, k := range rs.keys {
			urls[i] = "s3://" + u.Bucket + "/" + k
		}
		return runRecordsMany(ctx, e, f, sr, segs, urls, rq)
	}
	res, err := runSearch(f,
		func(p *reader.Profile) (uint64, error) { return sr.Count(ctx, rq, &search.SearchOptions{Profile: p}) },
		func(p *reader.Profile) ([]uint64, error) { return sr.Docs(ctx, rq, &search.SearchOptions{Profile: p}) })
	if err != nil {
		return fmt.Errorf("query %s: %w", u, err)
	}
	rep := manyReport{Query: parsed.String(), Field: field, Plan: rq.String(),
		Count: res.count, Docs: res.docs, Truncated: res.truncated, Profile: res.profile}
	for i, k := range rs.keys {
		rep.Segments = append(rep.Segments, segmentReport{URL: "s3://" + u.Bucket + "/" + k, Base: sr.Base(i), Docs: segs[i].DocCount()})
	}
	return writeResult(e, f, &rep, rep.Count, func() error { return printManyReport(e.stdout, &rep, f.count) })
}

func printManyReport(w io.Writer, r *manyReport, countOnly bool) error {
	head := fmt.Sprintf("segments\t%d (doc ids are global: a segment's base + its own id; --json lists the bases)", len(r.Segments))
	return printQueryTable(w, head, r.Query, r.Plan, queryResult[uint64]{r.Count, r.Docs, r.Truncated, r.Profile}, countOnly)
}
