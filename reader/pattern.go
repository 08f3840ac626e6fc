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
	prog *syntax.Prog   // the same expression, anchored: its automaton (termDFA)
	lit  []byte         // every matching term starts with lit
	// whole: lit is the only term that can match.
	whole bool
	// prefixes, when set, are literal prefixes (sorted, prefix-free, at
	// least two, or one longer than lit) one of which every matching term
	// starts with: the expansion seeks to each.
	prefixes [][]byte
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
	p := &pattern{re: rx, prog: prog, lit: []byte(lit), whole: whole}
	if pres := literalPrefixes(re.Simplify()); !whole && (len(pres) > 1 || len(pres) == 1 && len(pres[0]) > len(lit)) {
		for _, s := range pres {
			p.prefixes = append(p.prefixes, []byte(s))
		}
	}
	return p, nil
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
// literal prefix, or to each of its literal prefixes in turn, and stops past
// its range; a later block is skipped when the common prefix of its first
// term and the next block's first term (a prefix of every term of the block)
// leaves the automaton no thread, and the walk seeks past the terms under a
// prefix after which nothing can match. Each dict entry is visited at most
// once, and matched by a termMatcher (each term's characters past its common
// prefix with the previous term). term is valid during fn.
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
	m := newTermMatcher(p)
	skip := func(bi int) bool { // no term of the block can match
		return bi+1 < len(ft) && !m.d.viable(ft[bi][:lcpLen(ft[bi], ft[bi+1])])
	}
	if p.prefixes == nil {
		return f.scanRange(x, p.lit, skip, m.match, max, fn)
	}
	n, stop := 0, false
	count := func(term []byte, e *format.Entry) (bool, error) {
		n++
		more, err := fn(term, e)
		stop = !more
		return more, err
	}
	for _, pre := range p.prefixes {
		rest := 0 // all
		if max > 0 {
			if rest = max - n; rest == 0 {
				return nil
			}
		}
		if err := f.scanRange(x, pre, skip, m.match, rest, count); err != nil || stop {
			return err
		}
	}
	return nil
}
