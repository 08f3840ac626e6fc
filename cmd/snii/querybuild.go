package main

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/snii-go/snii/internal/querylang"
	"github.com/snii-go/snii/query"
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

// compileQuery parses a query and turns it into a reader.Query over field (the
// default field; "name:" picks another), running the field's analyzer over
// every text. A syntax error, a text without terms and an unknown field are
// usage errors with a caret under the column.
func compileQuery(seg query.Analyzer, field, q string, maxExp int) (reader.Query, querylang.Node, error) {
	rq, err := query.Compile(q, seg, query.Options{DefaultField: field, MaxExpansions: maxExp})
	switch e := err.(type) {
	case *query.Error:
		if e.Syntax {
			return nil, nil, usageError{hinted{fmt.Errorf("query syntax error %w", err), caret(q, e.Column)}}
		}
		return nil, nil, usageError{hinted{fmt.Errorf("query: %w", e), caret(q, e.Column)}}
	case nil:
	default:
		return nil, nil, err
	}
	n, err := querylang.Parse(q) // the tree Compile compiled, for its canonical rendering
	return rq, n, err
}

// caret renders the query and a '^' under the 1-based column (none when col is 0).
func caret(q string, col int) string {
	if col <= 0 || strings.ContainsAny(q, "\n\r") || utf8.RuneCountInString(q) > 200 {
		return ""
	}
	q = strings.ReplaceAll(q, "\t", " ")
	return "  " + q + "\n  " + strings.Repeat(" ", col-1) + "^"
}
