package writer_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/writer"
)

// Benchmarks. Throughput benchmarks add documents held in memory (parsing
// is not timed); BenchmarkBuildStream reads and parses the corpus while it
// builds, like the CLI, and is the one to run under /usr/bin/time -v for
// peak RSS (SNII_BENCH_REPEAT=n feeds the corpus n times, SNII_BENCH_MEMLIMIT
// sets MemoryLimit in MiB, SNII_BENCH_NOPAIRS=1 builds without pairs).

type corpus struct {
	field string
	docs  []writer.Document
	bytes int64
}

func loadAgent(b *testing.B) *corpus {
	c := &corpus{field: "content"}
	testkit.EachLine(b, []string{testkit.CorpusPath(b, testkit.AgentLogs)}, func(line []byte) {
		s, _ := testkit.AgentContent(line) // a bad line is an empty document
		c.docs = append(c.docs, writer.Doc(c.field, s))
		c.bytes += int64(len(s))
	})
	return c
}

func loadService(b *testing.B) *corpus {
	c := &corpus{field: "text"}
	testkit.EachLine(b, testkit.CorpusFiles(b, testkit.ServiceLogs...), func(line []byte) {
		c.docs = append(c.docs, writer.Doc(c.field, string(line)))
		c.bytes += int64(len(line))
	})
	return c
}

func loadGenerated(n int) *corpus {
	c := &corpus{field: "text", docs: genDocs(11, n)}
	for _, d := range c.docs {
		for _, f := range d.Fields {
			for _, v := range f.Values {
				c.bytes += int64(len(v))
			}
		}
	}
	return c
}

