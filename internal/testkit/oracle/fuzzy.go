package oracle

import "fmt"

// Fuzzy matches the documents holding any of the first MaxExpansions terms (in
// byte order, 0: all) within MaxEdits edits of Term: insertions, deletions and
// substitutions of one character (rune) and transpositions of two adjacent
// ones (the optimal string alignment distance).
type Fuzzy struct {
	Field, Term             string
	MaxEdits, MaxExpansions int
}

func (q Fuzzy) String() string {
	return fmt.Sprintf("fuzzy(%s:%q~%d,max=%d)", q.Field, q.Term, q.MaxEdits, q.MaxExpansions)
}

func (q Fuzzy) eval(c *Corpus) []uint32 {
	return c.scan(q.Field, []slotSet{c.set(c.Near(q.Field, q.Term, q.MaxEdits, q.MaxExpansions)...)})
}

// Near returns the first max terms of field (in byte order; max <= 0: all)
// within maxEdits of term (see Fuzzy), each compared in full.
func (c *Corpus) Near(field, term string, maxEdits, max int) []string {
	var out []string
	for _, ts := range c.Vocabulary(field) {
		if max > 0 && len(out) == max {
			break
		}
		if Distance(ts.Term, term) <= maxEdits {
			out = append(out, ts.Term)
		}
	}
	return out
}

// Distance is the optimal string alignment distance between a and b in
// runes, from the whole table.
func Distance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

// Fuzzy draws a fuzzy term: a vocabulary term, sometimes with one or two
// random edits, within 0..2 edits and a max expansions from the prefix's set.
func (g *Gen) Fuzzy() Query {
	if len(g.vocab) == 0 {
		return Fuzzy{g.field, "a", 1, 0}
	}
	t := []rune(g.vocab[g.rng.IntN(len(g.vocab))].Term)
	for range g.rng.IntN(3) {
		i := g.rng.IntN(len(t) + 1)
		switch c := rune('a' + g.rng.IntN(26)); g.rng.IntN(3) {
		case 0: // insert
			t = append(t[:i], append([]rune{c}, t[i:]...)...)
		case 1: // substitute
			if i < len(t) {
				t[i] = c
			}
		default: // transpose
			if i+1 < len(t) {
				t[i], t[i+1] = t[i+1], t[i]
			}
		}
	}
	return Fuzzy{g.field, string(t), g.rng.IntN(3), maxExps[g.rng.IntN(len(maxExps))]}
}
