package querylang

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/reader"
)

// SyntaxError is a query syntax error at a 1-based column (in characters).
// It wraps snii.ErrInvalidArgument.
type SyntaxError struct {
	Column int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("at column %d: %s", e.Column, e.Msg) }

// Unwrap returns snii.ErrInvalidArgument, the kind of every syntax error.
func (e *SyntaxError) Unwrap() error { return snii.ErrInvalidArgument }

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
	kind  tokKind
	col   int
	text  *Text  // tText only, when pat is nil
	pat   Node   // tText: a *Pattern or *PatternPhrase
	minus bool   // tNot written as '-'
	field string // tLParen written as "field:(": the group's field
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
		if t.minus {
			return "'-'"
		}
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
		t, pp, err := l.phrase(col)
		if pp != nil {
			return token{kind: tText, col: col, pat: pp}, err
		}
		return token{kind: tText, col: col, text: t}, err
	case '-':
		l.advance(size)
		if r2, size2 := l.peekRune(); size2 == 0 || unicode.IsSpace(r2) {
			return token{}, &SyntaxError{col, `expected a term, a phrase or '(' right after '-' (write \- for a literal '-')`}
		}
		return token{kind: tNot, col: col, minus: true}, nil
	}
	t, pat, escaped, err := l.word(col)
	if err != nil {
		return token{}, err
	}
	if pat != nil {
		return token{kind: tText, col: col, pat: pat}, nil
	}
	if t.Raw == "" && t.Field != "" && !t.Quoted { // "field:(": a group; word stopped on its '('
		c := l.col
		l.advance(1)
		return token{kind: tLParen, col: c, field: t.Field}, nil
	}
	if !escaped && !t.Prefix && !t.Fuzzy && t.Field == "" && !t.Quoted {
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

// MaxSlop is the largest slop of a sloppy phrase ("a b"~N).
const MaxSlop = 1 << 20

// isFieldName reports whether s can name a field before ':' (a letter or '_',
// then letters, digits, '_', '.' and '-').
func isFieldName(s string) bool {
	for i, r := range s {
		if !(unicode.IsLetter(r) || r == '_' || i > 0 && (unicode.IsDigit(r) || r == '.' || r == '-')) {
			return false
		}
	}
	return s != ""
}

// word lexes a bare word, or "field:" followed by a word or a phrase (or by
// '(': then it returns a Text with the field and no text, before the '('). A
// word with '?' or a '*' before its end, or written /regexp/, is a *Pattern
// (or a phrase with patterns a *PatternPhrase), returned as pat. It reports
// whether an escape was used (an escaped word is never an operator).
func (l *lexer) word(col int) (*Text, Node, bool, error) {
	var b strings.Builder
	var w strings.Builder // the word as a wildcard
	wild := false
	escaped := false
	field := ""
	for {
		r, size := l.peekRune()
		if endsWord(r, size) {
			if wild {
				return nil, &Pattern{Field: field, Expr: w.String(), Col: col}, escaped, nil
			}
			return &Text{Field: field, Raw: b.String(), Col: col}, nil, escaped, nil
		}
		c := l.col
		l.advance(size)
		if r == ':' && field == "" && !escaped && !wild && isFieldName(b.String()) {
			field = b.String()
			b.Reset()
			w.Reset()
			r2, size2 := l.peekRune()
			switch {
			case r2 == '"' && size2 > 0:
				l.advance(size2)
				t, pp, err := l.phrase(l.col - 1)
				if err != nil {
					return nil, nil, false, err
				}
				if pp != nil {
					pp.Field, pp.Col = field, col
					return nil, pp, false, nil
				}
				t.Field, t.Col = field, col
				return t, nil, false, nil
			case r2 == '(':
				return &Text{Field: field, Col: col}, nil, false, nil // a group: next turns it into its '('
			case endsWord(r2, size2):
				return nil, nil, false, &SyntaxError{c + 1, fmt.Sprintf("expected a term, a phrase or '(' after %q (write \\: for a literal ':')", errs.Excerpt(field+":"))}
			}
			continue
		}
		if r == '/' && b.Len() == 0 && !escaped && !wild && l.regexpAhead(false) {
			p, err := l.regexpWord(field, c, col)
			return nil, p, false, err
		}
		switch r {
		case '\\':
			r2, size2 := l.peekRune()
			if size2 == 0 {
				return nil, nil, false, &SyntaxError{c, `expected a character after '\' (write \\ for a backslash)`}
			}
			lit := l.advance(size2)
			b.WriteString(lit)
			if r2 == '*' || r2 == '?' || r2 == '\\' {
				w.WriteByte('\\')
			}
			w.WriteString(lit)
			escaped = true
		case '~':
			if b.Len() == 0 {
				return nil, nil, false, l.tilde(c)
			}
			if wild {
				return nil, nil, false, &SyntaxError{c, "a wildcard takes no '~' (write \\~ for a literal '~')"}
			}
			t := &Text{Field: field, Raw: b.String(), Fuzzy: true, Edits: DefaultEdits, Col: col}
			return t, nil, escaped, l.edits(t, c)
		case '*':
			if r2, size2 := l.peekRune(); endsWord(r2, size2) && !wild && b.Len() > 0 {
				return &Text{Field: field, Raw: b.String(), Prefix: true, Col: col}, nil, escaped, nil
			}
			wild = true
			w.WriteByte('*')
		case '?':
			wild = true
			w.WriteByte('?')
		default:
			b.WriteString(l.s[l.i-size : l.i])
			w.WriteString(l.s[l.i-size : l.i])
		}
	}
}

// phrase lexes a quoted phrase after its opening quote (at column col). A
// word of it written /regexp/, or holding a '*' that is not the phrase's
// last character (then '?' in that word is a wildcard too), is a pattern:
// the phrase is then a *PatternPhrase (its trailing '*' makes its last word a
// wildcard), returned instead of the *Text.
func (l *lexer) phrase(col int) (*Text, *PatternPhrase, error) {
	var b strings.Builder    // the whole phrase as text
	var run strings.Builder  // plain words since the last pattern
	var word strings.Builder // the current word as text
	var w strings.Builder    // the current word as a wildcard
	star := false            // the current word holds an unescaped '*'
	var parts []Node
	lastSpace := true // no text yet counts as a space before a '*'
	endWord := func() {
		if star {
			if t := strings.TrimSpace(run.String()); t != "" {
				parts = append(parts, &Text{Raw: t})
			}
			run.Reset()
			parts = append(parts, &Pattern{Expr: w.String()})
		} else {
			run.WriteString(word.String())
		}
		word.Reset()
		w.Reset()
		star = false
	}
	// literal adds the text lit of character r, written after a '\' when
	// escaped: a space ends the word, any other character extends it (an
	// escaped '*', '?' or '\' stays escaped in the word's pattern).
	literal := func(lit string, r rune, escaped bool) {
		b.WriteString(lit)
		lastSpace = unicode.IsSpace(r)
		if lastSpace {
			endWord()
			run.WriteString(lit)
			return
		}
		word.WriteString(lit)
		if escaped && (r == '*' || r == '?' || r == '\\') {
			w.WriteByte('\\')
		}
		w.WriteString(lit)
	}
	finish := func() *PatternPhrase {
		endWord()
		if len(parts) == 0 {
			return nil
		}
		if t := strings.TrimSpace(run.String()); t != "" {
			parts = append(parts, &Text{Raw: t})
		}
		return &PatternPhrase{Parts: parts, Col: col}
	}
	for {
		r, size := l.peekRune()
		if size == 0 {
			return nil, nil, &SyntaxError{l.col, fmt.Sprintf("expected closing quote for the phrase opened at column %d", col)}
		}
		c := l.col
		l.advance(size)
		switch r {
		case '"':
			if pp := finish(); pp != nil {
				if r2, _ := l.peekRune(); r2 == '~' {
					return nil, nil, &SyntaxError{l.col, "a phrase with patterns cannot have a slop"}
				}
				return nil, pp, nil
			}
			if strings.TrimSpace(b.String()) == "" {
				return nil, nil, &SyntaxError{col, "empty phrase"}
			}
			t := &Text{Raw: b.String(), Quoted: true, Col: col}
			return t, nil, l.slop(t)
		case '\\':
			r2, size2 := l.peekRune()
			if size2 == 0 {
				return nil, nil, &SyntaxError{c, `expected a character after '\' (write \\ for a backslash)`}
			}
			// An escaped space is still a space: the analyzer splits on it, so it
			// cannot stand for the term a '*' needs.
			literal(l.advance(size2), r2, true)
		case '/':
			if !lastSpace || !l.regexpAhead(true) {
				b.WriteByte('/')
				word.WriteByte('/')
				w.WriteByte('/')
				continue
			}
			expr, err := l.regexp(c)
			if err != nil {
				return nil, nil, err
			}
			if r2, size2 := l.peekRune(); size2 == 0 || !(unicode.IsSpace(r2) || r2 == '"') {
				return nil, nil, &SyntaxError{l.col, "expected a space or the closing quote after a regexp's closing '/' (write \\/ for a literal slash)"}
			}
			if t := strings.TrimSpace(run.String()); t != "" {
				parts = append(parts, &Text{Raw: t})
			}
			run.Reset()
			parts = append(parts, &Pattern{Expr: expr, Regexp: true})
			b.WriteString("/" + expr + "/")
			lastSpace = false
		case '*':
			if r2, _ := l.peekRune(); r2 == '"' && len(parts) == 0 && !star {
				// A trailing '*' of a phrase without patterns: a phrase prefix.
				if lastSpace {
					return nil, nil, &SyntaxError{c, `expected a term before '*'`}
				}
				l.advance(1)
				if r2, _ := l.peekRune(); r2 == '~' {
					return nil, nil, &SyntaxError{l.col, "a phrase prefix cannot have a slop"}
				}
				return &Text{Raw: b.String(), Prefix: true, Quoted: true, Col: col}, nil, nil
			}
			star = true
			w.WriteByte('*')
			b.WriteByte('*')
			lastSpace = false
		case '?':
			word.WriteByte('?')
			w.WriteByte('?')
			b.WriteByte('?')
			lastSpace = false
		default:
			literal(l.s[l.i-size:l.i], r, false)
		}
	}
}

// number lexes the decimal digits at the lexer's position (digits 0: none),
// stopping with over set once the value passes max.
func (l *lexer) number(max int) (n, digits int, over bool) {
	for {
		r, size := l.peekRune()
		if size == 0 || r < '0' || r > '9' {
			return n, digits, false
		}
		l.advance(size)
		digits++
		if n = n*10 + int(r-'0'); n > max {
			return n, digits, true
		}
	}
}

// slop lexes an optional "~N" right after a phrase's closing quote.
func (l *lexer) slop(t *Text) error {
	if r, _ := l.peekRune(); r != '~' {
		return nil
	}
	c := l.col
	l.advance(1)
	n, digits, over := l.number(MaxSlop)
	if over {
		return &SyntaxError{c, fmt.Sprintf("slop larger than %d", MaxSlop)}
	}
	if digits == 0 {
		return &SyntaxError{c + 1, "expected a number (the slop) after '~'"}
	}
	switch r, size := l.peekRune(); {
	case r == '~':
		return &SyntaxError{l.col, fmt.Sprintf("a phrase takes one slop, and it has ~%d already", n)}
	case !endsWord(r, size):
		return &SyntaxError{l.col, "expected a space, ')' or the end of the query after the slop"}
	}
	t.Slop = n
	return nil
}

// DefaultEdits is the edit distance of a fuzzy term written without one
// ("term~"), as in Lucene.
const DefaultEdits = 2

// edits lexes the optional N of a fuzzy term's "~N" (the '~' at column c
// consumed), which must end the word.
func (l *lexer) edits(t *Text, c int) error {
	n, digits, over := l.number(reader.MaxEdits)
	if over {
		return &SyntaxError{c + 1, fmt.Sprintf("a fuzzy term takes 0 to %d edits (term~N)", reader.MaxEdits)}
	}
	if digits > 0 {
		t.Edits = n
	}
	switch r, size := l.peekRune(); {
	case r == '.':
		return &SyntaxError{l.col, fmt.Sprintf("a fuzzy term takes a whole number of edits, 0 to %d (Lucene's similarities such as ~0.8 are not supported)", reader.MaxEdits)}
	case !endsWord(r, size):
		return &SyntaxError{l.col, "expected a space, ')' or the end of the query after a fuzzy term (write \\~ for a literal '~')"}
	}
	return nil
}

// tilde returns the error for a '~' that starts a bare word (at column c,
// already consumed): it follows a group, a space or a field name, where it
// has nothing to apply to.
func (l *lexer) tilde(c int) error {
	if at := l.i - 1; at > 0 && l.s[at-1] == ')' {
		return &SyntaxError{c, `a slop '~N' applies to a quoted phrase ("a b"~2), not to a group; write \~ for a literal '~'`}
	}
	return &SyntaxError{c, `expected a term before '~' (term~N is a fuzzy term, "a b"~N a sloppy phrase); write \~ for a literal '~'`}
}
