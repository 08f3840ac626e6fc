package merge_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit"
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
	c0 := testkit.CPUTime()
	var st merge.Stats
	for i := 0; i < b.N; i++ {
		var err error
		if st, err = merge.Merge(context.Background(), out, paths(h.a, h.b), merge.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, testkit.CPUTime()-c0, len(h.docs))
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
	c0 := testkit.CPUTime()
	for i := 0; i < b.N; i++ {
		if _, err := merge.Merge(context.Background(), out, srcs, merge.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, testkit.CPUTime()-c0, len(h.docs))
}

// BenchmarkBuildAgentLogs builds the same documents from text (held in
// memory: JSON parsing is not timed), with the same options.
func BenchmarkBuildAgentLogs(b *testing.B) {
	h := agentHalves(b)
	b.SetBytes(h.bytesIn)
	b.ReportAllocs()
	b.ResetTimer()
	c0 := testkit.CPUTime()
	for i := 0; i < b.N; i++ {
		build(b, h.dir, "whole.snii", h.o, h.docs)
	}
	reportCPU(b, testkit.CPUTime()-c0, len(h.docs))
}

// BenchmarkMergeVsBuild runs, in each iteration, a build of the documents
// held in memory (analysis included, JSON parsing not), a build streaming
// the JSONL file (reading and parsing included, as snii build does) and the
// merge of the two halves' segments; it checks that they give the same
// bytes and reports the CPU time of each and the speedups build/merge.
func BenchmarkMergeVsBuild(b *testing.B) {
	h := agentHalves(b)
	file := testkit.CorpusPath(b, testkit.AgentLogs)
	out := filepath.Join(h.dir, "m.snii")
	var buildCPU, streamCPU, mergeCPU time.Duration
	var whole string
	b.ResetTimer()
	// Each phase starts after a collection, so none pays for collecting the
	// garbage of the one before (CPU time is process-wide).
	timed := func(fn func()) time.Duration {
		runtime.GC()
		c0 := testkit.CPUTime()
		fn()
		return testkit.CPUTime() - c0
	}
	for i := 0; i < b.N; i++ {
		buildCPU += timed(func() { whole = build(b, h.dir, "whole.snii", h.o, h.docs) })
		streamCPU += timed(func() { streamBuild(b, filepath.Join(h.dir, "stream.snii"), h.o, file) })
		mergeCPU += timed(func() {
			if _, err := merge.Merge(context.Background(), out, paths(h.a, h.b), merge.Options{}); err != nil {
				b.Fatal(err)
			}
		})
	}
	b.StopTimer()
	sameSegment(b, "merge vs build", out, whole)
	sameSegment(b, "merge vs streaming build", out, filepath.Join(h.dir, "stream.snii"))
	perOp := func(d time.Duration) float64 { return float64(d.Milliseconds()) / float64(b.N) }
	b.ReportMetric(perOp(buildCPU), "build-cpu-ms/op")
	b.ReportMetric(perOp(streamCPU), "stream-cpu-ms/op")
	b.ReportMetric(perOp(mergeCPU), "merge-cpu-ms/op")
	if mergeCPU > 0 {
		b.ReportMetric(float64(buildCPU)/float64(mergeCPU), "speedup")
		b.ReportMetric(float64(streamCPU)/float64(mergeCPU), "speedup-stream")
	}
}

// streamBuild builds the "content" of each line of the JSONL file, parsing
// the lines as it goes (no corpus held in memory).
func streamBuild(b *testing.B, path string, o writer.Options, file string) {
	w, err := writer.Create(context.Background(), path, o)
	if err != nil {
		b.Fatal(err)
	}
	testkit.EachLine(b, []string{file}, func(line []byte) {
		s, err := testkit.AgentContent(line)
		if err != nil {
			return
		}
		if _, err := w.Add(writer.Doc("content", s)); err != nil {
			b.Fatal(err)
		}
	})
	if err := w.Close(); err != nil {
		b.Fatal(err)
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
	c0 := testkit.CPUTime()
	for i := 0; i < b.N; i++ {
		if st, err = merge.Merge(context.Background(), out, srcs, merge.Options{MemoryLimit: int64(mem) << 20, TempDir: filepath.Dir(out)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((testkit.CPUTime()-c0).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(st.Passes), "passes")
	b.Logf("merged %d sources (%d docs, %d deleted) in %d passes with MemoryLimit %d MiB: %d docs, %d terms, %d postings, %d bytes",
		st.Sources, st.DocsIn, st.Deleted, st.Passes, mem, st.Docs, st.Terms, st.Postings, st.BytesOut)
}

func docCount(b *testing.B, path string) int {
	seg, err := reader.Open(path, reader.Options{})
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

// replaySource feeds postings held in memory to the emitter.
type replaySource struct {
	terms [][]byte
	posts [][]replayPosting
	i, j  int
}

type replayPosting struct {
	doc uint32
	pos []uint32
}

func (r *replaySource) NextTerm() ([]byte, uint64, bool, error) {
	if r.i == len(r.terms) {
		return nil, 0, false, nil
	}
	r.i++
	r.j = 0
	return r.terms[r.i-1], uint64(len(r.posts[r.i-1])), true, nil
}

func (r *replaySource) NextDoc() (uint32, []uint32, bool, error) {
	ps := r.posts[r.i-1]
	if r.j == len(ps) {
		return 0, nil, false, nil
	}
	r.j++
	return ps[r.j-1].doc, ps[r.j-1].pos, true, nil
}

// BenchmarkEmitOnly is the floor of any merge: the writer's emitter alone
// (windows, .prx encoding with the budget, dict blocks, publication) fed
// from postings held in memory, for the agent logs. A merge adds reading
// and decoding the sources; a build adds analysis and the term buffer.
func BenchmarkEmitOnly(b *testing.B) {
	h := agentHalves(b)
	whole := build(b, h.dir, "whole.snii", h.o, h.docs)
	seg, err := reader.Open(whole, reader.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer seg.Close()
	it, err := seg.TermIter(b.Context(), "content")
	if err != nil {
		b.Fatal(err)
	}
	src := &replaySource{}
	for it.Next() {
		p, err := it.Postings()
		if err != nil {
			b.Fatal(err)
		}
		var ps []replayPosting
		for p.Next() {
			pos, err := p.Positions()
			if err != nil {
				b.Fatal(err)
			}
			ps = append(ps, replayPosting{p.Doc(), slices.Clone(pos)})
		}
		src.terms = append(src.terms, []byte(it.Term()))
		src.posts = append(src.posts, ps)
	}
	it.Close()
	m, err := seam.IndexMeta(seg, "content")
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(h.dir, "emit.snii")
	b.SetBytes(h.bytesIn)
	b.ReportAllocs()
	b.ResetTimer()
	c0 := testkit.CPUTime()
	for i := 0; i < b.N; i++ {
		src.i = 0
		in := []writer.IndexInput{{Name: "content", DocsWithField: m.DocsWithField, Postings: src}}
		records := func(add func([]byte) error) error {
			ids := make([]uint32, seg.DocCount())
			for i := range ids {
				ids[i] = uint32(i)
			}
			return seg.Records(b.Context(), ids, func(_ uint32, rec []byte) error { return add(rec) })
		}
		if _, err := writer.BuildFromSources(b.Context(), out, h.o, uint64(seg.DocCount()), in, records); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, testkit.CPUTime()-c0, len(h.docs))
	b.StopTimer()
	sameSegment(b, "emit only", out, whole)
}
