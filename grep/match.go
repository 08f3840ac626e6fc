package grep

import (
	"regexp"
	"regexp/syntax"
	"unicode/utf8"

	"github.com/snii-go/snii/internal/redfa"
)

// matcherFactory returns a function that makes record matchers for re, one
// per goroutine: an automaton of recordProgram's program when there is one,
// which reads the record once and stops at the first state that reached
// Match (past redfa.MaxStates it falls back to re.Match), else re.Match.
func matcherFactory(re *regexp.Regexp) func() func(rec []byte) bool {
	prog := recordProgram(re)
	if prog == nil {
		return func() func([]byte) bool { return re.Match }
	}
	return func() func([]byte) bool {
		d := redfa.New(prog)
		gaveUp := false
		return func(rec []byte) bool {
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
