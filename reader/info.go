package reader

import (
	"github.com/snii-go/snii/internal/codec/format"
)

// FieldInfo describes one field of a segment.
type FieldInfo struct {
	Name     string
	Analyzer string // the analyzer's name and settings, e.g. "standard;max_token_bytes=1024"
	// DocsWithField is the documents holding at least one token of the field
	// (of Segment.DocCount), what BM25 calls N.
	DocsWithField uint64
	// Terms is the field's distinct terms; SumDocFreq the sum of their
	// document frequencies, SumTotalTermFreq of their occurrences (the
	// field's tokens in all).
	Terms, SumDocFreq, SumTotalTermFreq uint64
	// SkippedTokens is the tokens longer than the analyzer's limit: they take
	// a position but are not indexed.
	SkippedTokens uint64
	// HasNorms reports whether the field stores each document's length
	// (BM25 then normalizes by it; without norms every length is 1).
	HasNorms bool
}

// Info describes the named field; an unknown field is an snii.ErrNotFound
// error listing the fields.
func (s *Segment) Info(name string) (FieldInfo, error) {
	f, err := s.field(name)
	if err != nil {
		return FieldInfo{}, err
	}
	m := &f.meta
	return FieldInfo{Name: m.Name, Analyzer: m.Analyzer, DocsWithField: m.DocsWithField, Terms: m.TermCount,
		SumDocFreq: m.SumDF, SumTotalTermFreq: m.SumTTF, SkippedTokens: m.SkippedTokens, HasNorms: m.HasNorms}, nil
}

// meta returns the whole metadata of a field (stats, sections, policy
// and outcome, block directory), for the CLI's reports and the merge
// (internal/seam). It shares nothing mutable with the segment except the
// byte slices of FirstTerms, which must not be modified.
func (s *Segment) meta(name string) (format.IndexMeta, error) {
	f, err := s.field(name)
	if err != nil {
		return format.IndexMeta{}, err
	}
	m := f.meta
	m.Blocks = append([]format.BlockInfo(nil), m.Blocks...)
	m.FirstTerms = append([][]byte(nil), m.FirstTerms...)
	return m, nil
}
