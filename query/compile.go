package query

import (
	"errors"
	"fmt"
	"strings"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/querylang"
	"github.com/snii-go/snii/reader"
)

// Analyzer turns a field's text into its terms (*reader.Segment is one).
type Analyzer interface {
	Analyze(field, text string) ([]string, error)
}

// Options tune Compile. The zero value has no default field, so that a text
// written without "field:" is an error rather than a silent search of a field
// the caller did not choose: set DefaultField to search bare text.
type Options struct {
	// DefaultField is the field of text written without "field:". When it is
	// empty, such text is a *Error.
	DefaultField string
	// MaxExpansions bounds a prefix (a phrase prefix's last term, a fuzzy term) to its
	// first terms in byte order (0: unlimited; negative is an error).
	MaxExpansions int
}

// Error is a query that cannot be used, at a 1-based column (in characters,
// where the offending text starts): it does not parse (Syntax), or a text in
// it cannot be compiled (a text without searchable terms, a text without a
// field when Options.DefaultField is empty, a field the analyzer does not
// know). Err, when set, is the analyzer's error.
//
// An Error wraps exactly one kind: the analyzer's (snii.ErrNotFound for a
// field a segment does not have, snii.ErrClosed after the segment's Close)
// when Err is set, snii.ErrInvalidArgument otherwise.
type Error struct {
	Column int
	Msg    string
	Syntax bool // the query does not parse
	Err    error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("at column %d: %s: %v", e.Column, e.Msg, e.Err)
	}
	return fmt.Sprintf("at column %d: %s", e.Column, e.Msg)
}

// Unwrap returns Err, or snii.ErrInvalidArgument when Err is nil.
func (e *Error) Unwrap() error {
	if e.Err != nil {
		return e.Err
	}
	return snii.ErrInvalidArgument
}

// Compile parses q (see the package documentation for the language; a query
// that does not parse is an *Error with Syntax set) and turns it into a reader.Query,
// analyzing every text with its field's analyzer: a text of one term is a
// Term (a Prefix when it ends in '*', a Fuzzy with "~N", a Term again with
// "~0"), of several a Phrase (a PhrasePrefix with '*', a SloppyPhrase with
// "~N"); bare words and quoted text alike. A fuzzy text must analyze to one
// term. An And's Not children become an AndNot of the others and the union
// of what they exclude. A query that parses but does not compile is a
// *Error.
func Compile(q string, a Analyzer, o Options) (reader.Query, error) {
	n, err := querylang.Parse(q)
	if err != nil {
		var se *querylang.SyntaxError
		if errors.As(err, &se) {
			return nil, &Error{Column: se.Column, Msg: se.Msg, Syntax: true}
		}
		return nil, err
	}
	if o.MaxExpansions < 0 {
		return nil, errs.Invalidf("query: negative max expansions %d", o.MaxExpansions)
	}
	return compile(n, a, &o)
}

func compile(n querylang.Node, a Analyzer, o *Options) (reader.Query, error) {
	switch n := n.(type) {
	case *querylang.And:
		var pos, neg []reader.Query
		for _, c := range n.Nodes {
			target := &pos
			if nc, ok := c.(*querylang.Not); ok {
				c, target = nc.Node, &neg
			}
			if !querylang.Positive(c) {
				return nil, errs.Invalidf("query: %s: nothing to match besides NOT", c)
			}
			q, err := compile(c, a, o)
			if err != nil {
				return nil, err
			}
			*target = append(*target, q)
		}
		if len(pos) == 0 {
			return nil, errs.Invalidf("query: %s: nothing to match besides NOT", n)
		}
		q := one(pos, reader.And)
		if len(neg) > 0 {
			q = reader.AndNot(q, one(neg, reader.Or))
		}
		return q, nil
	case *querylang.Or:
		qs := make([]reader.Query, len(n.Nodes))
		for i, c := range n.Nodes {
			if !querylang.Positive(c) {
				return nil, errs.Invalidf("query: %s: nothing to match besides NOT", c)
			}
			var err error
			if qs[i], err = compile(c, a, o); err != nil {
				return nil, err
			}
		}
		return reader.Or(qs...), nil
	case *querylang.Text:
		return compileText(n, a, o)
	case *querylang.Pattern:
		return compilePattern(n, a, o)
	case *querylang.PatternPhrase:
		return compilePatternPhrase(n, a, o)
	}
	return nil, errs.Invalidf("query: unexpected node %T", n)
}

// one returns the only query of qs, or combine(qs...).
func one(qs []reader.Query, combine func(...reader.Query) reader.Query) reader.Query {
	if len(qs) == 1 {
		return qs[0]
	}
	return combine(qs...)
}

// fieldOf returns the field a node searches: its own, else o.DefaultField;
// neither is a *Error at the node's column.
func fieldOf(n querylang.Node, own string, col int, o *Options) (string, error) {
	if own != "" {
		return own, nil
	}
	if o.DefaultField == "" {
		return "", &Error{Column: col, Msg: fmt.Sprintf("%s names no field and Options.DefaultField is empty (write field:text or set a default field)", n)}
	}
	return o.DefaultField, nil
}

func compileText(n *querylang.Text, a Analyzer, o *Options) (reader.Query, error) {
	field, err := fieldOf(n, n.Field, n.Col, o)
	if err != nil {
		return nil, err
	}
	if n.Slop < 0 || n.Slop > 0 && n.Prefix {
		return nil, errs.Invalidf("query: %s: invalid slop", n)
	}
	if n.Fuzzy && (n.Quoted || n.Prefix || n.Edits < 0 || n.Edits > reader.MaxEdits) {
		return nil, errs.Invalidf("query: %s: invalid fuzzy term", n)
	}
	terms, err := a.Analyze(field, n.Raw)
	if err != nil {
		return nil, &Error{Column: n.Col, Msg: fmt.Sprintf("%s: field %q", errs.Excerpt(n.String()), errs.Excerpt(field)), Err: err}
	}
	if len(terms) == 0 {
		return nil, &Error{Column: n.Col, Msg: fmt.Sprintf("%s has no searchable terms for the analyzer of field %q", errs.Excerpt(n.String()), errs.Excerpt(field))}
	}
	switch {
	case n.Fuzzy && len(terms) != 1:
		return nil, &Error{Column: n.Col, Msg: fmt.Sprintf("%s: a fuzzy term must be one term, and the analyzer of field %q makes %d of it (%s)",
			errs.Excerpt(n.String()), errs.Excerpt(field), len(terms), errs.Excerpt(strings.Join(terms, " ")))}
	case n.Fuzzy && n.Edits == 0:
		return reader.Term(field, terms[0]), nil
	case n.Fuzzy:
		return reader.Fuzzy(field, terms[0], n.Edits, o.MaxExpansions), nil
	case n.Prefix && len(terms) == 1:
		return reader.Prefix(field, terms[0], o.MaxExpansions), nil
	case n.Prefix:
		return reader.PhrasePrefix(field, o.MaxExpansions, terms...), nil
	case len(terms) == 1:
		return reader.Term(field, terms[0]), nil
	case n.Slop > 0:
		return reader.SloppyPhrase(field, n.Slop, terms...), nil
	}
	return reader.Phrase(field, terms...), nil
}
