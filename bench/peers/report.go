package peers

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// BuildSummary is the median build of one engine over the build runs.
type BuildSummary struct {
	Engine     string    `json:"engine"`
	Runs       int       `json:"runs"`
	Seconds    float64   `json:"median_build_seconds"`
	SecondsAll []float64 `json:"build_seconds"`
	DocsPerSec float64   `json:"docs_per_second"`
	PeakRSS    int64     `json:"max_peak_rss_bytes"`
	CPUSec     float64   `json:"median_cpu_seconds"`
	cpuAll     []float64
	Size       int64            `json:"index_bytes"`
	Files      map[string]int64 `json:"files"`
	Sections   map[string]int64 `json:"sections,omitempty"`
	Stats      map[string]int64 `json:"stats,omitempty"`
	Options    string           `json:"options"`
}

// BuildSummaries groups the build runs per engine, in engine order.
func (r *Report) BuildSummaries() []BuildSummary {
	var out []BuildSummary
	for _, e := range r.Engines {
		var s BuildSummary
		for _, b := range r.Builds {
			if b.Engine != e {
				continue
			}
			s.Engine, s.Options = e, b.Options
			s.SecondsAll = append(s.SecondsAll, b.Seconds)
			s.cpuAll = append(s.cpuAll, b.CPUSec)
			s.PeakRSS = max(s.PeakRSS, b.PeakRSS)
			s.Size, s.Files, s.Sections, s.Stats = b.Size, b.Files, b.Sections, b.Stats
			s.Runs++
		}
		if s.Runs == 0 {
			continue
		}
		s.Seconds = median(s.SecondsAll)
		s.CPUSec = median(s.cpuAll)
		if s.Seconds > 0 {
			s.DocsPerSec = float64(r.Corpus.Docs) / s.Seconds
		}
		out = append(out, s)
	}
	return out
}

func (r *Report) build(e string) *BuildSummary {
	for _, s := range r.BuildSummaries() {
		if s.Engine == e {
			return &s
		}
	}
	return nil
}

// KindSummary aggregates the queries of one group for one engine.
type KindSummary struct {
	Group   string  `json:"group"`
	Engine  string  `json:"engine"`
	Queries int     `json:"queries"`
	MedUs   float64 `json:"median_of_medians_us"`
	Geo     float64 `json:"geomean_ratio_to_snii"` // engine/snii, ratio of medians
	MinR    float64 `json:"min_ratio_to_snii"`     // over queries, ratio of medians
	// MedSnii is the median over queries of snii/engine (ratio of medians):
	// the figure the phrase targets name ("median of the per-query ratios").
	MedSnii float64 `json:"median_snii_to_engine"`
	MinCyc  float64 `json:"min_cycle_ratio"` // smallest per-cycle ratio over all queries
	MaxCyc  float64 `json:"max_cycle_ratio"`
	Faster  int     `json:"queries_snii_faster"` // ratio of medians > 1
	// The same on thread CPU time per query (medians over cycles).
	CPUMedUs float64 `json:"cpu_median_of_medians_us"`
	CPUGeo   float64 `json:"cpu_geomean_ratio_to_snii"`
	CPUMinR  float64 `json:"cpu_min_ratio_to_snii"`
}

// groups are the query groups of the summary tables.
func (r *Report) groups() []struct {
	name string
	pick func(*QueryResult) bool
} {
	return []struct {
		name string
		pick func(*QueryResult) bool
	}{
		{"phrase (hits)", func(q *QueryResult) bool { return q.Kind == KindPhrase && q.Hits > 0 }},
		{"phrase (zero hits)", func(q *QueryResult) bool { return q.Kind == KindPhrase && q.Hits == 0 }},
		{"term", func(q *QueryResult) bool { return q.Kind == KindTerm }},
		{"prefix", func(q *QueryResult) bool { return q.Kind == KindPrefix }},
		{"phrase prefix", func(q *QueryResult) bool { return q.Kind == KindPhrasePrefix }},
		{"all", func(*QueryResult) bool { return true }},
	}
}

