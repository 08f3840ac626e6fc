package main

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/snii-go/snii/cmd/snii/internal/querylang"
	"github.com/snii-go/snii/reader"
)

// defaultField picks the field a query searches: the given one (which must
// exist), else the only field, else "text"; anything else is a usage error that
// lists the fields.
func defaultField(have []string, given string) (string, error) {
	switch {
	case given != "":
		if slices.Contains(have, given) {
			return given, nil
		}
		return "", usagef("no field %q in the segment (fields: %s)", given, strings.Join(have, ", "))
	case len(have) == 1:
		return have[0], nil
	case slices.Contains(have, linesField):
		return linesField, nil
	}
	return "", usagef("the segment has several fields, pick one with --field (fields: %s)", strings.Join(have, ", "))
}

// analyzer is what compileQuery needs of a segment.
type analyzer interface {
	Analyze(field, text string) ([]string, error)
}

// compileQuery parses a query and turns it into a reader.Query over field,
// running the field's analyzer over every text. A syntax error is a usage error
// with a caret under the column.
func compileQuery(seg analyzer, field, q string, maxExp int) (reader.Query, querylang.Node, error) {
	n, err := querylang.Parse(q)
	if err != nil {
		col := 0
		if se, ok := err.(*querylang.SyntaxError); ok {
			col = se.Column
		}
		return nil, nil, usageError{hinted{fmt.Errorf("query syntax error %w", err), caret(q, col)}}
	}
	rq, err := toReader(seg, field, n, maxExp, q)
	return rq, n, err
}

func toReader(seg analyzer, field string, n querylang.Node, maxExp int, q string) (reader.Query, error) {
	switch n := n.(type) {
	case *querylang.And:
		qs := make([]reader.Query, len(n.Nodes))
		for i, c := range n.Nodes {
			var err error
			if qs[i], err = toReader(seg, field, c, maxExp, q); err != nil {
				return nil, err
			}
		}
		return reader.And(qs...), nil
	case *querylang.Or:
		qs := make([]reader.Query, len(n.Nodes))
		for i, c := range n.Nodes {
			var err error
			if qs[i], err = toReader(seg, field, c, maxExp, q); err != nil {
				return nil, err
			}
		}
		return reader.Or(qs...), nil
	case *querylang.Text:
		terms, err := seg.Analyze(field, n.Raw)
		if err != nil {
			return nil, err
		}
		if len(terms) == 0 {
			return nil, usageError{hinted{fmt.Errorf("query: at column %d: %s has no searchable terms for the analyzer of field %q", n.Col, n.String(), field), caret(q, n.Col)}}
		}
		switch {
		case n.Prefix && len(terms) == 1:
			return reader.Prefix(field, terms[0], maxExp), nil
		case n.Prefix:
			return reader.PhrasePrefix(field, terms, maxExp), nil
		case len(terms) == 1:
			return reader.Term(field, terms[0]), nil
		}
		return reader.Phrase(field, terms...), nil
	}
	return nil, fmt.Errorf("query: unexpected node %T", n)
}

// caret renders the query and a '^' under the 1-based column (none when col is 0).
func caret(q string, col int) string {
	if col <= 0 || strings.ContainsAny(q, "\n\r") || utf8.RuneCountInString(q) > 200 {
		return ""
	}
	q = strings.ReplaceAll(q, "\t", " ")
	return "  " + q + "\n  " + strings.Repeat(" ", col-1) + "^"
}
