package oracle

import (
	"cmp"
	"math"
	"slices"
)

// BM25Options are the parameters of the brute-force BM25 scorer.
type BM25Options struct {
	K1, B float64
	// NoNorms lists the fields scored without norms (every document's
	// length is then 1). Keyword fields never have norms.
	NoNorms map[string]bool
}

// Scored is a document with its score.
type Scored struct {
	Doc   uint32
	Score float64
}

// QuantizeLength rounds a field length down as a one-byte norm stores it:
// below 24 exactly, else 24 plus the excess rounded down to its 4 most
// significant bits.
func QuantizeLength(n int) int {
	if n < 24 {
		return n
	}
	v, shift := n-24, 0
	for v >= 16 {
		v >>= 1
		shift++
	}
	return 24 + v<<shift
}

// TopBM25 scores every document matching q by scanning the corpus and returns
// the best k, best first, ties by ascending doc id. Terms and phrases score
// idf·f/(f + k1·(1 − b + b·dl/avgdl)) (a phrase's f counts the positions it
// starts at, a sloppy phrase's is SloppyFreq, its idf is the sum over its
// terms, repeats included), prefix
// queries score 1, And and Or sum their matching children. Everything is
// computed in float64.
func (c *Corpus) TopBM25(q Query, k int, o BM25Options) []Scored {
	var all []Scored
	n := newScoreNode(c, q)
	avg := map[string]float64{}
	for _, d := range c.Eval(q) {
		s, ok := n.score(c, d, o, avg)
		if !ok {
			panic("oracle: a document of Eval does not score")
		}
		all = append(all, Scored{Doc: d, Score: s})
	}
	slices.SortStableFunc(all, func(a, b Scored) int {
		if a.Score != b.Score {
			return -cmp.Compare(a.Score, b.Score)
		}
		return cmp.Compare(a.Doc, b.Doc)
	})
	return all[:min(k, len(all))]
}

// scoreNode mirrors a query with the match sets of its constant-score leaves.
type scoreNode struct {
	q    Query
	kids []*scoreNode
	set  map[uint32]bool
}

func newScoreNode(c *Corpus, q Query) *scoreNode {
	n := &scoreNode{q: q}
	switch q := q.(type) {
	case And:
		for _, k := range q {
			n.kids = append(n.kids, newScoreNode(c, k))
		}
	case Or:
		for _, k := range q {
			n.kids = append(n.kids, newScoreNode(c, k))
		}
	case Prefix, PhrasePrefix, Fuzzy:
		n.set = map[uint32]bool{}
		for _, d := range c.Eval(q) {
			n.set[d] = true
		}
	case AndNot:
		n.kids = []*scoreNode{newScoreNode(c, q.Include)}
		n.set = map[uint32]bool{}
		for _, d := range c.Eval(q.Exclude) {
			n.set[d] = true
		}
	}
	return n
}

func (n *scoreNode) score(c *Corpus, doc uint32, o BM25Options, avg map[string]float64) (float64, bool) {
	switch q := n.q.(type) {
	case Term:
		return c.bm25(doc, q.Field, []string{q.Term}, 0, o, avg)
	case Phrase:
		return c.bm25(doc, q.Field, q.Terms, 0, o, avg)
	case SloppyPhrase:
		if q.Slop == 0 {
			return c.bm25(doc, q.Field, q.Terms, 0, o, avg)
		}
		return c.bm25(doc, q.Field, q.Terms, q.Slop, o, avg)
	case Prefix, PhrasePrefix, Fuzzy:
		return 1, n.set[doc]
	case AndNot: // the included side's score where the excluded side does not match
		if n.set[doc] {
			return 0, false
		}
		return n.kids[0].score(c, doc, o, avg)
	case And:
		if len(n.kids) == 0 {
			return 0, false
		}
		var s float64
		for _, k := range n.kids {
			v, ok := k.score(c, doc, o, avg)
			if !ok {
				return 0, false
			}
			s += v
		}
		return s, true
	case Or:
		var s float64
		any := false
		for _, k := range n.kids {
			if v, ok := k.score(c, doc, o, avg); ok {
				s += v
				any = true
			}
		}
		return s, any
	}
	panic("oracle: cannot score " + n.q.String())
}

// bm25 scores a term (one term), a phrase or (slop > 0) a sloppy phrase in a
// document.
func (c *Corpus) bm25(doc uint32, field string, terms []string, slop int, o BM25Options, avg map[string]float64) (float64, bool) {
	fd := c.fields[field]
	if fd == nil {
		return 0, false
	}
	d := fd.find(doc)
	if d == nil {
		return 0, false
	}
	ids := make([]int32, len(terms))
	for i, t := range terms {
		id, ok := c.ids[t]
		if !ok {
			return 0, false
		}
		ids[i] = id
	}
	var freq float64
	if slop > 0 {
		freq = SloppyFreq(ids, d.seq, slop)
	} else {
		for p := range d.seq {
			ok := p+len(ids) <= len(d.seq)
			for i := 0; ok && i < len(ids); i++ {
				ok = d.seq[p+i] == ids[i]
			}
			if ok {
				freq++
			}
		}
	}
	if freq == 0 {
		return 0, false
	}
	n := float64(len(fd.docs))
	avgdl, ok := avg[field]
	if !ok {
		var sum float64
		for _, x := range fd.docs {
			sum += float64(length(x.seq))
		}
		avgdl = sum / n
		avg[field] = avgdl
	}
	dl := 1.0
	if !o.NoNorms[field] && c.an[field] != "keyword" {
		dl = float64(QuantizeLength(length(d.seq)))
	}
	var idf float64
	for _, id := range ids {
		df := float64(fd.df[id])
		idf += math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	return idf * freq / (freq + o.K1*(1-o.B+o.B*dl/avgdl)), true
}

// length is a field's token count (positions holding a term).
func length(seq []int32) int {
	n := 0
	for _, t := range seq {
		if t >= 0 {
			n++
		}
	}
	return n
}