// Summaries aggregates every group for every engine.
func (r *Report) Summaries() []KindSummary {
	var out []KindSummary
	for _, g := range r.groups() {
		for _, e := range r.Engines {
			s := KindSummary{Group: g.name, Engine: e, MinR: -1, MinCyc: -1}
			var meds, ratios, inv, cmeds, cratios []float64
			for _, q := range r.Queries {
				if !g.pick(q) || len(q.Samples[e]) == 0 {
					continue
				}
				s.Queries++
				meds = append(meds, q.Median[e]/1e3)
				cmeds = append(cmeds, q.CPUMedian[e]/1e3)
				if b := q.CPUMedian[EngineSnii]; b > 0 && q.CPUMedian[e] > 0 && e != EngineSnii {
					cr := q.CPUMedian[e] / b
					cratios = append(cratios, cr)
					if s.CPUMinR == 0 || cr < s.CPUMinR {
						s.CPUMinR = cr
					}
				}
				rr, ok := q.RatioMedian[e]
				if e == EngineSnii || !ok {
					continue
				}
				ratios = append(ratios, rr)
				inv = append(inv, 1/rr)
				if rr > 1 {
					s.Faster++
				}
				if s.MinR < 0 || rr < s.MinR {
					s.MinR = rr
				}
				if s.MinCyc < 0 || q.RatioMin[e] < s.MinCyc {
					s.MinCyc = q.RatioMin[e]
				}
				s.MaxCyc = max(s.MaxCyc, q.RatioMax[e])
			}
			if s.Queries == 0 {
				continue
			}
			s.MedUs = median(meds)
			s.Geo = geomean(ratios)
			s.MedSnii = median(inv)
			s.CPUMedUs = median(cmeds)
			s.CPUGeo = geomean(cratios)
			if e == EngineSnii || len(ratios) == 0 {
				s.Geo, s.MinR, s.MinCyc, s.MedSnii = 1, 1, 1, 1
			}
			if e == EngineSnii || len(cratios) == 0 {
				s.CPUGeo, s.CPUMinR = 1, 1
			}
			out = append(out, s)
		}
	}
	return out
}

func (r *Report) summary(group, engine string) *KindSummary {
	for _, s := range r.Summaries() {
		if s.Group == group && s.Engine == engine {
			return &s
		}
	}
	return nil
}

// Target is one line of the targets table of shared/BENCHMARKS.md.
type Target struct {
	What     string `json:"what"`
	Target   string `json:"target"`
	Measured string `json:"measured"`
	Met      string `json:"met"` // yes, no, n/a
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}

// Targets evaluates the peer targets of shared/BENCHMARKS.md.
func (r *Report) Targets() []Target {
	var out []Target
	sn, bl, lu, p0 := r.build(EngineSnii), r.build(EngineBleve), r.build(EngineLucene), r.build(EngineSniiP0)
	if sn != nil && bl != nil {
		x := float64(sn.Size) / float64(bl.Size)
		out = append(out, Target{"index size vs bleve", "≤ 0.25×", fmt.Sprintf("%.3f× (%s vs %s)", x, mib(sn.Size), mib(bl.Size)), yesNo(x <= 0.25)})
	}
	if sn != nil && lu != nil {
		x := float64(sn.Size) / float64(lu.Size)
		out = append(out, Target{"whole index size vs Lucene 8.8.1", "≤ 1.0×", fmt.Sprintf("%.3f× (%s vs %s)", x, mib(sn.Size), mib(lu.Size)), yesNo(x <= 1.0)})
	}
	const ph = "phrase (hits)"
	if s := r.summary(ph, EngineBleve); s != nil {
		ok := s.MinR >= 10 && s.MinCyc >= 1
		out = append(out, Target{"phrase count latency vs bleve (median per query)", "≥ 10× faster, never slower",
			fmt.Sprintf("bleve/snii geomean %.1f×, worst query %.1f×, worst cycle %.2f× (%d queries); thread CPU: geomean %.1f×, worst %.1f×", s.Geo, s.MinR, s.MinCyc, s.Queries, s.CPUGeo, s.CPUMinR), yesNo(ok)})
	}
	if s := r.summary(ph, EngineLucene); s != nil {
		out = append(out, Target{"phrases with hits vs Lucene 8.8.1: median of per-query snii/Lucene ratios", "≤ 0.5× (issue 35)",
			fmt.Sprintf("%.3f×; worst query %.2f× (%d queries)", s.MedSnii, 1/s.MinR, s.Queries), yesNo(s.MedSnii <= 0.5)})
		out = append(out, Target{"phrase count latency vs Lucene 8.8.1 (median per query)", "≤ 1.0× Lucene's median, per query",
			fmt.Sprintf("lucene/snii geomean %.2f×, worst query %.2f×; snii faster on %d of %d; thread CPU: geomean %.2f×, worst %.2f×", s.Geo, s.MinR, s.Faster, s.Queries, s.CPUGeo, s.CPUMinR), yesNo(s.MinR >= 1)})
	}
	if s := r.summary(ph, EngineSniiP0); s != nil {
		// ratio p0/snii: the budget segment's time is 1/that of policy 0.
		x := 1 / s.Geo
		t := "agent logs: geomean ≤ 0.85×; service logs: report"
		met := "n/a"
		if r.Corpus.Name == CorpusAgent {
			met = yesNo(x <= 0.85)
		}
		out = append(out, Target{"phrase latency, budget vs smallest frames (policy 0)", t, fmt.Sprintf("%.3f× geomean (snii/snii-p0); thread CPU %.3f×", x, 1/s.CPUGeo), met})
		if sn != nil && p0 != nil {
			out = append(out, Target{"size, budget vs policy 0", "report (budget ≤ +8% of eligible smallest frames, tested)", fmt.Sprintf("%+.2f%% of the whole segment", 100*(float64(sn.Size)/float64(p0.Size)-1)), "n/a"})
		}
	}
	if sn != nil && bl != nil {
		x := sn.DocsPerSec / bl.DocsPerSec
		out = append(out, Target{"build throughput vs bleve", "≥ 3× docs/s", fmt.Sprintf("%.2f× (%.0f vs %.0f docs/s, medians of %d builds); build CPU time %.2f×", x, sn.DocsPerSec, bl.DocsPerSec, sn.Runs, bl.CPUSec/sn.CPUSec), yesNo(x >= 3)})
	}
	return out
}

