package grep

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/snii-go/snii/internal/redfa"
)

// matcherFactory returns a function that makes record matchers for re, one
// per goroutine. A record without re's required literal (requiredLiteral)
// does not match; the others are matched by an automaton of recordProgram's
// program when there is one, which reads the record once and stops at the
// first state that reached Match (past redfa.MaxStates it falls back to
// re.Match), else by re.Match.
func matcherFactory(re *regexp.Regexp) func() func(rec []byte) bool {
	lit := []byte(requiredLiteral(re))
	prog := recordProgram(re)
	if prog == nil {
		if len(lit) == 0 {
			return func() func([]byte) bool { return re.Match }
		}
		return func() func([]byte) bool {
			return func(rec []byte) bool { return bytes.Contains(rec, lit) && re.Match(rec) }
		}
	}
	return func() func([]byte) bool {
		d := redfa.New(prog)
		gaveUp := false
		return func(rec []byte) bool {
			if !bytes.Contains(rec, lit) {
				return false
			}
			if gaveUp {
				return re.Match(rec)
			}
			s := d.Start()
			for i := 0; !d.Match(s); {
				if i == len(rec) {
					return false
				}
				r, n := rune(rec[i]), 1
				if r >= utf8.RuneSelf {
					r, n = utf8.DecodeRune(rec[i:])
				}
				i += n
				if s = d.Step(s, r); s == redfa.Unknown {
					gaveUp = true
					return re.Match(rec)
				}
			}
			return true
		}
	}
}

// recordProgram returns the program of (?s:.*)(?:re), matched by an
// automaton, when re has no literal prefix (regexp then tries a match at
// every position of a record, where regexp's literal scan would be faster)
// and no assertion (which the automaton cannot decide); nil otherwise.
func recordProgram(re *regexp.Regexp) *syntax.Prog {
	if lit, _ := re.LiteralPrefix(); lit != "" {
		return nil
	}
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	anyRun := &syntax.Regexp{Op: syntax.OpStar, Flags: syntax.Perl, Sub: []*syntax.Regexp{{Op: syntax.OpAnyChar}}}
	prog, err := syntax.Compile((&syntax.Regexp{Op: syntax.OpConcat, Flags: syntax.Perl, Sub: []*syntax.Regexp{anyRun, parsed}}).Simplify())
	if err != nil || redfa.New(prog).EmptyWidths() != 0 {
		return nil
	}
	return prog
}

// requiredLiteral returns the longest string every match of re contains,
// byte for byte ("" when there is none): the longest literal of the
// requirements analyze derives without case folding that hold in every
// match (an Or gives none), cut at the record edges it may hold. A literal
// holding U+FFFD gives none: regexp matches it on any invalid UTF-8 byte.
func requiredLiteral(re *regexp.Regexp) string {
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return ""
	}
	best := ""
	var walk func(r *req)
	walk = func(r *req) {
		switch {
		case r == nil:
		case r.leaf:
			for _, piece := range strings.Split(r.lit, edge) {
				if len(piece) > len(best) && !strings.ContainsRune(piece, utf8.RuneError) {
					best = piece
				}
			}
		case r.and:
			for _, k := range r.kids {
				walk(k)
			}
		}
	}
	walk(analyze(parsed.Simplify(), false).full())
	return best
}
