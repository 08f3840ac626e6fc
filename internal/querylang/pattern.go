package querylang

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pattern is a term pattern: a regular expression written /expr/, or a
// wildcard word (a word with '?' or a '*' anywhere but at its end alone).
type Pattern struct {
	Field string // the field named by a "field:" qualifier; "" for the default field
	// Expr is the regular expression (Regexp set; a "\/" of the query is a
	// '/' here) or the wildcard: '*', '?', and `\*`, `\?`, `\\` for the
	// literal characters; every other character is literal.
	Expr   string
	Regexp bool
	Col    int
}

// PatternPhrase is a quoted phrase with patterns among its words: Parts are
// runs of plain words (*Text, not quoted, never empty) and patterns
// (*Pattern), in order.
type PatternPhrase struct {
	Field string
	Parts []Node
	Col   int
}

func (p *Pattern) Column() int       { return p.Col }
func (p *PatternPhrase) Column() int { return p.Col }

// String implements Node.
func (p *Pattern) String() string {
	var b strings.Builder
	if p.Field != "" {
		b.WriteString(p.Field)
		b.WriteByte(':')
	}
	p.write(&b, false)
	return b.String()
}

// write renders the pattern, as a word of a phrase when inPhrase.
func (p *Pattern) write(b *strings.Builder, inPhrase bool) {
	if p.Regexp {
		b.WriteByte('/')
		for i := 0; i < len(p.Expr); i++ {
			switch c := p.Expr[i]; {
			case c == '\\' && i+1 < len(p.Expr):
				b.WriteByte(c)
				i++
				b.WriteByte(p.Expr[i])
			case c == '/':
				b.WriteString(`\/`)
			default:
				b.WriteByte(c)
			}
		}
		b.WriteByte('/')
		return
	}
	for i := 0; i < len(p.Expr); {
		r, size := utf8.DecodeRuneInString(p.Expr[i:])
		switch {
		case r == '\\' && i+size < len(p.Expr):
			_, n2 := utf8.DecodeRuneInString(p.Expr[i+size:])
			b.WriteString(p.Expr[i : i+size+n2])
			i += size + n2
			continue
		case r == '*' || r == '?':
		case i == 0 && (r == '/' || r == '-' && !inPhrase):
			b.WriteByte('\\')
		case inPhrase && r == '"', !inPhrase && (isSpecial(r) || unicode.IsSpace(r)):
			b.WriteByte('\\')
		}
		b.WriteString(p.Expr[i : i+size])
		i += size
	}
}

// String implements Node.
func (p *PatternPhrase) String() string {
	var b strings.Builder
	if p.Field != "" {
		b.WriteString(p.Field)
		b.WriteByte(':')
	}
	b.WriteByte('"')
	for i, c := range p.Parts {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch c := c.(type) {
		case *Pattern:
			c.write(&b, true)
		case *Text:
			writePhraseText(&b, c.Raw)
		}
	}
	if last, ok := p.Parts[len(p.Parts)-1].(*Pattern); ok && !last.Regexp {
		b.WriteByte(' ') // a '*' right before the quote would make a phrase prefix
	}
	b.WriteByte('"')
	return b.String()
}

// writePhraseText writes the text of a phrase: '"', '\' and '*' escaped, and
// a '/' that starts a word (it would open a regexp).
func writePhraseText(b *strings.Builder, s string) {
	start := true
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '"' || r == '\\' || r == '*' || r == '/' && start {
			b.WriteByte('\\')
		}
		b.WriteString(s[i : i+size])
		start = unicode.IsSpace(r)
		i += size
	}
}

// regexp lexes a regular expression after its opening '/' (at column col) up
// to the closing '/': `\/` is a '/', every other escape is kept for the
// expression. The expression must parse (regexp/syntax, Perl flags).
func (l *lexer) regexp(col int) (string, error) {
	var b strings.Builder
	for {
		r, size := l.peekRune()
		if size == 0 {
			return "", &SyntaxError{l.col, fmt.Sprintf("expected closing '/' for the regexp opened at column %d (write \\/ for a literal slash)", col)}
		}
		l.advance(size)
		switch r {
		case '/':
			expr := b.String()
			if expr == "" {
				return "", &SyntaxError{col, "empty regexp"}
			}
			if _, err := syntax.Parse(expr, syntax.Perl); err != nil {
				return "", &SyntaxError{col, fmt.Sprintf("invalid regexp: %v", err)}
			}
			return expr, nil
		case '\\':
			r2, size2 := l.peekRune()
			if size2 == 0 {
				return "", &SyntaxError{l.col, `expected a character after '\' (write \\ for a backslash)`}
			}
			if r2 != '/' {
				b.WriteByte('\\')
			}
			b.WriteString(l.advance(size2))
		default:
			b.WriteString(l.s[l.i-size : l.i])
		}
	}
}

// regexpAhead reports whether the text after an opening '/' (consumed) is a
// regexp: an unescaped '/' closes it before any white space (or, in a
// phrase, a quote), right before the end of the word. Otherwise the '/' is
// literal ("/var/log", "GET /api").
func (l *lexer) regexpAhead(inPhrase bool) bool {
	s := l.s[l.i:]
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsSpace(r), inPhrase && r == '"':
			return false
		case r == '\\':
			i += size
			if i < len(s) {
				_, size = utf8.DecodeRuneInString(s[i:])
			}
		case r == '/':
			if i == 0 {
				return false // "//" is no regexp
			}
			r2, size2 := utf8.DecodeRuneInString(s[i+size:])
			if inPhrase {
				return size2 > 0 && (unicode.IsSpace(r2) || r2 == '"')
			}
			return endsWord(r2, size2)
		}
		i += size
	}
	return false
}

// regexpWord lexes a bare /regexp/ word whose '/' is at column col (consumed).
func (l *lexer) regexpWord(field string, col, wordCol int) (*Pattern, error) {
	expr, err := l.regexp(col)
	if err != nil {
		return nil, err
	}
	if r, size := l.peekRune(); !endsWord(r, size) {
		return nil, &SyntaxError{l.col, "expected the end of the word after a regexp's closing '/' (write \\/ for a literal slash)"}
	}
	return &Pattern{Field: field, Expr: expr, Regexp: true, Col: wordCol}, nil
}