func mib(n int64) string { return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20)) }

func us(ns float64) string {
	u := ns / 1e3
	switch {
	case u >= 1000:
		return strconv.FormatFloat(u, 'f', 0, 64)
	case u >= 10:
		return strconv.FormatFloat(u, 'f', 1, 64)
	}
	return strconv.FormatFloat(u, 'f', 2, 64)
}

// WriteMarkdown renders the report.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	p("# Peer benchmark: %s corpus", r.Corpus.Name)
	p("")
	p("Generated by `bench/cmd/peers` (see bench/README.md). Raw samples: `%s.json` and `%s.csv` beside this file.", r.base(), r.base())
	p("")
	p("| environment | |")
	p("|---|---|")
	dirty := ""
	if r.Env.Dirty {
		dirty = " + uncommitted changes"
	}
	p("| date | %s |", r.Env.Date)
	p("| commit | %s%s |", r.Env.Commit, dirty)
	p("| Go | %s (GOMAXPROCS %d) |", r.Env.Go, r.Env.GOMAXPROCS)
	if r.Env.Java != "" {
		p("| Java | %s |", r.Env.Java)
	}
	p("| CPU | %s × %d |", r.Env.CPU, r.Env.NumCPU)
	p("| OS | %s %s |", r.Env.OS, r.Env.Kernel)
	if r.Env.LoadBefore != "" {
		p("| load average (1/5/15 min) | %s before the cycles, %s after (the machine is shared; ratios are measured side by side) |", r.Env.LoadBefore, r.Env.LoadAfter)
	}
	p("| peers | bleve %s; Lucene 8.8.1 (Debian liblucene8-java) |", r.Env.Bleve)
	p("| corpus | %s: %d docs, %s, %d positions (%s) |", r.Corpus.Name, r.Corpus.Docs, mib(r.Corpus.Bytes), r.Corpus.Positions, strings.Join(shortSources(r.Corpus.Sources), ", "))
	p("| queries | %d (%s) |", len(r.Queries), r.Settings.QueriesPath)
	p("| timing | %d cycles after warm-up; a sample repeats one query ≥ %.0f ms (≤ %d calls) and records ns/query; %s |", r.Settings.Cycles, r.Settings.MinSampleMs, r.Settings.MaxReps, r.Settings.Order)
	p("| builds | %d per engine, interleaved, each in its own process; median reported |", r.Settings.BuildRuns)
	if r.Settings.Command != "" {
		p("| command | `%s` |", r.Settings.Command)
	}
	for _, s := range r.Skipped {
		p("| skipped | %s |", s)
	}
	p("")
	p("Every query returned exactly the oracle's doc ids on every engine before timing, and every timed call returned the oracle's count.")
	p("")

	p("## Targets (shared/BENCHMARKS.md)")
	p("")
	p("| what | target | measured | met |")
	p("|---|---|---|---|")
	for _, t := range r.Targets() {
		p("| %s | %s | %s | %s |", t.What, t.Target, t.Measured, t.Met)
	}
	p("")

	p("## Index size and build")
	p("")
	p("| engine | index size | ratio to snii | build s (median; runs) | docs/s | build CPU s | peak RSS of the build |")
	p("|---|---|---|---|---|---|---|")
	sums := r.BuildSummaries()
	var snSize float64
	for _, s := range sums {
		if s.Engine == EngineSnii {
			snSize = float64(s.Size)
		}
	}
	for _, s := range sums {
		runs := make([]string, len(s.SecondsAll))
		for i, x := range s.SecondsAll {
			runs[i] = strconv.FormatFloat(x, 'f', 2, 64)
		}
		ratio := ""
		if snSize > 0 {
			ratio = fmt.Sprintf("%.2f×", float64(s.Size)/snSize)
		}
		p("| %s | %s (%d B) | %s | %.2f (%s) | %.0f | %.2f | %s |", s.Engine, mib(s.Size), s.Size, ratio, s.Seconds, strings.Join(runs, ", "), s.DocsPerSec, s.CPUSec, mib(s.PeakRSS))
	}
	p("")
	if pos := float64(r.Corpus.Positions); pos > 0 {
		var items []string
		for _, s := range sums {
			switch {
			case s.Stats != nil:
				b := s.Sections["prx frames (posting region)"] + s.Stats["inline prx frame bytes"]
				items = append(items, fmt.Sprintf("%s .prx frames %.2f", s.Engine, float64(b)*8/pos))
			case s.Engine == EngineLucene:
				items = append(items, fmt.Sprintf("lucene .pos %.2f (.doc, which holds the term frequencies, %.2f)", float64(s.Sections[".pos"])*8/pos, float64(s.Sections[".doc"])*8/pos))
			}
		}
		if len(items) > 0 {
			p("Bits per position: %s.", strings.Join(items, "; "))
			p("")
		}
	}
	p("Per file or section (bytes):")
	p("")
	for _, s := range sums {
		p("- **%s** — %s", s.Engine, s.Options)
		parts := s.Sections
		if len(parts) == 0 {
			parts = s.Files
		}
		keys := make([]string, 0, len(parts))
		for k := range parts {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return parts[keys[i]] > parts[keys[j]] })
		var items []string
		for _, k := range keys {
			items = append(items, fmt.Sprintf("`%s` %d", k, parts[k]))
		}
		p("  %s", strings.Join(items, ", "))
		if len(s.Stats) > 0 {
			keys = keys[:0]
			for k := range s.Stats {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			items = items[:0]
			for _, k := range keys {
				items = append(items, fmt.Sprintf("%s %d", k, s.Stats[k]))
			}
			p("  (%s)", strings.Join(items, ", "))
		}
	}
	p("")

	p("## Query latency by group")
	p("")
	p("Median over the group's queries of each query's median µs; ratio = engine/snii time, geometric mean over queries of the ratio of medians, then the worst query and the per-cycle range. The CPU columns are the same on the CPU time of the thread that ran the calls (Go: goroutine locked to its thread; Java: ThreadMXBean), which other load on the machine does not inflate; it leaves out work on other threads (Go's background GC workers, the JVM's GC and JIT threads).")
	p("")
	p("| group | engine | queries | median µs | geomean ratio | snii/engine, median over queries | worst query | per-cycle min–max | snii faster on | CPU median µs | CPU geomean ratio | CPU worst query |")
	p("|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, s := range r.Summaries() {
		if s.Engine == EngineSnii {
			p("| %s | %s | %d | %.1f | 1 | 1 | | | | %.1f | 1 | |", s.Group, s.Engine, s.Queries, s.MedUs, s.CPUMedUs)
			continue
		}
		p("| %s | %s | %d | %.1f | %.2f× | %.3f× | %.2f× | %.2f–%.2f× | %d | %.1f | %.2f× | %.2f× |", s.Group, s.Engine, s.Queries, s.MedUs, s.Geo, s.MedSnii, s.MinR, s.MinCyc, s.MaxCyc, s.Faster, s.CPUMedUs, s.CPUGeo, s.CPUMinR)
	}
	p("")

	p("## Per query")
	p("")
	head := "| # | kind | class | query | hits |"
	sep := "|---|---|---|---|---|"
	for _, e := range r.Engines {
		head += " " + e + " µs |"
		sep += "---|"
		if e != EngineSnii {
			head += " " + e + "/snii (cycles) |"
			sep += "---|"
		}
	}
	p("%s", head)
	p("%s", sep)
	for _, q := range r.Queries {
		row := fmt.Sprintf("| %d | %s | %s | `%s` | %d |", q.ID, q.Kind, q.Class, queryText(q), q.Hits)
		for _, e := range r.Engines {
			row += " " + us(q.Median[e]) + " |"
			if e != EngineSnii {
				row += fmt.Sprintf(" %.2f (%.2f–%.2f) |", q.RatioMedian[e], q.RatioMin[e], q.RatioMax[e])
			}
		}
		p("%s", row)
	}
	p("")

	p("Thread CPU time per query (median over cycles), and each engine's ratio to snii:")
	p("")
	head = "| # | query | snii CPU µs |"
	sep = "|---|---|---|"
	for _, e := range r.Engines {
		if e != EngineSnii {
			head += " " + e + " CPU µs | /snii |"
			sep += "---|---|"
		}
	}
	p("%s", head)
	p("%s", sep)
	for _, q := range r.Queries {
		row := fmt.Sprintf("| %d | `%s` | %s |", q.ID, queryText(q), us(q.CPUMedian[EngineSnii]))
		for _, e := range r.Engines {
			if e == EngineSnii {
				continue
			}
			ratio := 0.0
			if b := q.CPUMedian[EngineSnii]; b > 0 {
				ratio = q.CPUMedian[e] / b
			}
			row += fmt.Sprintf(" %s | %.2f |", us(q.CPUMedian[e]), ratio)
		}
		p("%s", row)
	}
	p("")

	if r.hasProfiles() {
		p("## snii query profiles")
		p("")
		p("One profiled call per query after the cycles (`reader.Profile`): doc windows and .prx windows read, frames decoded by codec (RAW/ZSTD/PFOR), plain bytes parsed, docs in the decoded windows vs docs selected for verification, time decoding frames and verifying positions, whole call (profiling adds clock reads).")
		p("")
		p("| # | query | hits | engine | doc windows | prx windows | frames R/Z/P | plain bytes | docs total/selected | decode µs | verify µs | total µs |")
		p("|---|---|---|---|---|---|---|---|---|---|---|---|")
		for _, q := range r.Queries {
			for _, e := range []string{EngineSnii, EngineSniiP0} {
				pr := q.Profiles[e]
				if pr == nil {
					continue
				}
				p("| %d | `%s` | %d | %s | %d | %d | %d/%d/%d | %d | %d/%d | %.1f | %.1f | %.1f |", q.ID, queryText(q), q.Hits, e,
					pr.DocWindowsRead, pr.WindowsRead, pr.FramesRaw, pr.FramesZstd, pr.FramesPFOR, pr.PlainBytes,
					pr.TotalDocs, pr.SelectedDocs, pr.DecodeUs, pr.VerifyUs, pr.TotalUs)
			}
		}
		p("")
	}

	if len(r.Conc) > 0 {
		p("## Concurrency: snii, one shared segment")
		p("")
		p("%d queries per phase (%s); goroutines start together; throughput = queries / wall time of the phase; latency percentiles by nearest rank; CPU = process user+system time / queries; peak RSS = VmHWM of the child process during the phase (reset before it); every answer checked against the oracle's count.", r.Settings.ConcOps, r.Settings.ConcQueryMix)
		p("")
		p("| goroutines | queries/s | p50 µs | p95 µs | p99 µs | CPU µs/query | peak RSS | heap in use before → after | alloc B/query | mallocs/query |")
		p("|---|---|---|---|---|---|---|---|---|---|")
		for _, c := range r.Conc {
			p("| %d | %.0f | %.1f | %.1f | %.1f | %.1f | %s | %s → %s | %.0f | %.1f |", c.Goroutines, c.QPS, c.P50us, c.P95us, c.P99us, c.CPUPerQus, mib(c.PeakRSS), mib(int64(c.HeapBefore)), mib(int64(c.HeapAfter)), c.AllocPerQ, c.MallocPerQ)
		}
		p("")
	}

	p("## Method")
	p("")
	p("- All engines index the same documents (one text field) with the same analyzer: maximal runs of `[\\p{L}\\p{Nd}]+`, lowercased rune by rune, invalid UTF-8 separates, tokens over 255 bytes dropped but keeping their position. snii: `standard`. bleve: `regexp` tokenizer + the harness's per-rune lowercase filter. Lucene: `PatternTokenizer` + `LowerCaseFilter` + a 255-byte filter.")
	p("- Queries run end to end through each engine's public API on the index files on disk: snii `reader.Open` + `Segment.Count` (term queries through `Segment.Docs`: `Count` answers a term from its df, while the peers are timed iterating postings); bleve `OpenUsing(read_only)` + `Search` with size 0 and `Score: none`; Lucene `IndexSearcher.search(query, TotalHitCountCollector)` with the query cache off (never `count()`, which answers a term query from its doc frequency). Prefix and phrase-prefix queries expand to every term with the prefix (no cap) in all engines; bleve and Lucene expand the phrase prefix from their term dictionary inside the timed call.")
	p("- Lucene runs in its own JVM, warmed up for %.0f s over all queries; the harness sends it one `run <query> <reps>` at a time in the same interleaved cycle as the Go engines, and the time is measured inside the JVM (no pipe overhead). JVM options: %s.", r.Settings.LuceneWarmS, jvmOpts(r.Settings.LuceneJVM))
	p("- Builds and the concurrency phase run in child processes, so each peak RSS is that process's own (VmHWM read by the child itself: getrusage's maxrss of a vfork+exec child starts from the parent's peak). Build CPU = user+system time of the child (for Lucene all JVM threads, start-up included). Build time is create → durable close, reading the same length-prefixed docs file for every engine (for Lucene measured inside the JVM, start-up excluded).")
	p("- The Go engines run in the harness process (one Go heap and GC); the corpus and the oracle's data are dropped before the engines are opened.")
	p("- The oracle tokenizes every document with the bench module's own tokenizer and scans each query; any difference stops the run before timing.")
	_, err := io.WriteString(w, b.String())
	return err
}

