package s3_test

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/internal/testkit/s3test"
	"github.com/snii-go/snii/objstore/s3"
	"github.com/snii-go/snii/reader"
)

// TestX16GapReport measures the phrase and phrase prefix queries of
// bench/queries/agent.txt on a large segment served by versitygw, cold (a new
// client and segment per query), for several Config.Gap values: the bytes
// fetched against the bytes the query read (BytesRead: what it decodes), the
// rounds and the requests (docs/BENCHMARKS-HISTORY.md, "Remote reads at ×16"). It
// runs only with SNII_S3_X16 set to the segment's path (the agent logs
// sixteen times, built with snii build --field content).
func TestX16GapReport(t *testing.T) {
	path := os.Getenv("SNII_S3_X16")
	if path == "" {
		t.Skip("set SNII_S3_X16 to a segment of the agent logs x16 to run the x16 S3 report")
	}
	srv := s3test.Shared(t)
	srv.MakeBucket(t, "x16")
	srv.Put(t, "x16", "x16.snii", testkit.ReadFile(t, path))
	ctx := t.Context()
	local, err := reader.Open(path, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	var qs []agentQuery
	for _, q := range agentQueries(t) {
		if q.kind == "phrase" || q.kind == "phraseprefix" {
			qs = append(qs, q)
		}
	}
	t.Logf("%d phrase and phrase prefix queries, cold, versitygw on loopback, no latency added", len(qs))
	t.Logf("| gap | fetched (sum) | read (sum) | fetched / read, worst query | rounds (max) | requests (sum, max) | time (sum) |")
	t.Logf("|---|---|---|---|---|---|---|")
	for _, gap := range []int64{-1, 4 << 10, 16 << 10, 64 << 10} {
		var fetched, read, reqs, maxReqs, maxRounds int64
		var worst float64
		var total time.Duration
		for _, q := range qs {
			p, d := x16Query(ctx, t, srv, gap, q.q, local)
			fetched += p.FetchedBytes
			read += p.BytesRead
			reqs += p.Requests
			maxReqs = max(maxReqs, p.Requests)
			maxRounds = max(maxRounds, p.Rounds)
			worst = max(worst, float64(p.FetchedBytes)/float64(max(p.BytesRead, 1)))
			total += d
		}
		t.Logf("| %d | %s | %s | %.2f | %d | %d, %d | %v |", max(gap, 0), mib(fetched), mib(read), worst, maxRounds, reqs, maxReqs, total.Round(time.Millisecond))
	}
}

// x16Query runs q once on a new client and segment and checks its answer
// against the local segment's.
func x16Query(ctx context.Context, t *testing.T, srv *s3test.Server, gap int64, q reader.Query, local *reader.Segment) (reader.Profile, time.Duration) {
	t.Helper()
	c := client(t, srv.Endpoint, s3.Config{Gap: gap}, nil)
	seg, err := c.OpenSegment(ctx, "x16", "x16.snii", reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	var p reader.Profile
	t0 := time.Now()
	got, err := seg.Docs(ctx, q, &reader.SearchOptions{Profile: &p})
	d := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	want, err := local.Docs(ctx, q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%s: S3 and local answers differ (%d vs %d docs)", q, len(got), len(want))
	}
	return p, d
}
