// Package oracle is an independent brute-force reference for snii queries.
//
// It shares no code with analysis/, writer/ or reader/: the tokenizer below is
// written from the definition of the "standard" analyzer, and every query is
// answered by scanning each document's token sequence. Tests and benchmarks use it
// to check that a segment answers exactly what the documents say.
//
// Standard analyzer (the definition the oracle implements):
//
//	token     = a maximal run of runes r with unicode.IsLetter(r) || unicode.IsDigit(r)
//	            (invalid UTF-8 bytes separate tokens, like any other non-token rune)
//	term      = the token lowercased rune by rune with unicode.ToLower
//	position  = the token's ordinal within the value, from 0
//	long term = a term longer than MaxTokenBytes bytes is not indexed but still
//	            takes its position
//	values    = the values of a multi-value field are laid out one after the
//	            other: value i+1 starts at start(i) + positions(i) + ValueGap
//
// The whitespace and keyword analyzers (TokenizeWith, Corpus.SetAnalyzer):
//
//	whitespace = maximal runs of runes that are not unicode.IsSpace, lowercased
//	             rune by rune; an invalid UTF-8 byte is kept inside the token
//	keyword    = the whole value, bytes unchanged, at position 0; an empty value
//	             gives no token and takes no position
//
// Both skip a token longer than MaxTokenBytes but give it its position.
//
// Query semantics (what the oracle answers):
//
//	Term(f, t)                 docs whose field f holds term t
//	Phrase(f, t0..tn)          docs with a start p such that ti is at p+i for every i
//	PhrasePrefix(f, t0..tn, m) like Phrase, the last term replaced by any of the first m
//	                           terms of f (in byte order) that start with tn (m = 0: all)
//	Prefix(f, p, m)            docs holding any of the first m terms of f starting with p
//	And, Or                    intersection and union of the children (And() is empty)
//
// Results are ascending doc ids. Doc ids are given in insertion order from 0.
package oracle
