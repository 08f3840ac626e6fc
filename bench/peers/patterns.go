package peers

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode"
)

// CheckPattern reports whether text is a pattern of kind KindRegexp or
// KindWildcard that snii and Lucene 8.8.1 read the same way on analyzed
// (lowercased) terms. A regexp must compile as RE2 and avoid what the two
// syntaxes read differently: Lucene's operators @ & ~ < > # and ", escapes
// (RE2's \d is Lucene's d), anchors ^ $ outside a class, and (? groups. Both
// kinds must be lowercase (terms are) and hold no space.
func CheckPattern(kind Kind, text string) error {
	if text == "" || strings.ContainsFunc(text, unicode.IsSpace) {
		return fmt.Errorf("%s %q: empty or has a space", kind, text)
	}
	if strings.ContainsFunc(text, unicode.IsUpper) {
		return fmt.Errorf("%s %q: has an upper-case letter (terms are lowercased)", kind, text)
	}
	switch kind {
	case KindWildcard:
		if strings.HasSuffix(text, `\`) && !strings.HasSuffix(text, `\\`) {
			return fmt.Errorf("wildcard %q ends in a lone backslash", text)
		}
		return nil
	case KindRegexp:
		if _, err := syntax.Parse(text, syntax.Perl); err != nil {
			return fmt.Errorf("regexp %q: %v", text, err)
		}
		if i := strings.IndexAny(text, `@&~<>#"\$`); i >= 0 {
			return fmt.Errorf("regexp %q: %q means different things to RE2 and Lucene's RegExp", text, text[i])
		}
		if strings.Contains(text, "(?") {
			return fmt.Errorf("regexp %q: (? groups are RE2 only", text)
		}
		for i := range len(text) {
			if text[i] == '^' && (i == 0 || text[i-1] != '[') {
				return fmt.Errorf("regexp %q: ^ outside a class is an anchor in RE2, a literal in Lucene", text)
			}
		}
		return nil
	}
	return fmt.Errorf("%q is not a pattern kind", kind)
}

// PatternConfig is one comparison of snii's term patterns (reader.Regexp,
// reader.Wildcard, every expansion) with Lucene's RegexpQuery and
// WildcardQuery (RunPatterns).
type PatternConfig struct {
	Corpus      string   // agent or service, or a label when Docs is set
	CorporaRoot string   // shared/corpora
	Docs        []string // documents (instead of loading Corpus)
	QueriesPath string   // a query file of regexp and wildcard lines
	Queries     []*Query // the queries (instead of QueriesPath)
	CompareOptions
}

// PatternRow is one pattern's expansions, hits and timings.
type PatternRow struct {
	Query      *Query
	Expansions int // terms of the corpus the pattern matches (oracle)
	Hits       int
	PairedTimes
}

// PatternReport is what RunPatterns found.
type PatternReport struct {
	Corpus     string
	Docs       int
	Rows       []*PatternRow
	Mismatches []Mismatch
	Env        Env
	Cycles     int
}

// RunPatterns answers every pattern with the oracle (Go's regexp on every
// distinct token for a regexp; the test oracle's Glob for a wildcard), builds a snii
// segment and a Lucene index, checks that both engines return the oracle's
// doc ids, and with Cycles > 0 times both in interleaved cycles.
func RunPatterns(cfg PatternConfig) (*PatternReport, error) {
	logf, err := cfg.defaults()
	if err != nil {
		return nil, err
	}
	docs, qs, err := compareInputs(cfg.Docs, cfg.CorporaRoot, cfg.Corpus, cfg.Queries, cfg.QueriesPath)
	if err != nil {
		return nil, err
	}
	for _, q := range qs {
		if q.Kind != KindRegexp && q.Kind != KindWildcard {
			return nil, fmt.Errorf("%s: not a pattern (want regexp or wildcard lines)", q)
		}
	}
	rep := &PatternReport{Corpus: cfg.Corpus, Docs: len(docs), Env: CaptureEnv(), Cycles: cfg.Cycles}
	o := NewOracle(docs)
	want := make([][]uint32, len(qs))
	for i, q := range qs {
		want[i] = o.Docs(q)
		rep.Rows = append(rep.Rows, &PatternRow{Query: q, Expansions: len(o.PatternTerms(q))})
	}
	o = nil
	logf("%s: %d docs, %d patterns", cfg.Corpus, rep.Docs, len(qs))
	res, err := runPaired(pairedSetup{CompareOptions: cfg.CompareOptions, Docs: docs, Logf: logf}, qs, want, &rep.Env)
	if err != nil {
		return nil, err
	}
	rep.Mismatches = res.Mismatches
	for i, r := range rep.Rows {
		r.Hits, r.PairedTimes = res.row(i)
	}
	return rep, nil
}