func shortSources(s []string) []string {
	if len(s) <= 6 {
		return s
	}
	return append(slices.Clone(s[:5]), fmt.Sprintf("… %d files", len(s)))
}

func (r *Report) base() string { return "REPORT-" + r.Corpus.Name }

// WriteCSV writes one row per sample.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"corpus", "query_id", "kind", "class", "query", "hits", "engine", "cycle", "reps", "ns_per_query", "cpu_ns_per_query"})
	for _, q := range r.Queries {
		for _, e := range r.Engines {
			for c, s := range q.Samples[e] {
				cpu := 0.0
				if c < len(q.CPUSamples[e]) {
					cpu = q.CPUSamples[e][c]
				}
				cw.Write([]string{r.Corpus.Name, strconv.Itoa(q.ID), string(q.Kind), q.Class, strings.Join(q.Terms, " "),
					strconv.Itoa(q.Hits), e, strconv.Itoa(c), strconv.Itoa(q.Reps[e]), strconv.FormatFloat(s, 'f', 1, 64), strconv.FormatFloat(cpu, 'f', 1, 64)})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteFiles writes REPORT-<corpus>.md, .json and .csv into dir.
func (r *Report) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	write := func(ext string, fn func(io.Writer) error) error {
		f, err := os.Create(filepath.Join(dir, r.base()+ext))
		if err != nil {
			return err
		}
		if err := fn(f); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	if err := write(".md", r.WriteMarkdown); err != nil {
		return err
	}
	if err := write(".csv", r.WriteCSV); err != nil {
		return err
	}
	return write(".json", func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		type out struct {
			*Report
			BuildSummaries []BuildSummary `json:"build_summaries"`
			Summaries      []KindSummary  `json:"summaries"`
			Targets        []Target       `json:"targets"`
		}
		return enc.Encode(out{r, r.BuildSummaries(), r.Summaries(), r.Targets()})
	})
}

func queryText(q *QueryResult) string {
	t := strings.Join(q.Terms, " ")
	if q.Kind == KindPrefix || q.Kind == KindPhrasePrefix {
		t += "*"
	}
	return t
}

func (r *Report) hasProfiles() bool {
	for _, q := range r.Queries {
		if len(q.Profiles) > 0 {
			return true
		}
	}
	return false
}

// ReadReport loads a report written by WriteFiles (its .json).
func ReadReport(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}

// jvmOpts names the JVM options of a run: none means the JVM's defaults,
// whose collector depends on the CPUs the JVM sees (G1 on two or more, the
// serial collector on one).
func jvmOpts(args string) string {
	if args == "" {
		return "none (the JVM's defaults: G1 on two CPUs or more, the serial collector on one)"
	}
	return "`" + args + "`"
}
