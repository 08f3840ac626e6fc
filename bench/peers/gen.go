package peers

import (
	"encoding/csv"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// hitIndex counts hits quickly for query generation: the oracle's token
// sequences plus each term's doc list. The harness itself never uses it
// (it checks with the plain scan of Oracle.Docs).
type hitIndex struct {
	o    *Oracle
	ids  map[string]int32
	docs [][]int32 // term id -> ascending doc ids
}

func newHitIndex(o *Oracle) *hitIndex {
	h := &hitIndex{o: o, ids: make(map[string]int32, len(o.terms)), docs: make([][]int32, len(o.terms))}
	for id, t := range o.terms {
		h.ids[t] = int32(id)
	}
	for d, seq := range o.docs {
		for _, id := range seq {
			if id < 0 {
				continue
			}
			l := h.docs[id]
			if len(l) == 0 || l[len(l)-1] != int32(d) {
				h.docs[id] = append(l, int32(d))
			}
		}
	}
	return h
}

func (h *hitIndex) df(t string) int {
	id, ok := h.ids[t]
	if !ok {
		return 0
	}
	return len(h.docs[id])
}

// count returns the number of docs matching q.
func (h *hitIndex) count(q *Query) int {
	// Candidate docs: those of the rarest exact term; all docs otherwise.
	var cand []int32
	best := -1
	for i, t := range q.Terms {
		if i == len(q.Terms)-1 && (q.Kind == KindPrefix || q.Kind == KindPhrasePrefix) {
			continue
		}
		id, ok := h.ids[t]
		if !ok {
			return 0
		}
		if best < 0 || len(h.docs[id]) < best {
			best, cand = len(h.docs[id]), h.docs[id]
		}
	}
	slots := make([]slot, len(q.Terms))
	for i, t := range q.Terms {
		if i == len(q.Terms)-1 && (q.Kind == KindPrefix || q.Kind == KindPhrasePrefix) {
			slots[i] = h.o.prefixed(t)
		} else {
			slots[i] = h.o.exact(t)
		}
	}
	n := 0
	if best < 0 {
		for _, seq := range h.o.docs {
			if matchAt(seq, slots) {
				n++
			}
		}
		return n
	}
	for _, d := range cand {
		if matchAt(h.o.docs[d], slots) {
			n++
		}
	}
	return n
}

// templatePhrases reads loghub template files and returns, per file, the
// token runs of the constant parts (the text between <*> variables).
func templatePhrases(dir string) (map[string][][]string, []string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_templates.csv"))
	if err != nil {
		return nil, nil, err
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("no *_templates.csv in %s", dir)
	}
	sort.Strings(files)
	out := map[string][][]string{}
	var names []string
	for _, f := range files {
		name := strings.SplitN(filepath.Base(f), "_", 2)[0]
		fh, err := os.Open(f)
		if err != nil {
			return nil, nil, err
		}
		r := csv.NewReader(fh)
		r.LazyQuotes = true
		r.FieldsPerRecord = -1
		for line := 0; ; line++ {
			rec, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				fh.Close()
				return nil, nil, fmt.Errorf("%s: %w", f, err)
			}
			if line == 0 || len(rec) < 2 {
				continue
			}
			tmpl := strings.Join(rec[1:], ",")
			for _, part := range strings.Split(tmpl, "<*>") {
				var run []string
				for _, t := range Tokenize(part) {
					if t != "" {
						run = append(run, t)
					}
				}
				if len(run) > 0 {
					out[name] = append(out[name], run)
				}
			}
		}
		fh.Close()
		names = append(names, name)
	}
	return out, names, nil
}

// GenQuery is a generated query line.
type GenQuery struct {
	Kind  Kind
	Class string
	Text  string
	Hits  int
}

// genState collects distinct queries and their hit counts.
type genState struct {
	h    *hitIndex
	rng  *rand.Rand
	seen map[string]bool
	out  []GenQuery
}

