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
	var tb tokenBuilder
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if r == utf8.RuneError && size <= 1 {
			tb.flush() // invalid UTF-8 separates
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			tb.addRune(r)
			continue
		}
		tb.flush()
	}
	tb.flush()
	return tb.tokens, tb.used
}

// tokenBuilder collects the current token's lowercased bytes and the tokens
// kept, counting a position for every token (kept or too long).
type tokenBuilder struct {
	cur    []byte
	inTok  bool
	tokens []Token
	used   uint32
}

func (b *tokenBuilder) addRune(r rune) {
	b.cur = utf8.AppendRune(b.cur, unicode.ToLower(r))
	b.inTok = true
}

func (b *tokenBuilder) flush() {
	if !b.inTok {
		return
	}
	if len(b.cur) <= MaxTokenBytes {
		b.tokens = append(b.tokens, Token{Term: string(b.cur), Pos: b.used})
	}
	b.used++
	b.cur = b.cur[:0]
	b.inTok = false
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
	var tb tokenBuilder
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size <= 1 {
			tb.cur = append(tb.cur, text[i])
			tb.inTok = true
			i++
			continue
		}
		i += size
		if unicode.IsSpace(r) {
			tb.flush()
			continue
		}
		tb.addRune(r)
	}
	tb.flush()
	return tb.tokens, tb.used
}
