package reader

import (
	"math"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
)

// BM25 holds the parameters of the BM25 similarity, as Lucene 8's
// BM25Similarity defines it (without the k1+1 factor Lucene 8 dropped): a
// term's score in a document is
//
//	idf · freq / (freq + k1 · (1 − b + b · dl / avgdl))
//	idf = ln(1 + (N − df + 0.5) / (df + 0.5))
//
// with N the documents holding the field, df those holding the term, dl the
// document's field length (its norm, decoded: lengths over 23 are rounded
// down) and avgdl = sumTTF / N (every token of the field over N). The
// arithmetic is Lucene's, in float32, so that scores agree with Lucene 8.8's
// bit for bit when the statistics agree.
type BM25 struct {
	K1 float32 // term frequency saturation (>= 0); Lucene's default 1.2
	B  float32 // length normalization, 0..1; Lucene's default 0.75
}

// defaultBM25 returns k1 = 1.2, b = 0.75 (Lucene's defaults).
func defaultBM25() BM25 { return BM25{K1: 1.2, B: 0.75} }

func (p BM25) validate() error {
	if !(p.K1 >= 0) || math.IsInf(float64(p.K1), 0) || !(p.B >= 0 && p.B <= 1) {
		return errs.Invalidf("reader: BM25 k1 = %v, b = %v (want k1 >= 0 and finite, 0 <= b <= 1)", p.K1, p.B)
	}
	return nil
}

// CollectionStats supplies the statistics BM25 scores with. By default
// (TopOptions.Stats nil) a segment scores with its own: idf and the average
// field length are then per segment, and scores from different segments of
// one collection are not comparable exactly. A searcher over several
// segments passes the collection's sums instead (documents with the field,
// tokens of the field and each term's df, summed over the segments, as
// Lucene's IndexSearcher does), so every segment scores with the same idf
// and average length and the per-segment top-k lists merge by score: Stats
// (Segment.Stats, summed with Stats.Add) is such a sum, and
// search.Searcher.Top passes it.
type CollectionStats interface {
	// Field returns the documents holding at least one token of the field
	// and the field's tokens in all (sum of the terms' total frequencies).
	Field(field string) (docCount, sumTotalTermFreq uint64)
	// DocFreq returns the documents holding the term in the field.
	DocFreq(field, term string) uint64
}

// leafSim scores one term or phrase of one field: weight is the idf, norms
// the field's norm bytes (nil: every document has norm 1, as in Lucene for a
// field without norms), inv[c] = 1 / (k1 · (1 − b + b · len(c) / avgdl)).
type leafSim struct {
	weight   float32
	inv      *[256]float32
	norms    []byte
	avgdl    float32
	docCount uint64
	df       uint64
	p        BM25
}

// newNormCache returns inv for the parameters and avgdl, computed as Lucene
// does (float32 throughout).
func newNormCache(p BM25, avgdl float32) *[256]float32 {
	var c [256]float32
	for i := range c {
		l := float32(format.DecodeNorm(byte(i)))
		c[i] = 1 / float32(p.K1*float32(float32(1-p.B)+float32(float32(p.B*l)/avgdl)))
	}
	return &c
}

// idf is Lucene 8's BM25 idf (computed in float64, rounded to float32).
func idf(df, docCount uint64) float32 {
	return float32(math.Log(1 + (float64(int64(docCount)-int64(df))+0.5)/(float64(df)+0.5)))
}

// norm returns the norm byte of doc (1 without norms).
func (l *leafSim) norm(doc uint32) byte {
	if l.norms == nil {
		return 1
	}
	return l.norms[doc]
}

// score is Lucene's weight - weight / (1 + freq · inv[norm]).
func (l *leafSim) score(freq float32, doc uint32) float32 {
	return bm25(l.weight, freq, l.inv[l.norm(doc)])
}

func bm25(weight, freq, inv float32) float32 {
	return weight - float32(weight/float32(1+float32(freq*inv)))
}

// bound returns an upper bound of the scores with a frequency at most
// maxFreq: the score is increasing in freq and in inv.
func (l *leafSim) bound(maxFreq float32, maxInv float32) float32 {
	return bm25(l.weight, maxFreq, maxInv)
}

