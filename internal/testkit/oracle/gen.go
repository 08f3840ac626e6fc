package oracle

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"
)

// GenOptions shapes a generated corpus.
type GenOptions struct {
	Docs  int // number of documents (default 2000)
	Vocab int // vocabulary size of the text field (default 5000)
	// Zipf exponent of the word distribution (> 1, default 1.15).
	Zipf float64
	// MaxValues is the largest number of values of the multi-value "text" field
	// (default 3).
	MaxValues int
	// MaxTokens is the largest number of tokens in one value (default 40).
	MaxTokens int
}

// Generate returns a deterministic synthetic log-like corpus: a multi-value
// "text" field with a Zipf-distributed vocabulary (mixed case, digits, non-ASCII
// letters, repeated words, occasional invalid UTF-8 and over-long tokens) and a
// single-value "host" field with a small vocabulary. Some documents lack "text".
func Generate(seed uint64, o GenOptions) []Doc {
	if o.Docs <= 0 {
		o.Docs = 2000
	}
	if o.Vocab <= 0 {
		o.Vocab = 5000
	}
	if o.Zipf <= 1 {
		o.Zipf = 1.15
	}
	if o.MaxValues <= 0 {
		o.MaxValues = 3
	}
	if o.MaxTokens <= 0 {
		o.MaxTokens = 40
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	words := genWords(rng, o.Vocab)
	zipf := rand.NewZipf(rng, o.Zipf, 1, uint64(o.Vocab-1))
	seps := []string{" ", " ", " ", ", ", ": ", "/", "\t", " — ", "=", ".", "\n", "\xff", "(", ") "}
	hosts := []string{"web-01", "web-02", "db-primary", "db-replica", "cache", "Édge-1", "api", "worker-7"}
	docs := make([]Doc, 0, o.Docs)
	for d := 0; d < o.Docs; d++ {
		var doc Doc
		doc = append(doc, Field{Name: "host", Values: []string{hosts[rng.IntN(len(hosts))]}})
		if rng.IntN(20) == 0 { // some documents lack the text field
			docs = append(docs, doc)
			continue
		}
		nv := 1 + rng.IntN(o.MaxValues)
		vals := make([]string, nv)
		for v := range vals {
			var b strings.Builder
			n := rng.IntN(o.MaxTokens + 1)
			for i := 0; i < n; i++ {
				if i > 0 {
					b.WriteString(seps[rng.IntN(len(seps))])
				}
				switch r := rng.IntN(200); {
				case r == 0: // over-long token: skipped but takes a position
					b.WriteString(strings.Repeat("x", MaxTokenBytes+1+rng.IntN(10)))
				case r == 1: // exactly the longest kept token
					b.WriteString(strings.Repeat("y", MaxTokenBytes))
				case r < 6: // repeated words ("a a b")
					w := words[zipf.Uint64()]
					b.WriteString(w + " " + w)
				case r < 12: // a number
					fmt.Fprintf(&b, "%d", rng.IntN(100000))
				case r < 40: // a recurring template phrase
					b.WriteString(templates[rng.IntN(len(templates))])
				default:
					w := words[zipf.Uint64()]
					if rng.IntN(10) == 0 {
						w = strings.ToUpper(w)
					}
					b.WriteString(w)
				}
			}
			vals[v] = b.String()
		}
		doc = append(doc, Field{Name: "text", Values: vals})
		docs = append(docs, doc)
	}
	return docs
}

var templates = []string{
	"connection reset by peer",
	"failed password for invalid user",
	"no such file or directory",
	"Traceback (most recent call last)",
	"the the the",
	"na na na na batman",
	"user root logged in",
	"İstanbul ÇAĞ straße ΣΟΦΊΑ",
}

func genWords(rng *rand.Rand, n int) []string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	extra := []string{"é", "ü", "ß", "ω", "ж", "日", "本", "ı", "ǅ", "٣"}
	seen := map[string]bool{}
	out := make([]string, 0, n)
	for len(out) < n {
		var b strings.Builder
		l := 1 + rng.IntN(9)
		for i := 0; i < l; i++ {
			switch r := rng.IntN(40); {
			case r == 0:
				b.WriteString(extra[rng.IntN(len(extra))])
			case r < 3:
				b.WriteByte(byte('0' + rng.IntN(10)))
			default:
				b.WriteByte(letters[rng.IntN(len(letters))])
			}
		}
		w := b.String()
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// Gen draws random queries over one field of a corpus, deterministic per seed.
type Gen struct {
	c     *Corpus
	field string
	fd    *fieldData
	rng   *rand.Rand
	vocab []TermStat // byte order
	byDF  []TermStat // descending df
}

// NewGen returns a query generator over field. The corpus must not change while
// the generator is used.
func NewGen(c *Corpus, field string, seed uint64) *Gen {
	g := &Gen{c: c, field: field, fd: c.fields[field], rng: rand.New(rand.NewPCG(seed, 7))}
	g.vocab = c.Vocabulary(field)
	g.byDF = slices.Clone(g.vocab)
	slices.SortStableFunc(g.byDF, func(a, b TermStat) int { return b.DF - a.DF })
	return g
}

// Term draws a term query: a common term, a rare one, or an absent one.
func (g *Gen) Term() Query {
	if len(g.vocab) == 0 {
		return Term{g.field, "absent"}
	}
	switch g.rng.IntN(5) {
	case 0, 1: // common: among the 50 most frequent
		return Term{g.field, g.byDF[g.rng.IntN(min(50, len(g.byDF)))].Term}
	case 2, 3: // rare: among the least frequent half
		h := len(g.byDF) / 2
		return Term{g.field, g.byDF[h+g.rng.IntN(len(g.byDF)-h)].Term}
	default:
		if g.rng.IntN(4) == 0 {
			return Term{g.field, "zzzz-absent-term"}
		}
		return Term{g.field, g.vocab[g.rng.IntN(len(g.vocab))].Term}
	}
}

// take returns n adjacent terms found in some document (fewer if none is long
// enough after a few tries); nil when the field is empty.
func (g *Gen) take(n int) []string {
	if g.fd == nil || len(g.fd.docs) == 0 {
		return nil
	}
	for try := 0; try < 50; try++ {
		seq := g.fd.docs[g.rng.IntN(len(g.fd.docs))].seq
		if len(seq) < n {
			continue
		}
		p := g.rng.IntN(len(seq) - n + 1)
		ok := true
		for _, t := range seq[p : p+n] {
			ok = ok && t >= 0
		}
		if !ok {
			continue
		}
		out := make([]string, n)
		for i, t := range seq[p : p+n] {
			out[i] = g.c.terms[t]
		}
		return out
	}
	if n > 1 {
		return g.take(n - 1)
	}
	return nil
}

// Phrase draws a 2–6 term phrase taken from a document (so it usually hits).
func (g *Gen) Phrase() Query {
	return Phrase{g.field, g.take(2 + g.rng.IntN(5))}
}

// Reversed draws a phrase taken from a document, reversed (usually zero hits).
func (g *Gen) Reversed() Query {
	t := g.take(2 + g.rng.IntN(4))
	slices.Reverse(t)
	return Phrase{g.field, t}
}

// Repeated draws a phrase with a repeated term ("a a b", "a b a").
func (g *Gen) Repeated() Query {
	if g.fd != nil {
		for try := 0; try < 100; try++ {
			seq := g.fd.docs[g.rng.IntN(len(g.fd.docs))].seq
			for p := 0; p+1 < len(seq); p++ {
				for k := 1; k <= 2 && p+k < len(seq); k++ {
					if seq[p] >= 0 && seq[p] == seq[p+k] {
						end := min(len(seq), p+k+1+g.rng.IntN(2))
						var out []string
						for _, t := range seq[p:end] {
							if t < 0 {
								break
							}
							out = append(out, g.c.terms[t])
						}
						if len(out) >= k+1 {
							return Phrase{g.field, out}
						}
					}
				}
			}
		}
	}
	t := g.take(2)
	if len(t) == 0 {
		return Phrase{g.field, []string{"a", "a"}}
	}
	return Phrase{g.field, []string{t[0], t[0], t[len(t)-1]}}
}

// CrossValue draws a phrase made of the last terms of one value and the first
// terms of the next value of the same document (must not match there).
func (g *Gen) CrossValue() Query {
	if g.fd != nil {
		for try := 0; try < 200; try++ {
			seq := g.fd.docs[g.rng.IntN(len(g.fd.docs))].seq
			// find a run of ValueGap or more empty positions between terms
			for p := 0; p < len(seq); p++ {
				if seq[p] >= 0 {
					continue
				}
				q := p
				for q < len(seq) && seq[q] < 0 {
					q++
				}
				if q-p >= ValueGap && p > 0 && q < len(seq) && seq[p-1] >= 0 {
					out := []string{g.c.terms[seq[p-1]], g.c.terms[seq[q]]}
					if p >= 2 && seq[p-2] >= 0 && g.rng.IntN(2) == 0 {
						out = append([]string{g.c.terms[seq[p-2]]}, out...)
					}
					return Phrase{g.field, out}
				}
				p = q
			}
		}
	}
	return g.Phrase()
}

func (g *Gen) prefixOf(t string) string {
	n := utf8.RuneCountInString(t)
	if n <= 1 {
		return t
	}
	k := 1 + g.rng.IntN(n-1)
	i := 0
	for j := range t {
		if k == 0 {
			return t[:j]
		}
		k--
		i = j
	}
	return t[:i]
}

var maxExps = []int{0, 1, 2, 3, 10, 50}

// PhrasePrefix draws a phrase from a document with its last term cut to a prefix
// and a random expansion limit.
func (g *Gen) PhrasePrefix() Query {
	t := g.take(2 + g.rng.IntN(4))
	if len(t) == 0 {
		return PhrasePrefix{g.field, []string{"a"}, 1}
	}
	t[len(t)-1] = g.prefixOf(t[len(t)-1])
	return PhrasePrefix{g.field, t, maxExps[g.rng.IntN(len(maxExps))]}
}

// Prefix draws a prefix query from a random term with a random expansion limit.
func (g *Gen) Prefix() Query {
	if len(g.vocab) == 0 {
		return Prefix{g.field, "a", 0}
	}
	t := g.vocab[g.rng.IntN(len(g.vocab))].Term
	return Prefix{g.field, g.prefixOf(t), maxExps[g.rng.IntN(len(maxExps))]}
}

func (g *Gen) leaf() Query {
	switch g.rng.IntN(5) {
	case 0, 1:
		return g.Term()
	case 2:
		return g.Phrase()
	case 3:
		return g.Prefix()
	default:
		return g.PhrasePrefix()
	}
}

// Bool draws an And or Or of 2–3 queries (sometimes nested).
func (g *Gen) Bool() Query {
	n := 2 + g.rng.IntN(2)
	qs := make([]Query, n)
	for i := range qs {
		if g.rng.IntN(6) == 0 {
			qs[i] = Or{g.leaf(), g.leaf()}
		} else {
			qs[i] = g.leaf()
		}
	}
	if g.rng.IntN(2) == 0 {
		return And(qs)
	}
	return Or(qs)
}