// Summary returns, over the timed rows of kind k (every row when k is ""),
// the median and geometric mean of the per-query ratios snii/Lucene and the
// row with the largest one (nil when none is timed).
func (r *PatternReport) Summary(k Kind) (med, geo float64, worst *PatternRow) {
	var ratios []float64
	for _, row := range r.Rows {
		if row.Ratio <= 0 || k != "" && row.Query.Kind != k {
			continue
		}
		ratios = append(ratios, row.Ratio)
		if worst == nil || row.Ratio > worst.Ratio {
			worst = row
		}
	}
	if len(ratios) == 0 {
		return 0, 0, nil
	}
	return median(ratios), geomean(ratios), worst
}

// Markdown renders the report: agreement with the oracle, per kind the
// median and geometric mean of the per-query ratios and the worst query,
// then one line per query.
func (r *PatternReport) Markdown(command string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Term patterns: snii vs Lucene 8.8.1 RegexpQuery / WildcardQuery, corpus %s (%d docs)\n\n", r.Corpus, r.Docs)
	fmt.Fprintf(&b, "Command: `%s` (in bench/). Commit %s (dirty: %v), %s, %s, %s, %d CPUs; load before/after the cycles %s / %s.\n\n",
		command, r.Env.Commit, r.Env.Dirty, r.Env.Go, r.Env.Java, r.Env.CPU, r.Env.NumCPU, r.Env.LoadBefore, r.Env.LoadAfter)
	fmt.Fprintf(&b, "Both engines expand every matching term (snii max expansions 0; Lucene's default constant-score rewrite, counted with TotalHitCountCollector, query cache off). ")
	fmt.Fprintf(&b, "Hit sets: %d differences from the oracle over %d patterns.\n\n", len(r.Mismatches), len(r.Rows))
	for _, m := range r.Mismatches {
		fmt.Fprintf(&b, "- MISMATCH %s %s: %s %v\n", m.Engine, m.Query, m.Details, m.Err)
	}
	if r.Cycles <= 0 {
		return b.String()
	}
	fmt.Fprintf(&b, "| kind | patterns | median snii/Lucene | geomean | worst |\n|---|---|---|---|---|\n")
	for _, k := range []Kind{KindRegexp, KindWildcard, ""} {
		med, geo, worst := r.Summary(k)
		if worst == nil {
			continue
		}
		name, n := string(k), 0
		if k == "" {
			name = "all"
		}
		for _, row := range r.Rows {
			if k == "" || row.Query.Kind == k {
				n++
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %.2f× | %.2f× | `%s` %.2f× |\n", name, n, med, geo, cell(worst.Query.Text), worst.Ratio)
	}
	fmt.Fprintf(&b, "\nTimes: median over %d interleaved cycles (order alternating) of the mean of a sample's calls; ratio: median of the per-cycle snii/Lucene ratios.\n\n", r.Cycles)
	fmt.Fprintf(&b, "| kind | pattern | class | terms | hits | snii µs | Lucene µs | snii/Lucene | CPU snii/Lucene |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, row := range r.Rows {
		fmt.Fprintf(&b, "| %s | `%s` | %s | %d | %d | %.1f | %.1f | %.2f | %.2f |\n", row.Query.Kind, cell(row.Query.Text), row.Query.Class, row.Expansions, row.Hits, row.SniiNs/1e3, row.LuceneNs/1e3, row.Ratio, row.CPURatio)
	}
	return b.String()
}

// cell escapes the pipes of a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
