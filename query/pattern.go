package query

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode"

	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/querylang"
	"github.com/snii-go/snii/reader"
)

// lowercases reports whether the field's analyzer lowercases ("Snii" gives
// the one term "snii").
func lowercases(a Analyzer, field string) bool {
	terms, err := a.Analyze(field, "Snii")
	return err == nil && len(terms) == 1 && terms[0] == "snii"
}

// lowerLiterals returns expr with the characters of its literals lowercased
// (character classes, escapes like \S and flags keep their meaning; an
// expression with an upper-case literal is rendered anew by regexp/syntax).
func lowerLiterals(expr string) (string, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return "", err
	}
	changed := false
	var walk func(re *syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		if re.Op == syntax.OpLiteral {
			for i, r := range re.Rune {
				if l := unicode.ToLower(r); l != r {
					re.Rune[i], changed = l, true
				}
			}
		}
		for _, s := range re.Sub {
			walk(s)
		}
	}
	walk(re)
	if !changed {
		return expr, nil // as written
	}
	return re.String(), nil
}

// patternText returns the pattern's expression for the field: its literal
// characters lowercased when the analyzer lowercases.
func patternText(p *querylang.Pattern, a Analyzer, field string) (string, error) {
	if !lowercases(a, field) {
		return p.Expr, nil
	}
	if !p.Regexp {
		return strings.ToLower(p.Expr), nil // '*', '?' and '\' have no case
	}
	expr, err := lowerLiterals(p.Expr)
	if err != nil {
		return "", &Error{Column: p.Col, Msg: fmt.Sprintf("%s: invalid regexp", p), Err: err}
	}
	return expr, nil
}

func compilePattern(p *querylang.Pattern, a Analyzer, o *Options) (reader.Query, error) {
	field, err := fieldOf(p, p.Field, p.Col, o)
	if err != nil {
		return nil, err
	}
	expr, err := patternText(p, a, field)
	if err != nil {
		return nil, err
	}
	if p.Regexp {
		return reader.Regexp(field, expr, o.MaxExpansions), nil
	}
	return reader.Wildcard(field, expr, o.MaxExpansions), nil
}

func compilePatternPhrase(pp *querylang.PatternPhrase, a Analyzer, o *Options) (reader.Query, error) {
	field, err := fieldOf(pp, pp.Field, pp.Col, o)
	if err != nil {
		return nil, err
	}
	var slots []reader.Slot
	for _, part := range pp.Parts {
		switch part := part.(type) {
		case *querylang.Pattern:
			expr, err := patternText(part, a, field)
			if err != nil {
				return nil, err
			}
			kind := reader.SlotWildcard
			if part.Regexp {
				kind = reader.SlotRegexp
			}
			slots = append(slots, reader.Slot{Kind: kind, Text: expr})
		case *querylang.Text:
			terms, err := a.Analyze(field, part.Raw)
			if err != nil {
				return nil, &Error{Column: pp.Col, Msg: fmt.Sprintf("%s: field %q", pp, field), Err: err}
			}
			for _, t := range terms {
				slots = append(slots, reader.Slot{Kind: reader.SlotTerm, Text: t})
			}
		default:
			return nil, errs.Invalidf("query: unexpected phrase part %T", part)
		}
	}
	return reader.PatternPhrase(field, slots, o.MaxExpansions), nil
}
