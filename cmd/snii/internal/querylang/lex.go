package querylang

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SyntaxError is a query syntax error at a 1-based column (in characters).
type SyntaxError struct {
	Column int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("at column %d: %s", e.Column, e.Msg) }

type tokKind uint8

const (
	tEOF tokKind = iota
	tText
	tLParen
	tRParen
	tOr
	tAnd
	tNot
)

type token struct {
	kind tokKind
	col  int
	text *Text // tText only
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "the end of the query"
	case tLParen:
		return "'('"
	case tRParen:
		return "')'"
	case tOr:
		return "OR"
	case tAnd:
		return "AND"
	case tNot:
		return "NOT"
	}
	return "a term"
}

// lexer splits a query into tokens, tracking columns in runes.
type lexer struct {
	s   string
	i   int // byte offset of the next rune
	col int // 1-based column of the next rune
}

// peekRune returns the next rune and its size without consuming it (size 0 at EOF).
func (l *lexer) peekRune() (rune, int) {
	if l.i >= len(l.s) {
		return 0, 0
	}
	return utf8.DecodeRuneInString(l.s[l.i:])
}

// advance consumes a rune of the given size and returns its bytes.
func (l *lexer) advance(size int) string {
	b := l.s[l.i : l.i+size]
	l.i += size
	l.col++
	return b
}

func (l *lexer) next() (token, error) {
	for {
		r, size := l.peekRune()
		if size == 0 {
			return token{kind: tEOF, col: l.col}, nil
		}
		if !unicode.IsSpace(r) {
			break
		}
		l.advance(size)
	}
	col := l.col
	r, size := l.peekRune()
	switch r {
	case '(':
		l.advance(size)
		return token{kind: tLParen, col: col}, nil
	case ')':
		l.advance(size)
		return token{kind: tRParen, col: col}, nil
	case '"':
		l.advance(size)
		t, err := l.phrase(col)
		return token{kind: tText, col: col, text: t}, err
	}
	t, escaped, err := l.word(col)
	if err != nil {
		return token{}, err
	}
	if !escaped && !t.Prefix {
		switch t.Raw {
		case "OR":
			return token{kind: tOr, col: col}, nil
		case "AND":
			return token{kind: tAnd, col: col}, nil
		case "NOT":
			return token{kind: tNot, col: col}, nil
		}
	}
	return token{kind: tText, col: col, text: t}, nil
}

// endsWord reports whether r (of the given size, 0 at EOF) ends a bare word.
func endsWord(r rune, size int) bool {
	return size == 0 || unicode.IsSpace(r) || r == '"' || r == '(' || r == ')'
}

func (l *lexer) word(col int) (*Text, bool, error) {
	var b strings.Builder
	escaped := false
	for {
		r, size := l.peekRune()
		if endsWord(r, size) {
			return &Text{Raw: b.String(), Col: col}, escaped, nil
		}
		c := l.col
		l.advance(size)
		switch r {
		case '\\':
			_, size2 := l.peekRune()
			if size2 == 0 {
				return nil, false, &SyntaxError{c, `expected a character after '\' (write \\ for a backslash)`}
			}
			b.WriteString(l.advance(size2))
			escaped = true
		case '*':
			if r2, size2 := l.peekRune(); !endsWord(r2, size2) {
				return nil, false, &SyntaxError{c, `'*' is allowed only at the end of a word (write \* for a literal star)`}
			}
			if b.Len() == 0 {
				return nil, false, &SyntaxError{c, `expected a term before '*'`}
			}
			return &Text{Raw: b.String(), Prefix: true, Col: col}, escaped, nil
		default:
			b.WriteString(l.s[l.i-size : l.i])
		}
	}
}

func (l *lexer) phrase(col int) (*Text, error) {
	var b strings.Builder
	lastSpace := true // no text yet counts as a space before a '*'
	for {
		r, size := l.peekRune()
		if size == 0 {
			return nil, &SyntaxError{l.col, fmt.Sprintf("expected closing quote for the phrase opened at column %d", col)}
		}
		c := l.col
		l.advance(size)
		switch r {
		case '"':
			if strings.TrimSpace(b.String()) == "" {
				return nil, &SyntaxError{col, "empty phrase"}
			}
			return &Text{Raw: b.String(), Quoted: true, Col: col}, nil
		case '\\':
			r2, size2 := l.peekRune()
			if size2 == 0 {
				return nil, &SyntaxError{c, `expected a character after '\' (write \\ for a backslash)`}
			}
			b.WriteString(l.advance(size2))
			// An escaped space is still a space: the analyzer splits on it, so it
			// cannot stand for the term a '*' needs.
			lastSpace = unicode.IsSpace(r2)
		case '*':
			if r2, _ := l.peekRune(); r2 != '"' {
				return nil, &SyntaxError{c, `'*' is allowed only at the end of a phrase, right before the closing quote (write \* for a literal star)`}
			}
			if lastSpace {
				return nil, &SyntaxError{c, `expected a term before '*'`}
			}
			l.advance(1)
			return &Text{Raw: b.String(), Prefix: true, Quoted: true, Col: col}, nil
		default:
			b.WriteString(l.s[l.i-size : l.i])
			lastSpace = unicode.IsSpace(r)
		}
	}
}