// explainFreq scores doc with the frequency freq returns and explains it.
func (l *leafSim) explainFreq(freq func() (int, error), doc int64, query string) (Explanation, error) {
	f, err := freq()
	if err != nil {
		return Explanation{}, err
	}
	return l.explainF(float32(f), doc, query), nil
}

// explainF scores doc with frequency ff (a sloppy phrase's is fractional) and
// explains it.
func (l *leafSim) explainF(ff float32, doc int64, query string) Explanation {
	return Explanation{Query: query, Score: l.score(ff, uint32(doc)), IDF: l.weight, Freq: ff,
		FieldLength: format.DecodeNorm(l.norm(uint32(doc))), AvgFieldLength: l.avgdl,
		DocCount: l.docCount, DocFreq: l.df, K1: l.p.K1, B: l.p.B}
}

// fieldSim is what every leaf of one field shares in a query.
type fieldSim struct {
	f        *field
	docCount uint64
	avgdl    float32
	inv      *[256]float32
	norms    []byte
	maxInv   float32 // the largest inv over the norms of the documents with the field
}

// simFor returns the scoring statistics of field f, computed once per query.
func (t *topRun) simFor(f *field) (*fieldSim, error) {
	for _, fs := range t.fields {
		if fs.f == f {
			return fs, nil
		}
	}
	m := &f.meta
	docCount, sum := m.DocsWithField, m.SumTTF
	if t.o.Stats != nil {
		docCount, sum = t.o.Stats.Field(m.Name)
	}
	fs := &fieldSim{f: f, docCount: docCount}
	if docCount > 0 {
		fs.avgdl = float32(float64(sum) / float64(docCount))
	}
	fs.inv = f.normCache(t.p, fs.avgdl)
	norms, err := f.loadNorms(t.x)
	if err != nil {
		return nil, err
	}
	fs.norms = norms
	if norms == nil {
		fs.maxInv = fs.inv[1]
	} else {
		minNorm, err := f.minNorm(norms)
		if err != nil {
			return nil, err
		}
		fs.maxInv = fs.inv[minNorm]
	}
	t.fields = append(t.fields, fs)
	return fs, nil
}

// normTable is a BM25 length table and what it was computed for.
type normTable struct {
	p     BM25
	avgdl float32
	inv   *[256]float32
}

// normCache returns newNormCache(p, avgdl), computed again only when the
// parameters or the average length differ from the last call's (the table is
// read-only once made, so concurrent searches share it).
func (f *field) normCache(p BM25, avgdl float32) *[256]float32 {
	if c := f.normInv.Load(); c != nil && c.p == p && c.avgdl == avgdl {
		return c.inv
	}
	inv := newNormCache(p, avgdl)
	f.normInv.Store(&normTable{p: p, avgdl: avgdl, inv: inv})
	return inv
}

// minNorm returns the smallest non-zero norm byte of the field (the shortest
// document holding it; 1 when none), computed at the first use and kept.
func (f *field) minNorm(norms []byte) (byte, error) {
	if v := f.minNormV.Load(); v != 0 {
		return byte(v - 1), nil
	}
	mn := byte(255)
	found := false
	for _, b := range norms {
		if b != 0 && b <= mn {
			mn, found = b, true
			if b == 1 {
				break
			}
		}
	}
	if !found {
		mn = 1
	}
	f.minNormV.Store(uint32(mn) + 1)
	return mn, nil
}

// leaf builds the leafSim of terms (one term, or a phrase's terms with
// repeats) of field fs.
func (t *topRun) leaf(fs *fieldSim, terms []string, dfs []uint64) leafSim {
	var w float64
	var df uint64
	for i, term := range terms {
		d := dfs[i]
		if t.o.Stats != nil {
			d = t.o.Stats.DocFreq(fs.f.meta.Name, term)
		}
		w += float64(idf(d, fs.docCount))
		df = d
	}
	l := leafSim{weight: float32(w), inv: fs.inv, norms: fs.norms, avgdl: fs.avgdl, docCount: fs.docCount, p: t.p}
	if len(terms) == 1 {
		l.df = df
	}
	return l
}
