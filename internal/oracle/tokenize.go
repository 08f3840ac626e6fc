package oracle

import (
	"unicode"
	"unicode/utf8"
)

// MaxTokenBytes is the longest term (in bytes, after lowercasing) that is indexed.
const MaxTokenBytes = 255

// ValueGap is the number of positions left empty between two values of a field.
const ValueGap = 100

// Token is one indexed term and its position within the analyzed text.
type Token struct {
	Term string
	Pos  uint32
}

// Tokenize splits text by the standard analyzer definition (see the package
// documentation). It returns the kept tokens and the number of positions the text
// used, counting the skipped over-long tokens.
func Tokenize(text string) (tokens []Token, used uint32) {
	var cur []byte
	inTok := false
	flush := func() {
		if !inTok {
			return
		}
		if len(cur) <= MaxTokenBytes {
			tokens = append(tokens, Token{Term: string(cur), Pos: used})
		}
		used++
		cur = cur[:0]
		inTok = false
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if r == utf8.RuneError && size <= 1 {
			flush() // invalid UTF-8 separates
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			cur = utf8.AppendRune(cur, unicode.ToLower(r))
			inTok = true
			continue
		}
		flush()
	}
	flush()
	return tokens, used
}

// Terms returns only the terms of Tokenize(text), in order (for building queries
// from raw text).
func Terms(text string) []string {
	toks, _ := Tokenize(text)
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.Term
	}
	return out
}

// TokenizeWith splits text by the named built-in analyzer ("standard", "",
// "whitespace" or "keyword"; see the package documentation) with the default
// token-length limit, MaxTokenBytes. It panics on another name.
func TokenizeWith(analyzer, text string) (tokens []Token, used uint32) {
	switch analyzer {
	case "", "standard":
		return Tokenize(text)
	case "whitespace":
		return tokenizeWhitespace(text)
	case "keyword":
		switch {
		case text == "":
			return nil, 0
		case len(text) > MaxTokenBytes:
			return nil, 1
		}
		return []Token{{Term: text, Pos: 0}}, 1
	}
	panic("oracle: no analyzer " + analyzer)
}

// tokenizeWhitespace: maximal runs of runes that are not unicode.IsSpace,
// lowercased rune by rune; an invalid UTF-8 byte is kept inside the token.
func tokenizeWhitespace(text string) (tokens []Token, used uint32) {
	var cur []byte
	inTok := false
	flush := func() {
		if !inTok {
			return
		}
		if len(cur) <= MaxTokenBytes {
			tokens = append(tokens, Token{Term: string(cur), Pos: used})
		}
		used++
		cur = cur[:0]
		inTok = false
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size <= 1 {
			cur = append(cur, text[i])
			inTok = true
			i++
			continue
		}
		i += size
		if unicode.IsSpace(r) {
			flush()
			continue
		}
		cur = utf8.AppendRune(cur, unicode.ToLower(r))
		inTok = true
	}
	flush()
	return tokens, used
}