// benchBuild builds c (repeat times over) once per iteration.
func benchBuild(b *testing.B, c *corpus, o writer.Options, repeat int) writer.Stats {
	b.Helper()
	dir := b.TempDir()
	b.SetBytes(c.bytes * int64(repeat))
	b.ReportAllocs()
	var st writer.Stats
	b.ResetTimer()
	start, cpu0 := time.Now(), testkit.CPUTime()
	for i := 0; i < b.N; i++ {
		w, err := writer.Create(context.Background(), filepath.Join(dir, "bench.snii"), o)
		if err != nil {
			b.Fatal(err)
		}
		for r := 0; r < repeat; r++ {
			for _, d := range c.docs {
				if _, err := w.Add(d); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		st = w.Stats()
	}
	el := time.Since(start).Seconds()
	cpu := (testkit.CPUTime() - cpu0).Seconds()
	b.ReportMetric(float64(len(c.docs)*repeat*b.N)/el, "docs/s")
	b.ReportMetric(1000*cpu/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(len(c.docs)*repeat*b.N)/cpu, "docs/cpu-s")
	b.ReportMetric(float64(st.Spills), "spills")
	return st
}

func BenchmarkBuildGenerated(b *testing.B) {
	c := loadGenerated(20000)
	benchBuild(b, c, genOptions(), 1)
}

func BenchmarkBuildAgentLogs(b *testing.B) {
	c := loadAgent(b)
	benchBuild(b, c, writer.DefaultOptions(c.field), 1)
}

func BenchmarkBuildServiceLogs(b *testing.B) {
	c := loadService(b)
	benchBuild(b, c, writer.DefaultOptions(c.field), 1)
}

// BenchmarkBuildAgentLogsNoPairs and BenchmarkBuildServiceLogsNoPairs are
// the builds above without the pair index: the pair counting's cost is the
// difference of cpu-ms/op (run them interleaved: -count N).
func BenchmarkBuildAgentLogsNoPairs(b *testing.B) {
	c := loadAgent(b)
	o := writer.DefaultOptions(c.field)
	o.Pairs.Percent = writer.PairsOff
	benchBuild(b, c, o, 1)
}

func BenchmarkBuildServiceLogsNoPairs(b *testing.B) {
	c := loadService(b)
	o := writer.DefaultOptions(c.field)
	o.Pairs.Percent = writer.PairsOff
	benchBuild(b, c, o, 1)
}

// BenchmarkBuildSpilling forces spills (MemoryLimit 4 MiB) on the agent logs.
func BenchmarkBuildSpilling(b *testing.B) {
	c := loadAgent(b)
	o := writer.DefaultOptions(c.field)
	o.MemoryLimit = 4 << 20
	benchBuild(b, c, o, 1)
}

// BenchmarkBuildScaling builds 50k and 100k generated documents (the same
// distribution, so the vocabulary of ids and numbers grows with the corpus):
// the time of n100k over n50k is the scaling factor (target <= 2.2). Run
// with -count; compare medians (cpu-ms/op is steadier than ns/op on a
// shared machine).
func BenchmarkBuildScaling(b *testing.B) {
	for _, n := range []int{50000, 100000} {
		c := loadGenerated(n)
		b.Run("n"+strconv.Itoa(n/1000)+"k", func(b *testing.B) {
			benchBuild(b, c, genOptions(), 1)
		})
	}
}

// BenchmarkBuildStream reads the agent logs (parsing each JSON line) while
// building, holding no corpus in memory: the benchmark for peak RSS.
func BenchmarkBuildStream(b *testing.B) {
	file := testkit.CorpusPath(b, testkit.AgentLogs)
	repeat := envInt(b, "SNII_BENCH_REPEAT", 1)
	o := writer.DefaultOptions("content")
	o.MemoryLimit = int64(envInt(b, "SNII_BENCH_MEMLIMIT", 64)) << 20
	if envInt(b, "SNII_BENCH_NOPAIRS", 0) == 1 {
		o.Pairs.Percent = writer.PairsOff
	}
	dir := b.TempDir()
	b.ReportAllocs()
	var st writer.Stats
	for i := 0; i < b.N; i++ {
		w, err := writer.Create(context.Background(), filepath.Join(dir, "stream.snii"), o)
		if err != nil {
			b.Fatal(err)
		}
		for r := 0; r < repeat; r++ {
			testkit.EachLine(b, []string{file}, func(line []byte) {
				s, _ := testkit.AgentContent(line) // a bad line is an empty document
				if _, err := w.Add(writer.Doc("content", s)); err != nil {
					b.Fatal(err)
				}
			})
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		st = w.Stats()
	}
	b.SetBytes(st.BytesIn)
	b.ReportMetric(float64(st.Spills), "spills")
	b.ReportMetric(float64(st.PeakBuffered)/(1<<20), "peakbuf-MiB")
	b.Logf("stream: %d docs, %d bytes in, %d spills, run file %d bytes, peak buffer %d bytes, segment %d bytes",
		st.Docs, st.BytesIn, st.Spills, st.RunBytes, st.PeakBuffered, st.BytesOut)
}

func envInt(b *testing.B, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		b.Fatalf("%s=%q", name, s)
	}
	return n
}

// BenchmarkSizes reports where the bytes go (per position, per section) for
// policy 0 and the default budget, on each corpus.
func BenchmarkSizes(b *testing.B) {
	for _, cs := range []struct {
		name string
		load func(*testing.B) *corpus
	}{{"agent", loadAgent}, {"service", loadService}} {
		b.Run(cs.name, func(b *testing.B) {
			c := cs.load(b)
			for _, pol := range []struct {
				name      string
				minSaving int
			}{{"p0", 0}, {"budget8", -1}} {
				b.Run(pol.name, func(b *testing.B) {
					o := writer.DefaultOptions(c.field)
					o.Policy = budget.FromPercents(pol.minSaving, 8)
					dir := b.TempDir()
					var path string
					for i := 0; i < b.N; i++ {
						path, _ = build(b, dir, "s.snii", o, c.docs)
					}
					b.StopTimer()
					seg, err := dumpSegment(testkit.ReadFile(b, path))
					if err != nil {
						b.Fatal(err)
					}
					m := seg.Indexes[0].Meta
					pos := float64(m.SumTTF)
					prx := float64(m.PrxBytes + m.InlineFrameBytes)
					b.ReportMetric(float64(seg.Size), "seg-B")
					b.ReportMetric(float64(seg.Size)/pos, "B/pos")
					b.ReportMetric(prx/pos, "prxB/pos")
					b.ReportMetric(float64(m.DocBytes)/float64(m.SumDF), "docB/posting")
					b.ReportMetric(float64(m.DictLen), "dict-B")
					b.ReportMetric(float64(m.Outcome.Budget.Traded), "traded-B")
					b.Logf("%s %s: %d bytes, %d docs, %d terms (%d inline/%d slim/%d windowed), %d positions; posting %d (prx %d, docs %d incl. preludes %d), inline frames %d, dict %d; windows raw/zstd/pfor %v bytes %v; eligible %d, smallest %d, traded %d in %d windows, share %d",
						cs.name, pol.name, seg.Size, m.DocCount, m.TermCount, m.InlineTerms, m.SlimTerms, m.WindowedTerms, m.SumTTF,
						m.PostingLen, m.PrxBytes, m.DocBytes, m.PreludeBytes, m.InlineFrameBytes, m.DictLen,
						m.Outcome.Windows, m.Outcome.Bytes, m.Outcome.Budget.Eligible, m.Outcome.Budget.SumSmallest,
						m.Outcome.Budget.Traded, m.Outcome.Budget.TradedCount, m.Outcome.Budget.FinalShare)
				})
			}
		})
	}
}
