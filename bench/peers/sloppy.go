package peers

import (
	"fmt"
	"slices"
	"strings"
)

// SloppyConfig is one sloppy-phrase comparison of snii with Lucene on one
// corpus (RunSloppy).
type SloppyConfig struct {
	Corpus      string   // agent or service, or a label when Docs is set
	CorporaRoot string   // shared/corpora
	Docs        []string // documents (instead of loading Corpus)
	QueriesPath string   // the corpus's query file: its phrases are the seeds
	Seeds       []*Query // seed queries (instead of QueriesPath)
	Slops       []int    // default 0, 1, 2, 3
	CompareOptions
}

// SloppyRow is one sloppy query's hits and timings.
type SloppyRow struct {
	Query   *Query
	Variant string // as-is, reversed, swapped, dropped
	Hits    int
	PairedTimes
}

// SloppyReport is what RunSloppy found.
type SloppyReport struct {
	Corpus     string
	Docs       int
	Rows       []*SloppyRow
	Mismatches []Mismatch
	Env        Env
	Cycles     int
}

// sloppyVariants derives the sloppy seeds of a phrase: as written, reversed,
// its first two terms swapped, and (3+ terms) without its second term.
func sloppyVariants(terms []string) map[string][]string {
	v := map[string][]string{"as-is": terms}
	r := slices.Clone(terms)
	slices.Reverse(r)
	v["reversed"] = r
	if len(terms) >= 3 {
		s := slices.Clone(terms)
		s[0], s[1] = s[1], s[0]
		v["swapped"] = s
		v["dropped"] = append([]string{terms[0]}, terms[2:]...)
	}
	return v
}

// SloppyQueries derives the sloppy queries of the phrases among seeds: each
// variant (as-is, reversed, swapped, dropped) at each slop, in that order, with
// the variant's name beside each query.
func SloppyQueries(seeds []*Query, slops []int) ([]*Query, []string) {
	var qs []*Query
	var variants []string
	for _, s := range seeds {
		if s.Kind != KindPhrase {
			continue
		}
		vs := sloppyVariants(s.Terms)
		for _, name := range []string{"as-is", "reversed", "swapped", "dropped"} {
			terms, ok := vs[name]
			if !ok {
				continue
			}
			for _, slop := range slops {
				qs = append(qs, &Query{ID: len(qs), Kind: KindSloppy, Class: s.Class, Text: s.Text, Terms: terms, Slop: slop})
				variants = append(variants, name)
			}
		}
	}
	return qs, variants
}

// RunSloppy builds a snii segment and a Lucene index of the corpus, derives
// sloppy phrases from the phrases of the query file (each variant at each
// slop), checks that snii's doc ids equal Lucene's for every one, and then,
// with Cycles > 0, times both in interleaved cycles (snii Count, Lucene
// TotalHitCountCollector; the order alternates every cycle).
func RunSloppy(cfg SloppyConfig) (*SloppyReport, error) {
	if cfg.Slops == nil {
		cfg.Slops = []int{0, 1, 2, 3}
	}
	logf, err := cfg.defaults()
	if err != nil {
		return nil, err
	}
	docs, seeds, err := compareInputs(cfg.Docs, cfg.CorporaRoot, cfg.Corpus, cfg.Seeds, cfg.QueriesPath)
	if err != nil {
		return nil, err
	}
	rep := &SloppyReport{Corpus: cfg.Corpus, Docs: len(docs), Env: CaptureEnv(), Cycles: cfg.Cycles}
	qs, variants := SloppyQueries(seeds, cfg.Slops)
	for i, q := range qs {
		rep.Rows = append(rep.Rows, &SloppyRow{Query: q, Variant: variants[i]})
	}
	logf("%s: %d docs, %d sloppy queries from %d phrases", cfg.Corpus, rep.Docs, len(qs), len(qs)/len(cfg.Slops))
	res, err := runPaired(pairedSetup{CompareOptions: cfg.CompareOptions, Docs: docs, Logf: logf}, qs, nil, &rep.Env)
	if err != nil {
		return nil, err
	}
	rep.Mismatches = res.Mismatches
	for i, r := range rep.Rows {
		r.Hits, r.PairedTimes = res.row(i)
	}
	return rep, nil
}

// Markdown renders the report: per slop, the queries, how many hit, the
// agreement with Lucene and (when timed) the geometric mean of the
// snii/Lucene ratios; then one line per query.
func (r *SloppyReport) Markdown(command string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Sloppy phrases: snii vs Lucene 8.8.1, corpus %s (%d docs)\n\n", r.Corpus, r.Docs)
	fmt.Fprintf(&b, "Command: `%s` (in bench/). Commit %s (dirty: %v), %s, %s, %s, %d CPUs; load before/after the cycles %s / %s.\n\n",
		command, r.Env.Commit, r.Env.Dirty, r.Env.Go, r.Env.Java, r.Env.CPU, r.Env.NumCPU, r.Env.LoadBefore, r.Env.LoadAfter)
	fmt.Fprintf(&b, "Hit sets: %d of %d queries differ from Lucene's.\n\n", len(r.Mismatches), len(r.Rows))
	for _, m := range r.Mismatches {
		fmt.Fprintf(&b, "- MISMATCH %s: %s %v\n", m.Query, m.Details, m.Err)
	}
	bySlop := map[int][]*SloppyRow{}
	var slops []int
	for _, row := range r.Rows {
		if _, ok := bySlop[row.Query.Slop]; !ok {
			slops = append(slops, row.Query.Slop)
		}
		bySlop[row.Query.Slop] = append(bySlop[row.Query.Slop], row)
	}
	fmt.Fprintf(&b, "| slop | queries | with hits | hits (sum) | snii/Lucene time, geomean | thread CPU, geomean |\n|---|---|---|---|---|---|\n")
	for _, s := range slops {
		var hit, sum int
		var ratios, cpu []float64
		for _, row := range bySlop[s] {
			sum += row.Hits
			if row.Hits > 0 {
				hit++
			}
			if row.Ratio > 0 {
				ratios = append(ratios, row.Ratio)
			}
			if row.CPURatio > 0 {
				cpu = append(cpu, row.CPURatio)
			}
		}
		g, gc := "not timed", "not timed"
		if len(ratios) > 0 {
			g = fmt.Sprintf("%.2f×", geomean(ratios))
		}
		if len(cpu) > 0 {
			gc = fmt.Sprintf("%.2f×", geomean(cpu))
		}
		fmt.Fprintf(&b, "| %d | %d | %d | %d | %s | %s |\n", s, len(bySlop[s]), hit, sum, g, gc)
	}
	if r.Cycles > 0 {
		fmt.Fprintf(&b, "\nTimes: median over %d interleaved cycles (order alternating) of the mean of a sample's calls; ratio: median of the per-cycle snii/Lucene ratios.\n\n", r.Cycles)
		fmt.Fprintf(&b, "| query | variant | hits | snii µs | Lucene µs | snii/Lucene | CPU snii/Lucene |\n|---|---|---|---|---|---|---|\n")
		for _, row := range r.Rows {
			fmt.Fprintf(&b, "| `%s`~%d | %s | %d | %.1f | %.1f | %.2f | %.2f |\n", strings.Join(row.Query.Terms, " "), row.Query.Slop, row.Variant, row.Hits, row.SniiNs/1e3, row.LuceneNs/1e3, row.Ratio, row.CPURatio)
		}
	}
	return b.String()
}
