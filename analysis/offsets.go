package analysis

import (
	"unicode"
	"unicode/utf8"
)

// OffsetAnalyzer is an Analyzer that also reports where each token lies in
// the analyzed text. The built-in analyzers implement it; highlighting
// (reader.Segment.Highlights) uses it through AnalyzeOffsets.
type OffsetAnalyzer interface {
	Analyzer
	// AnalyzeOffsets is Analyze with each kept token's byte range in text:
	// emit(term, pos, start, end) for the token text[start:end], ranges
	// ascending and disjoint. It emits the same terms at the same positions,
	// and returns the same counts, as Analyze.
	AnalyzeOffsets(text string, emit func(term []byte, pos uint32, start, end int)) (positions, skipped uint32)
}

// AnalyzeOffsets runs a over text and calls emit(term, pos, start, end) for
// each kept token, with the terms and positions of a.Analyze, and returns
// Analyze's counts.
//
// When a implements OffsetAnalyzer its ranges are used. Otherwise (an analyzer
// registered without the method) each term is looked for in text after the end
// of the last token found: the first run of runes that equal the term's runes
// or lowercase to them (unicode.ToLower). A term found neither
// way (an analyzer that stems or folds otherwise) is emitted with start and end
// -1: it has no known range.
func AnalyzeOffsets(a Analyzer, text string, emit func(term []byte, pos uint32, start, end int)) (positions, skipped uint32) {
	if oa, ok := a.(OffsetAnalyzer); ok {
		return oa.AnalyzeOffsets(text, emit)
	}
	from := 0
	return a.Analyze(text, func(term []byte, pos uint32) {
		start, end := locate(text, from, term)
		if start >= 0 {
			from = end
		}
		emit(term, pos, start, end)
	})
}

// locate finds term in text at or after byte from: the first run of runes
// equal to its runes or lowercasing to them; -1, -1 when there is none.
func locate(text string, from int, term []byte) (start, end int) {
	if len(term) == 0 || from > len(text) {
		return -1, -1
	}
	for i := from; i < len(text); {
		if n := foldedPrefix(text[i:], term); n > 0 {
			return i, i + n
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
	}
	return -1, -1
}

// foldedPrefix returns the length of the prefix of s whose runes lowercase to
// term's runes, or 0.
func foldedPrefix(s string, term []byte) int {
	n := 0
	for len(term) > 0 {
		want, tsize := utf8.DecodeRune(term)
		if n >= len(s) {
			return 0
		}
		r, size := utf8.DecodeRuneInString(s[n:])
		if r != want && unicode.ToLower(r) != want {
			return 0
		}
		n += size
		term = term[tsize:]
	}
	return n
}
