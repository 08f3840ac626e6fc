package reader

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
)

// pattern is a compiled term pattern: a regular expression (Go's RE2 syntax)
// matched against whole terms, or a wildcard turned into one.
type pattern struct {
	re   *regexp.Regexp // anchored at both ends
	prog *syntax.Prog   // the same expression, for prefix viability (viable)
	lit  []byte         // every matching term starts with lit
	// whole: lit is the only term that can match.
	whole bool
}

// compileRegexp compiles expr (RE2 syntax) to match whole terms.
func compileRegexp(expr string) (*pattern, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, errs.Invalidf("reader: regexp %q: %v", expr, err)
	}
	anchored := &syntax.Regexp{Op: syntax.OpConcat, Flags: syntax.Perl, Sub: []*syntax.Regexp{
		{Op: syntax.OpBeginText}, re, {Op: syntax.OpEndText},
	}}
	prog, err := syntax.Compile(anchored.Simplify())
	if err != nil {
		return nil, errs.Invalidf("reader: regexp %q: %v", expr, err)
	}
	rx, err := regexp.Compile(`^(?:` + expr + `)$`)
	if err != nil {
		return nil, errs.Invalidf("reader: regexp %q: %v", expr, err)
	}
	// The literal prefix: the anchored program has one only when it is
	// one-pass (regexp's prefix scan stops at the leading \A); the bare
	// expression's is one too (a whole match starts where a match does).
	lit, whole := rx.LiteralPrefix()
	if bare, err := regexp.Compile(expr); err == nil {
		if l, c := bare.LiteralPrefix(); len(l) > len(lit) || c && l == lit {
			lit, whole = l, c
		}
	}
	if i := strings.IndexRune(lit, utf8.RuneError); i >= 0 {
		// U+FFFD also matches an invalid byte of a term: no literal from there.
		lit, whole = lit[:i], false
	}
	return &pattern{re: rx, prog: prog, lit: []byte(lit), whole: whole}, nil
}

// compileWildcard compiles a wildcard (see wildcardRegexp).
func compileWildcard(w string) (*pattern, error) {
	expr, err := wildcardRegexp(w)
	if err != nil {
		return nil, err
	}
	return compileRegexp(expr)
}

// wildcardRegexp returns the regular expression of a wildcard: '*' is any
// run of characters (none included), '?' one character, '\' makes the next
// character literal; every other character is literal. A trailing lone '\' is
// an invalid-argument error.
func wildcardRegexp(w string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(w); {
		r, n := utf8.DecodeRuneInString(w[i:])
		switch r {
		case '*':
			b.WriteString(`(?s:.*)`)
		case '?':
			b.WriteString(`(?s:.)`)
		case '\\':
			if i+n == len(w) {
				return "", errs.Invalidf("reader: wildcard %q ends in a lone '\\' (write \\\\ for a backslash)", w)
			}
			i += n
			r, n = utf8.DecodeRuneInString(w[i:])
			quoteRune(&b, r, w[i:i+n])
		default:
			quoteRune(&b, r, w[i:i+n])
		}
		i += n
	}
	return b.String(), nil
}

// quoteRune writes the literal rune r (its bytes s) as a regexp: an invalid
// byte as U+FFFD, which is how regexp reads it in a term.
func quoteRune(b *strings.Builder, r rune, s string) {
	if r == utf8.RuneError && len(s) == 1 {
		b.WriteString(`\x{FFFD}`)
		return
	}
	b.WriteString(regexp.QuoteMeta(s))
}

// viable reports whether some term starting with prefix may match: false
// only when the pattern's automaton has no thread left after reading prefix
// (a prefix ending inside a character counts up to its last whole one).
// Zero-width assertions are taken as satisfied, so the answer errs towards
// true.
func (p *pattern) viable(prefix []byte) bool {
	for i := len(prefix) - 1; i >= 0 && i >= len(prefix)-utf8.UTFMax; i-- {
		if utf8.RuneStart(prefix[i]) {
			if !utf8.FullRune(prefix[i:]) {
				prefix = prefix[:i] // a character cut short: its rest is in the term
			}
			break
		}
	}
	prog := p.prog
	cur := make([]bool, len(prog.Inst))
	next := make([]bool, len(prog.Inst))
	var stack []uint32
	add := func(set []bool, pc uint32) {
		stack = append(stack[:0], pc)
		for len(stack) > 0 {
			pc := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if set[pc] {
				continue
			}
			set[pc] = true
			in := &prog.Inst[pc]
			switch in.Op {
			case syntax.InstAlt, syntax.InstAltMatch:
				stack = append(stack, in.Out, in.Arg)
			case syntax.InstCapture, syntax.InstNop, syntax.InstEmptyWidth:
				stack = append(stack, in.Out)
			}
		}
	}
	add(cur, uint32(prog.Start))
	for len(prefix) > 0 {
		r, n := utf8.DecodeRune(prefix)
		prefix = prefix[n:]
		clear(next)
		alive := false
		for pc, on := range cur {
			if !on {
				continue
			}
			in := &prog.Inst[pc]
			switch in.Op {
			case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
				if in.MatchRune(r) {
					add(next, in.Out)
					alive = true
				}
			}
		}
		if !alive {
			return false
		}
		cur, next = next, cur
	}
	return true
}

// lcpLen is the length of the longest common prefix of a and b.
func lcpLen(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// scanPattern calls fn for each term of the field matching p, in byte order,
// at most max terms (max <= 0: all), until fn returns false. It seeks to p's
// literal prefix and stops past its range; a later block is skipped when the
// common prefix of its first term and the next block's first term (a prefix
// of every term of the block) leaves the automaton no thread. Each dict entry
// is visited at most once. term is valid during fn.
func (f *field) scanPattern(x *qctx, p *pattern, max int, fn func(term []byte, e *format.Entry) (bool, error)) error {
	if p.whole {
		var e format.Entry
		found, err := f.lookup(x, p.lit, &e)
		if err != nil || !found {
			return err
		}
		x.count.dictTerms++
		_, err = fn(p.lit, &e)
		return err
	}
	ft := f.meta.FirstTerms
	skip := func(bi int) bool { // no term of the block can match
		return bi+1 < len(ft) && !p.viable(ft[bi][:lcpLen(ft[bi], ft[bi+1])])
	}
	return f.scanRange(x, p.lit, skip, p.re.Match, max, fn)
}
