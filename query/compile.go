package query

import (
	"fmt"

	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/reader"
)

// Analyzer turns a field's text into its terms (*reader.Segment is one).
type Analyzer interface {
	Analyze(field, text string) ([]string, error)
}

// Options tune Compile. The zero value searches the field "text" with
// unlimited prefix expansions.
type Options struct {
	// Field is the field of text written without "field:" (default "text").
	Field string
	// MaxExpansions bounds a prefix (and a phrase prefix's last term) to its
	// first terms in byte order (0: unlimited; negative is an error).
	MaxExpansions int
}

// CompileError is a query that parses but cannot be compiled: a text without
// searchable terms, or an unknown field. Column is where the text starts;
// Err, when set, is the analyzer's error (errors.Is sees through it).
type CompileError struct {
	Column int
	Msg    string
	Err    error
}

func (e *CompileError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("at column %d: %s: %v", e.Column, e.Msg, e.Err)
	}
	return fmt.Sprintf("at column %d: %s", e.Column, e.Msg)
}

func (e *CompileError) Unwrap() error { return e.Err }

// Compile turns a parsed query into a reader.Query, analyzing every text with
// its field's analyzer: a text of one term is a Term (a Prefix when it ends in
// '*'), of several a Phrase (a PhrasePrefix with '*', a SloppyPhrase with
// "~N"); bare words and quoted text alike. An And's Not children become an
// AndNot of the others and the union of what they exclude. Errors are
// *CompileError, or snii.ErrInvalidArgument for a tree Parse cannot produce.
func Compile(n Node, a Analyzer, o Options) (reader.Query, error) {
	if o.Field == "" {
		o.Field = "text"
	}
	if o.MaxExpansions < 0 {
		return nil, errs.Invalidf("query: negative max expansions %d", o.MaxExpansions)
	}
	if !positive(n) {
		return nil, errs.Invalidf("query: %s: nothing to match besides NOT", n)
	}
	return compile(n, a, &o)
}

func compile(n Node, a Analyzer, o *Options) (reader.Query, error) {
	switch n := n.(type) {
	case *And:
		var pos, neg []reader.Query
		for _, c := range n.Nodes {
			target := &pos
			if nc, ok := c.(*Not); ok {
				c, target = nc.Node, &neg
			}
			if !positive(c) {
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
	case *Or:
		qs := make([]reader.Query, len(n.Nodes))
		for i, c := range n.Nodes {
			if !positive(c) {
				return nil, errs.Invalidf("query: %s: nothing to match besides NOT", c)
			}
			var err error
			if qs[i], err = compile(c, a, o); err != nil {
				return nil, err
			}
		}
		return reader.Or(qs...), nil
	case *Text:
		return compileText(n, a, o)
	case *Pattern:
		return compilePattern(n, a, o)
	case *PatternPhrase:
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

func compileText(n *Text, a Analyzer, o *Options) (reader.Query, error) {
	field := o.Field
	if n.Field != "" {
		field = n.Field
	}
	if n.Slop < 0 || n.Slop > 0 && n.Prefix {
		return nil, errs.Invalidf("query: %s: invalid slop", n)
	}
	terms, err := a.Analyze(field, n.Raw)
	if err != nil {
		return nil, &CompileError{Column: n.Col, Msg: fmt.Sprintf("%s: field %q", n, field), Err: err}
	}
	if len(terms) == 0 {
		return nil, &CompileError{Column: n.Col, Msg: fmt.Sprintf("%s has no searchable terms for the analyzer of field %q", n, field)}
	}
	switch {
	case n.Prefix && len(terms) == 1:
		return reader.Prefix(field, terms[0], o.MaxExpansions), nil
	case n.Prefix:
		return reader.PhrasePrefix(field, terms, o.MaxExpansions), nil
	case len(terms) == 1:
		return reader.Term(field, terms[0]), nil
	case n.Slop > 0:
		return reader.SloppyPhrase(field, n.Slop, terms...), nil
	}
	return reader.Phrase(field, terms...), nil
}
