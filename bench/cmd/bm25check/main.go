// Command bm25check compares snii's BM25 top-k (reader.Segment.Top) with
// Lucene 8.8.1's (IndexSearcher.search with the default BM25Similarity, an
// index with norms) on one corpus: the term and phrase queries of
// queries/<corpus>.txt plus 2- and 3-term disjunctions of their terms and
// the sloppy variants of their phrases (-slops).
// For each query the top-k doc ids must be equal, in order (ties by doc id),
// and the scores equal within 1e-5 relative. With -cycles N it also times
// both in N interleaved cycles (the same query back to back on each engine,
// the order alternating per cycle) and reports per kind the geometric mean
// over queries of snii's median time over Lucene's.
//
//	go run ./cmd/bm25check -corpus agent
//	go run ./cmd/bm25check -corpus service -cycles 10
//	go run ./cmd/bm25check -corpus service -cycles 6 -match '^term (error|www)$'
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/snii-go/snii/bench/peers"
	"github.com/snii-go/snii/reader"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bm25check:", err)
		os.Exit(1)
	}
}

func run() error {
	corpus := flag.String("corpus", peers.CorpusAgent, "corpus: agent or service")
	corpora := flag.String("corpora", "", "shared corpora folder (default: found by walking up)")
	k := flag.Int("k", 10, "top k")
	ors := flag.Int("ors", 20, "disjunctions of 2 and of 3 terms each")
	cycles := flag.Int("cycles", 0, "timing cycles (0: no timing)")
	sample := flag.Duration("min-sample", 5*time.Millisecond, "a timing sample repeats a query about this long")
	jars := flag.String("lucene-jars", "/usr/share/java", "folder of the Lucene jars")
	csvPath := flag.String("csv", "", "with -cycles: write every timing sample to this CSV file")
	slopsFlag := flag.String("slops", "1,2,3", "also rank the sloppy phrases the peers sloppy command derives from the phrases, at these slops (empty: none)")
	match := flag.String("match", "", "keep only the queries whose label this regexp matches: \"<kind> <text>\" (\"term error\"), a sloppy phrase's \"sloppy \\\"<terms>\\\"~<slop>\"")
	worst := flag.Int("worst", 3, "with -cycles: list this many worst queries (snii/Lucene) of each kind")
	flag.Parse()
	var keep *regexp.Regexp
	if *match != "" {
		var err error
		if keep, err = regexp.Compile(*match); err != nil {
			return fmt.Errorf("-match %q: %v (want a Go regexp)", *match, err)
		}
	}
	var slops []int
	if *slopsFlag != "" {
		for _, f := range strings.Split(*slopsFlag, ",") {
			n, err := strconv.Atoi(f)
			if err != nil || n < 1 {
				return fmt.Errorf("-slops %q: want slops >= 1", *slopsFlag)
			}
			slops = append(slops, n)
		}
	}

	root := *corpora
	if root == "" {
		root = peers.FindCorpora()
	}
	if root == "" {
		return fmt.Errorf("no shared/corpora found (use -corpora)")
	}
	c, err := peers.LoadCorpus(root, *corpus)
	if err != nil {
		return err
	}
	all, err := peers.LoadQueries(filepath.Join("queries", *corpus+".txt"))
	if err != nil {
		return err
	}
	qs := rankedQueries(all, *ors, slops)
	if keep != nil {
		qs = slices.DeleteFunc(qs, func(q *peers.Query) bool { return !keep.MatchString(label(q)) })
		if len(qs) == 0 {
			return fmt.Errorf("-match %q keeps no query", *match)
		}
		for i, q := range qs {
			q.ID = i
		}
	}
	work, err := os.MkdirTemp("", "bm25check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	docs := filepath.Join(work, "docs.bin")
	if err := peers.WriteDocsFile(docs, c.Docs); err != nil {
		return err
	}
	segPath := filepath.Join(work, "snii.snii")
	if _, err := peers.BuildSnii("snii", docs, segPath, -1, 0); err != nil {
		return err
	}
	lu, err := peers.SetupLucene(filepath.Join("lucene", "LuceneBench.java"), *jars, work)
	if err != nil {
		return err
	}
	ldir := filepath.Join(work, "lucene")
	if err := lu.BuildNorms(docs, ldir); err != nil {
		return err
	}
	seg, err := reader.Open(segPath, reader.Options{})
	if err != nil {
		return err
	}
	defer seg.Close()
	lt, err := lu.ServeTop(ldir, work, qs)
	if err != nil {
		return err
	}
	defer lt.Close()

	fmt.Printf("# BM25 top-%d: snii vs %s, corpus %s (%d docs)\n\n", *k, "Lucene 8.8.1", *corpus, len(c.Docs))
	perKind := map[peers.Kind][3]int{} // queries, equal, with hits
	var maxRel float64
	var bad []string
	rqs := make([]reader.Query, len(qs))
	for i, q := range qs {
		rqs[i] = peers.SniiTopQuery(q)
		got, err := seg.Top(context.Background(), rqs[i], *k, nil)
		if err != nil {
			return fmt.Errorf("snii %s: %w", q, err)
		}
		want, err := lt.Top(i, *k)
		if err != nil {
			return err
		}
		okq := len(got) == len(want)
		for r := 0; okq && r < len(got); r++ {
			rel := math.Abs(float64(got[r].Score)-float64(want[r].Score)) / math.Max(math.Abs(float64(want[r].Score)), 1e-30)
			maxRel = max(maxRel, rel)
			okq = got[r].Doc == want[r].Doc && rel <= 1e-5
		}
		n := perKind[q.Kind]
		n[0]++
		if len(want) > 0 {
			n[2]++
		}
		if okq {
			n[1]++
		} else {
			bad = append(bad, fmt.Sprintf("%s: snii %v, lucene %v", q, got, want))
		}
		perKind[q.Kind] = n
	}
	fmt.Println("| kind | queries | with hits | top-k equal (ids in order, scores within 1e-5) |")
	fmt.Println("|---|---|---|---|")
	kinds := []peers.Kind{peers.KindTerm, peers.KindPhrase, peers.KindOr, peers.KindSloppy}
	for _, kd := range kinds {
		n := perKind[kd]
		fmt.Printf("| %s | %d | %d | %d |\n", kd, n[0], n[2], n[1])
	}
	fmt.Printf("\nlargest relative score difference: %.3g\n", maxRel)
	for i, b := range bad {
		if i == 10 {
			fmt.Printf("... %d more\n", len(bad)-10)
			break
		}
		fmt.Println("MISMATCH", b)
	}
	if *cycles > 0 {
		if err := timeBoth(seg, lt, qs, rqs, *k, *cycles, *sample, kinds, *csvPath, *worst); err != nil {
			return err
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%d of %d queries disagree", len(bad), len(qs))
	}
	return nil
}

// rankedQueries keeps the term and phrase queries and adds n disjunctions
// of 2 terms and n of 3, drawn with a fixed seed from the queries' terms,
// and the sloppy variants of the phrases at each of slops.
func rankedQueries(all []*peers.Query, n int, slops []int) []*peers.Query {
	var out []*peers.Query
	var pool []string
	for _, q := range all {
		switch q.Kind {
		case peers.KindTerm, peers.KindPhrase:
			out = append(out, q)
			pool = append(pool, q.Terms...)
		}
	}
	slices.Sort(pool)
	pool = slices.Compact(pool)
	rng := rand.New(rand.NewPCG(14, 1))
	for _, size := range []int{2, 3} {
		for i := 0; i < n; i++ {
			var terms []string
			for len(terms) < size {
				t := pool[rng.IntN(len(pool))]
				if !slices.Contains(terms, t) {
					terms = append(terms, t)
				}
			}
			out = append(out, &peers.Query{Kind: peers.KindOr, Class: "or", Text: strings.Join(terms, " OR "), Terms: terms})
		}
	}
	if len(slops) > 0 {
		sq, _ := peers.SloppyQueries(all, slops)
		out = append(out, sq...)
	}
	for i, q := range out {
		q.ID = i
	}
	return out
}

// timeBoth times every query on both engines in interleaved cycles.
func timeBoth(seg *reader.Segment, lt *peers.LuceneTop, qs []*peers.Query, rqs []reader.Query, k, cycles int, sample time.Duration, kinds []peers.Kind, csvPath string, worst int) error {
	reps := make([]int, len(qs))
	for i := range qs { // calibrate on snii, warm both
		r := 1
		for {
			t, err := peers.TimeSniiTop(seg, rqs[i], k, r)
			if err != nil {
				return err
			}
			if t.Wall >= sample || r >= 1<<16 {
				break
			}
			r *= 2
		}
		reps[i] = r
		if _, err := lt.Time(i, k, 4*r); err != nil {
			return err
		}
	}
	sn := make([][]float64, len(qs))
	lu := make([][]float64, len(qs))
	for c := 0; c < cycles; c++ {
		for i := range qs {
			for j := 0; j < 2; j++ {
				if (c+j)%2 == 0 {
					t, err := peers.TimeSniiTop(seg, rqs[i], k, reps[i])
					if err != nil {
						return err
					}
					sn[i] = append(sn[i], float64(t.Wall)/float64(reps[i]))
				} else {
					t, err := lt.Time(i, k, reps[i])
					if err != nil {
						return err
					}
					lu[i] = append(lu[i], float64(t.Wall)/float64(reps[i]))
				}
			}
		}
	}
	if csvPath != "" {
		var b strings.Builder
		b.WriteString("query,kind,text,engine,cycle,reps,ns_per_call\n")
		for i, q := range qs {
			for c := range sn[i] {
				fmt.Fprintf(&b, "%d,%s,%q,snii,%d,%d,%.0f\n", i, q.Kind, q.Text, c, reps[i], sn[i][c])
				fmt.Fprintf(&b, "%d,%s,%q,lucene,%d,%d,%.0f\n", i, q.Kind, q.Text, c, reps[i], lu[i][c])
			}
		}
		if err := os.WriteFile(csvPath, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("\nlatency, %d interleaved cycles (per query: median snii / median Lucene; per kind: geometric mean)\n\n", cycles)
	fmt.Println("| kind | queries | snii/Lucene (geomean) | median of ratios | snii median µs (median over queries) | Lucene median µs |")
	fmt.Println("|---|---|---|---|---|---|")
	type ratio struct {
		q *peers.Query
		r float64
	}
	var worstOf [][]ratio
	for _, kd := range kinds {
		var logs, s, l []float64
		var rs []ratio
		for i, q := range qs {
			if q.Kind != kd {
				continue
			}
			ms, ml := median(sn[i]), median(lu[i])
			logs = append(logs, math.Log(ms/ml))
			s, l = append(s, ms), append(l, ml)
			rs = append(rs, ratio{q, ms / ml})
		}
		if len(logs) == 0 {
			continue
		}
		var sum float64
		for _, v := range logs {
			sum += v
		}
		rv := make([]float64, len(rs))
		for i, r := range rs {
			rv[i] = r.r
		}
		fmt.Printf("| %s | %d | %.2f× | %.2f× | %.1f | %.1f |\n", kd, len(logs), math.Exp(sum/float64(len(logs))), median(rv), median(s)/1e3, median(l)/1e3)
		slices.SortStableFunc(rs, func(a, b ratio) int { return cmp.Compare(b.r, a.r) })
		worstOf = append(worstOf, rs[:min(worst, len(rs))])
	}
	if worst > 0 {
		fmt.Printf("\nworst %d per kind (snii/Lucene)\n\n", worst)
		for _, rs := range worstOf {
			for _, r := range rs {
				fmt.Printf("- %.2f× `%s`\n", r.r, label(r.q))
			}
		}
	}
	return nil
}

// label names a query for -match and the worst queries: its kind and text,
// a sloppy phrase's terms (its variant's) and slop.
func label(q *peers.Query) string {
	if q.Kind == peers.KindSloppy {
		return fmt.Sprintf("%s \"%s\"~%d", q.Kind, strings.Join(q.Terms, " "), q.Slop)
	}
	return fmt.Sprintf("%s %s", q.Kind, q.Text)
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	if len(s) == 0 {
		return math.NaN()
	}
	return s[len(s)/2]
}
