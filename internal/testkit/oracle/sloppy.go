package oracle

import (
	"fmt"
	"slices"
	"strings"
)

// SloppyPhrase matches the documents where the terms can be placed at
// positions p0..pn-1 (a repeated term on distinct positions) with
// max(pi-i) - min(pi-i) <= Slop. The oracle searches every placement.
type SloppyPhrase struct {
	Field string
	Terms []string
	Slop  int
}

// AndNot matches the documents Include matches and Exclude does not.
type AndNot struct{ Include, Exclude Query }

func (q SloppyPhrase) String() string {
	return fmt.Sprintf("phrase(%s:%q~%d)", q.Field, strings.Join(q.Terms, " "), q.Slop)
}

func (q AndNot) String() string {
	return "andnot(" + q.Include.String() + ", " + q.Exclude.String() + ")"
}

func (q AndNot) eval(c *Corpus) []uint32 {
	ex := q.Exclude.eval(c)
	var out []uint32
	for _, d := range q.Include.eval(c) {
		if _, ok := slices.BinarySearch(ex, d); !ok {
			out = append(out, d)
		}
	}
	return out
}

func (q SloppyPhrase) eval(c *Corpus) []uint32 {
	fd := c.fields[q.Field]
	if fd == nil || len(q.Terms) == 0 || q.Slop < 0 {
		return nil
	}
	ids := make([]int32, len(q.Terms))
	for i, t := range q.Terms {
		id, ok := c.ids[t]
		if !ok {
			return nil
		}
		ids[i] = id
	}
	var out []uint32
	pos := make([][]int, len(ids))
	for di := range fd.docs {
		d := &fd.docs[di]
		ok := true
		for i, id := range ids {
			pos[i] = pos[i][:0]
			for p, t := range d.seq {
				if t == id {
					pos[i] = append(pos[i], p)
				}
			}
			ok = ok && len(pos[i]) > 0
		}
		if ok && SloppyFits(pos, q.Slop) {
			out = append(out, d.doc)
		}
	}
	return out
}

// SloppyFits reports whether terms with the ascending document positions
// pos[i] (term i of the phrase) can be placed within slop: it tries every
// window start s (some pi-i), and each term i must take a position in
// [s+i, s+i+slop] not taken by an earlier term (backtracking). A repeated
// term has the same positions at each of its phrase offsets.
func SloppyFits(pos [][]int, slop int) bool {
	used := map[int]bool{}
	var place func(i, s int) bool
	place = func(i, s int) bool {
		if i == len(pos) {
			return true
		}
		for _, p := range pos[i] {
			if p < s+i || p > s+i+slop || used[p] {
				continue
			}
			used[p] = true
			ok := place(i+1, s)
			delete(used, p)
			if ok {
				return true
			}
		}
		return false
	}
	for i := range pos {
		for _, p := range pos[i] {
			if place(0, p-i) {
				return true
			}
		}
	}
	return false
}

// Sloppy draws a sloppy phrase of slop 0–3 whose 2–4 terms come from one
// document at small gaps, sometimes shuffled or with a repeated term, so that
// hits at each slop, misses and reorderings all occur.
func (g *Gen) Sloppy() Query {
	slop := g.rng.IntN(4)
	if g.fd == nil || len(g.fd.docs) == 0 {
		return SloppyPhrase{g.field, []string{"a", "b"}, slop}
	}
	n := 2 + g.rng.IntN(3)
	for try := 0; try < 50; try++ {
		seq := g.fd.docs[g.rng.IntN(len(g.fd.docs))].seq
		p := g.rng.IntN(len(seq) + 1)
		var out []string
		for p < len(seq) && len(out) < n {
			if seq[p] >= 0 {
				out = append(out, g.c.terms[seq[p]])
			}
			p += 1 + g.rng.IntN(3)
		}
		if len(out) < 2 {
			continue
		}
		switch g.rng.IntN(6) {
		case 0:
			slices.Reverse(out)
		case 1:
			g.rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		case 2: // repeat a term
			out = append(out, out[g.rng.IntN(len(out))])
		case 3: // a common term in the middle
			out = slices.Insert(out, 1, g.byDF[g.rng.IntN(min(10, len(g.byDF)))].Term)
		}
		return SloppyPhrase{g.field, out, slop}
	}
	return SloppyPhrase{g.field, g.take(2), slop}
}

// Not draws an AndNot of two queries over the field; the exclusion is
// sometimes a very common term, so that most candidates are dropped.
func (g *Gen) Not() Query {
	inc := g.leaf()
	if g.rng.IntN(3) == 0 {
		inc = Or{g.leaf(), g.leaf()}
	}
	var ex Query
	switch g.rng.IntN(4) {
	case 0:
		if len(g.byDF) > 0 {
			ex = Term{g.field, g.byDF[g.rng.IntN(min(5, len(g.byDF)))].Term}
		} else {
			ex = g.leaf()
		}
	case 1:
		ex = g.Sloppy()
	default:
		ex = g.leaf()
	}
	return AndNot{inc, ex}
}
