package querylang

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Node is a parsed query: *Text, *Pattern, *PatternPhrase, *And, *Or or *Not.
type Node interface {
	// String renders the node in the query language; parsing it gives the same tree.
	String() string
	// Column is the 1-based column (in characters) where the node starts.
	Column() int
}

// Text is a word or a quoted phrase, not yet analyzed.
type Text struct {
	Field  string // the field named by a "field:" qualifier; "" for the default field
	Raw    string // the text with quotes, escapes and a trailing '*' removed
	Prefix bool   // a trailing '*': the last token is a prefix
	Quoted bool   // written in double quotes
	Slop   int    // "~N" after a quoted phrase: a sloppy phrase (0: exact); rendered only when Quoted
	// Fuzzy: "~" or "~N" after a bare word: a fuzzy term, matching the terms
	// within Edits edits (0..reader.MaxEdits; "~" alone is 2) of the word's
	// one term. Rendered only when not Quoted.
	Fuzzy bool
	Edits int
	Col   int
}

// Not excludes the documents its node matches from the And it stands in
// ("-x", "NOT x"). Parse puts a Not only in an And that has a child that is
// not a Not, never directly in another Not.
type Not struct {
	Node Node
	Col  int
}

// And matches the documents every child matches. It has at least two children,
// none of them an *And.
type And struct {
	Nodes []Node
	Col   int
}

// Or matches the documents any child matches. It has at least two children,
// none of them an *Or.
type Or struct {
	Nodes []Node
	Col   int
}

// Column implements Node.
func (t *Text) Column() int { return t.Col }
func (a *And) Column() int  { return a.Col }
func (o *Or) Column() int   { return o.Col }
func (n *Not) Column() int  { return n.Col }

// String implements Node.
func (n *Not) String() string {
	if t, ok := n.Node.(*Text); ok {
		return "-" + t.String()
	}
	return "-(" + n.Node.String() + ")"
}

// String implements Node.
func (t *Text) String() string {
	var b strings.Builder
	if t.Field != "" {
		b.WriteString(t.Field)
		b.WriteByte(':')
	}
	if t.Quoted {
		b.WriteByte('"')
		writePhraseText(&b, t.Raw)
		if t.Prefix {
			b.WriteByte('*')
		}
		b.WriteByte('"')
		if t.Slop > 0 {
			b.WriteByte('~')
			b.WriteString(strconv.Itoa(t.Slop))
		}
		return b.String()
	}
	if isOperator(t.Raw) || strings.HasPrefix(t.Raw, "-") || strings.HasPrefix(t.Raw, "/") {
		b.WriteByte('\\')
	}
	writeEscaped(&b, t.Raw, func(r rune) bool { return isSpecial(r) || unicode.IsSpace(r) })
	if t.Prefix {
		b.WriteByte('*')
	}
	if t.Fuzzy {
		b.WriteByte('~')
		b.WriteString(strconv.Itoa(t.Edits))
	}
	return b.String()
}

// String implements Node.
func (a *And) String() string {
	parts := make([]string, len(a.Nodes))
	for i, n := range a.Nodes {
		if _, ok := n.(*Or); ok {
			parts[i] = "(" + n.String() + ")"
		} else {
			parts[i] = n.String()
		}
	}
	return strings.Join(parts, " ")
}

// String implements Node.
func (o *Or) String() string {
	parts := make([]string, len(o.Nodes))
	for i, n := range o.Nodes {
		parts[i] = n.String()
	}
	return strings.Join(parts, " OR ")
}

// writeEscaped writes s, putting a backslash before every rune esc selects. Invalid
// UTF-8 bytes are copied as they are.
func writeEscaped(b *strings.Builder, s string, esc func(rune) bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if esc(r) {
			b.WriteByte('\\')
		}
		b.WriteString(s[i : i+size])
		i += size
	}
}

// isSpecial reports the runes that end a bare word or have a meaning in it.
func isSpecial(r rune) bool {
	switch r {
	case '"', '(', ')', '*', '?', '\\', ':', '~':
		return true
	}
	return false
}

func isOperator(s string) bool { return s == "OR" || s == "AND" || s == "NOT" }

// Walk calls fn for n and every node below it, depth first, parents first.
func Walk(n Node, fn func(Node)) {
	fn(n)
	switch n := n.(type) {
	case *And:
		for _, c := range n.Nodes {
			Walk(c, fn)
		}
	case *Or:
		for _, c := range n.Nodes {
			Walk(c, fn)
		}
	case *Not:
		Walk(n.Node, fn)
	}
}