func (g *genState) hits(kind Kind, terms []string) int {
	return g.h.count(&Query{Kind: kind, Terms: terms})
}

func (g *genState) add(kind Kind, class string, terms []string, hits int) bool {
	text := strings.Join(terms, " ")
	key := string(kind) + "\t" + text
	if g.seen[key] {
		return false
	}
	g.seen[key] = true
	g.out = append(g.out, GenQuery{Kind: kind, Class: class, Text: text, Hits: hits})
	return true
}

// pick takes up to n candidates (seeded shuffle) that satisfy ok.
func (g *genState) pick(kind Kind, class string, cands [][]string, n int, ok func(hits int) bool) {
	idx := g.rng.Perm(len(cands))
	taken := 0
	for _, i := range idx {
		if taken == n {
			return
		}
		c := cands[i]
		key := string(kind) + "\t" + strings.Join(c, " ")
		if g.seen[key] {
			continue
		}
		h := g.hits(kind, c)
		if ok(h) && g.add(kind, class, c, h) {
			taken++
		}
	}
}

// subPhrases returns the 2..6-term windows of each run, the longest first
// per start (one per length).
func subPhrases(runs [][]string, minLen, maxLen int) [][]string {
	var out [][]string
	seen := map[string]bool{}
	for _, r := range runs {
		for l := minLen; l <= maxLen; l++ {
			for s := 0; s+l <= len(r); s++ {
				p := r[s : s+l]
				k := strings.Join(p, " ")
				if !seen[k] {
					seen[k] = true
					out = append(out, p)
				}
			}
		}
	}
	return out
}

func isWord(t string) bool {
	if len(t) < 2 || len(t) > 24 {
		return false
	}
	for _, r := range t {
		if r >= '0' && r <= '9' {
			return false
		}
	}
	return true
}

func allWords(p []string) bool {
	for _, t := range p {
		if !isWord(t) {
			return false
		}
	}
	return true
}

