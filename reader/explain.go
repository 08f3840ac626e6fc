package reader

import (
	"fmt"
	"strings"
)

// Explanation is the breakdown of a hit's score.
type Explanation struct {
	Query string  // the query or sub-query scored
	Score float32 // its score in the document
	// BM25 leaves (term and phrase queries); zero for sums and constant scores.
	IDF            float32 // idf (a phrase: the sum of its terms' idf)
	Freq           float32 // term frequency, or phrase frequency (matches)
	FieldLength    uint32  // the document's field length as its norm stores it (1 without norms)
	AvgFieldLength float32 // avgdl
	DocCount       uint64  // N: documents with the field
	DocFreq        uint64  // df (a phrase: 0)
	K1, B          float32
	// Children are the matching clauses of an And or Or, whose scores add up
	// to Score.
	Children []Explanation
}

// String renders the breakdown, one line per query and two more spaces of
// indentation per level: a sum over its matching clauses, a BM25 leaf with
// the numbers of its formula, or a constant score. snii query --top --explain
// prints it.
//
//	0.99021 = sum of 2 matching clauses of or(phrase(text:"connection refused"), term(text:"db"))
//	  0.66014 = phrase(text:"connection refused"): idf 1.38629 (N 4) · freq 1 / (freq + k1 1.2 · (1 - b 0.75 + b · field length 4 / avg 4.5))
//	  0.33007 = term(text:"db"): idf 0.693147 (N 4, df 2) · freq 1 / (freq + k1 1.2 · (1 - b 0.75 + b · field length 4 / avg 4.5))
func (e *Explanation) String() string {
	var b strings.Builder
	e.write(&b, 0)
	return strings.TrimSuffix(b.String(), "\n")
}

func (e *Explanation) write(b *strings.Builder, depth int) {
	pad := strings.Repeat("  ", depth)
	switch {
	case len(e.Children) > 0:
		clauses := "matching clauses"
		if len(e.Children) == 1 {
			clauses = "matching clause"
		}
		fmt.Fprintf(b, "%s%.6g = sum of %d %s of %s\n", pad, e.Score, len(e.Children), clauses, e.Query)
		for i := range e.Children {
			e.Children[i].write(b, depth+1)
		}
	case e.IDF != 0 || e.Freq != 0:
		df := ""
		if e.DocFreq > 0 {
			df = fmt.Sprintf(", df %d", e.DocFreq)
		}
		fmt.Fprintf(b, "%s%.6g = %s: idf %.6g (N %d%s) · freq %g / (freq + k1 %g · (1 - b %g + b · field length %d / avg %.6g))\n",
			pad, e.Score, e.Query, e.IDF, e.DocCount, df, e.Freq, e.K1, e.B, e.FieldLength, e.AvgFieldLength)
	default:
		fmt.Fprintf(b, "%s%.6g = %s (constant score)\n", pad, e.Score, e.Query)
	}
}
