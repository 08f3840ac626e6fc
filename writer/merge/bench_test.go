package merge_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
	"github.com/snii-go/snii/writer/merge"
)

// Benchmarks on the agent logs (field "content", split in two halves).
// CPU time (cpu-ms/op) is the number to compare on a shared machine; wall
// time is noisy. BenchmarkMergeVsBuild times a build from text and the
// merge of the halves' segments in the same iterations and reports the
// speedup (target >= 2: a merge skips analysis). BenchmarkMergeRSS merges
// segment files made beforehand, to be run under /usr/bin/time -v.

type halves struct {
	docs    []writer.Document
	bytesIn int64
	o       writer.Options
	dir     string
	a, b    string
}

func agentHalves(b *testing.B) *halves {
	docs, n := agentDocs(b)
	h := &halves{docs: docs, bytesIn: n, o: writer.DefaultOptions("content"), dir: b.TempDir()}
	half := len(docs) / 2
	h.a = build(b, h.dir, "a.snii", h.o, docs[:half])
	h.b = build(b, h.dir, "b.snii", h.o, docs[half:])
	return h
}

func reportCPU(b *testing.B, cpu time.Duration, docs int) {
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	if cpu > 0 {
		b.ReportMetric(float64(docs*b.N)/cpu.Seconds(), "docs/cpu-s")
	}
}

// BenchmarkMergeAgentLogs merges the two halves (no deletes).
func BenchmarkMergeAgentLogs(b *testing.B) {
	h := agentHalves(b)
	out := filepath.Join(h.dir, "m.snii")
	b.SetBytes(h.bytesIn)
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime()
	var st merge.Stats
	for i := 0; i < b.N; i++ {
		var err error
		if st, err = merge.Merge(out, paths(h.a, h.b), merge.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpuTime()-c0, len(h.docs))
	b.ReportMetric(float64(st.Postings), "postings")
}

// BenchmarkMergeAgentLogsDeletes merges the halves with 10% of each deleted.
func BenchmarkMergeAgentLogsDeletes(b *testing.B) {
	h := agentHalves(b)
	half := len(h.docs) / 2
	srcs := paths(h.a, h.b)
	srcs[0].Deleted = randomDeletes(1, half, 0.1)
	srcs[1].Deleted = randomDeletes(2, len(h.docs)-half, 0.1)
	out := filepath.Join(h.dir, "m.snii")
	b.SetBytes(h.bytesIn)
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if _, err := merge.Merge(out, srcs, merge.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpuTime()-c0, len(h.docs))
}

// BenchmarkBuildAgentLogs builds the same documents from text (held in
// memory: JSON parsing is not timed), with the same options.
func BenchmarkBuildAgentLogs(b *testing.B) {
	h := agentHalves(b)
	b.SetBytes(h.bytesIn)
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		build(b, h.dir, "whole.snii", h.o, h.docs)
	}
	reportCPU(b, cpuTime()-c0, len(h.docs))
}

// BenchmarkMergeVsBuild runs a build from text and the merge of the two
// halves in each iteration, checks that they give the same bytes, and
// reports the CPU time of each and the speedup build/merge.
func BenchmarkMergeVsBuild(b *testing.B) {
	h := agentHalves(b)
	out := filepath.Join(h.dir, "m.snii")
	var buildCPU, mergeCPU time.Duration
	var whole string
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c0 := cpuTime()
		whole = build(b, h.dir, "whole.snii", h.o, h.docs)
		c1 := cpuTime()
		if _, err := merge.Merge(out, paths(h.a, h.b), merge.Options{}); err != nil {
			b.Fatal(err)
		}
		c2 := cpuTime()
		buildCPU += c1 - c0
		mergeCPU += c2 - c1
	}
	b.StopTimer()
	sameSegment(b, "merge vs build", out, whole)
	b.ReportMetric(float64(buildCPU.Milliseconds())/float64(b.N), "build-cpu-ms/op")
	b.ReportMetric(float64(mergeCPU.Milliseconds())/float64(b.N), "merge-cpu-ms/op")
	if mergeCPU > 0 {
		b.ReportMetric(float64(buildCPU)/float64(mergeCPU), "speedup")
	}
}

// BenchmarkMergeRSS merges the *.snii files of $SNII_MERGE_DIR (in name
// order) with MemoryLimit $SNII_BENCH_MEMLIMIT MiB (default 64), optionally
// deleting $SNII_MERGE_DELETE percent of each source's docs. Run it alone
// under /usr/bin/time -v for the merge's peak RSS.
func BenchmarkMergeRSS(b *testing.B) {
	dir := os.Getenv("SNII_MERGE_DIR")
	if dir == "" {
		b.Skip("SNII_MERGE_DIR not set")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.snii"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no segments in %s", dir)
	}
	slices.Sort(files)
	mem := envInt(b, "SNII_BENCH_MEMLIMIT", 64)
	del := envInt(b, "SNII_MERGE_DELETE", 0)
	srcs := paths(files...)
	if del > 0 {
		for k, f := range files {
			srcs[k].Deleted = randomDeletes(uint64(k), docCount(b, f), float64(del)/100)
		}
	}
	out := filepath.Join(b.TempDir(), "m.snii")
	b.ReportAllocs()
	var st merge.Stats
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if st, err = merge.Merge(out, srcs, merge.Options{MemoryLimit: int64(mem) << 20, TempDir: filepath.Dir(out)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime() - c0).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(st.Passes), "passes")
	b.Logf("merged %d sources (%d docs, %d deleted) in %d passes with MemoryLimit %d MiB: %d docs, %d terms, %d postings, %d bytes",
		st.Sources, st.DocsIn, st.Deleted, st.Passes, mem, st.Docs, st.Terms, st.Postings, st.BytesOut)
}

func docCount(b *testing.B, path string) int {
	seg, err := reader.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer seg.Close()
	return int(seg.DocCount())
}

func envInt(b *testing.B, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		b.Fatalf("%s=%q", name, s)
	}
	return n
}