// GenerateQueries builds a deterministic query set for a corpus: phrases of
// 2–6 terms (rare, mid, common, zero hits), rare and common terms, prefixes
// and phrase prefixes. Service logs draw from the constant parts of the
// loghub templates; agent logs from agent-log vocabulary (a curated list
// plus phrases sampled from the corpus with a fixed seed) and use loghub
// phrases for zero hits.
func GenerateQueries(corpus string, docs []string, templatesDir string, curated [][]string) ([]GenQuery, error) {
	runs, names, err := templatePhrases(templatesDir)
	if err != nil {
		return nil, err
	}
	o := NewOracle(docs)
	g := &genState{h: newHitIndex(o), rng: rand.New(rand.NewPCG(20261130, 8)), seen: map[string]bool{}}
	var all [][]string
	for _, n := range names {
		all = append(all, runs[n]...)
	}
	tmplPhrases := subPhrases(all, 2, 6)
	var wordPhrases [][]string
	for _, p := range tmplPhrases {
		if allWords(p) {
			wordPhrases = append(wordPhrases, p)
		}
	}

	var phraseCands [][]string
	switch corpus {
	case CorpusService:
		phraseCands = wordPhrases
	default:
		phraseCands = append(phraseCands, curated...)
		// Phrases sampled from the documents.
		for k := 0; k < 4000; k++ {
			d := g.rng.IntN(len(o.docs))
			terms := o.DocTerms(d)
			if len(terms) < 2 {
				continue
			}
			l := 2 + g.rng.IntN(5)
			if l > len(terms) {
				l = len(terms)
			}
			s := g.rng.IntN(len(terms) - l + 1)
			p := terms[s : s+l]
			if allWords(p) {
				phraseCands = append(phraseCands, p)
			}
		}
	}
	// Curated phrases first (those that hit), then buckets by hit count.
	for _, c := range curated {
		if len(g.out) >= 6 {
			break
		}
		if h := g.hits(KindPhrase, c); h > 0 {
			g.add(KindPhrase, class(h), c, h)
		}
	}
	g.pick(KindPhrase, "rare", phraseCands, 8, func(h int) bool { return h >= 1 && h <= 50 })
	g.pick(KindPhrase, "mid", phraseCands, 8, func(h int) bool { return h > 50 && h <= 2000 })
	g.pick(KindPhrase, "common", phraseCands, 6, func(h int) bool { return h > 2000 })
	// Long phrases (5–6 terms) with hits.
	var long [][]string
	for _, p := range phraseCands {
		if len(p) >= 5 {
			long = append(long, p)
		}
	}
	g.pick(KindPhrase, "long", long, 4, func(h int) bool { return h > 0 })
	// Zero hits: every term present but never adjacent in this order, and a
	// phrase from another system's templates.
	var present [][]string
	for _, p := range wordPhrases {
		ok := true
		for _, t := range p {
			if g.h.df(t) == 0 {
				ok = false
				break
			}
		}
		if ok {
			present = append(present, p)
		}
	}
	g.pick(KindPhrase, "zero", present, 5, func(h int) bool { return h == 0 })
	g.pick(KindPhrase, "zero-absent", wordPhrases, 2, func(h int) bool { return h == 0 })

	// Terms from the template/phrase vocabulary: rare, mid, common.
	var words [][]string
	seenW := map[string]bool{}
	for _, p := range append(append([][]string{}, phraseCands...), wordPhrases...) {
		for _, t := range p {
			if isWord(t) && !seenW[t] {
				seenW[t] = true
				words = append(words, []string{t})
			}
		}
	}
	n := len(docs)
	g.pick(KindTerm, "rare", words, 4, func(h int) bool { return h >= 1 && h <= 20 })
	g.pick(KindTerm, "mid", words, 3, func(h int) bool { return h > 20 && h <= n/50 })
	g.pick(KindTerm, "common", words, 4, func(h int) bool { return h > n/20 })

	// Prefixes: 3–5 characters of template/agent words, few to many expansions.
	var prefixes [][]string
	seenP := map[string]bool{}
	for _, w := range words {
		for l := 3; l <= 5; l++ {
			if len(w[0]) > l {
				p := w[0][:l]
				if !seenP[p] && isWord(p) {
					seenP[p] = true
					prefixes = append(prefixes, []string{p})
				}
			}
		}
	}
	g.pick(KindPrefix, "few", prefixes, 3, func(h int) bool { return h >= 1 && h <= n/100 })
	g.pick(KindPrefix, "many", prefixes, 3, func(h int) bool { return h > n/20 })

	// Phrase prefixes: a phrase with hits, its last term cut to 2–4 characters.
	var pp [][]string
	for _, p := range phraseCands {
		if len(p) < 2 || len(p) > 4 {
			continue
		}
		last := p[len(p)-1]
		for l := 2; l <= 4 && l < len(last); l++ {
			c := append(append([]string{}, p[:len(p)-1]...), last[:l])
			pp = append(pp, c)
		}
	}
	g.pick(KindPhrasePrefix, "hits", pp, 6, func(h int) bool { return h > 0 })
	g.pick(KindPhrasePrefix, "zero", pp, 1, func(h int) bool { return h == 0 })
	return g.out, nil
}

func class(h int) string {
	switch {
	case h == 0:
		return "zero"
	case h <= 50:
		return "rare"
	case h <= 2000:
		return "mid"
	}
	return "common"
}

// WriteQueryFile writes generated queries in the query file format.
func WriteQueryFile(w io.Writer, header string, qs []GenQuery) error {
	for _, l := range strings.Split(strings.TrimSpace(header), "\n") {
		if _, err := fmt.Fprintf(w, "# %s\n", l); err != nil {
			return err
		}
	}
	for _, q := range qs {
		if _, err := fmt.Fprintf(w, "%s\t%s\t%s\n", q.Kind, q.Class, q.Text); err != nil {
			return err
		}
	}
	return nil
}
