package grep

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
)

// maxSet bounds the strings of an exact, prefix or suffix set: a larger set
// is given up (turned into a requirement, or forgotten).
const maxSet = 16

// edge marks where a match must start or end: the start or end of the
// record (\A, \z, and ^, $ without (?m)). A literal next to one is whole
// there. It is a byte no literal of a regexp holds (they are valid UTF-8).
const edge = "\xff"

// req is a requirement on a record's text: every (and) or some (or) of its
// children hold; a leaf is a literal string the text must contain (it may
// start or end with edge). A nil *req always holds.
type req struct {
	and  bool
	lit  string
	kids []*req
	leaf bool
}

func litReq(s string) *req { return &req{leaf: true, lit: s} }

func andReq(a, b *req) *req {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return &req{and: true, kids: []*req{a, b}}
}

// orReq is the disjunction of rs: nil (always) when any of them always holds.
func orReq(rs ...*req) *req {
	if len(rs) == 0 || slices.Contains(rs, nil) {
		return nil
	}
	if len(rs) == 1 {
		return rs[0]
	}
	return &req{kids: rs}
}

// setReq requires one of the strings (nil when one of them is empty).
func setReq(set []string) *req {
	var rs []*req
	for _, s := range set {
		if strings.ReplaceAll(s, edge, "") == "" {
			return nil
		}
		rs = append(rs, litReq(s))
	}
	return orReq(rs...)
}

// info is what a regexp tells about the text of its matches: the whole match
// is one of exact (when exact is set), or starts with one of pre and ends with
// one of suf ("" in them: no knowledge), and req holds in every text holding a
// match.
type info struct {
	exact    []string
	isExact  bool
	pre, suf []string
	req      *req
}

var unknown = info{pre: []string{""}, suf: []string{""}}

func exactInfo(set ...string) info { return info{exact: set, isExact: true} }

// full is the requirement of a text holding a match.
func (i info) full() *req {
	if i.isExact {
		return andReq(i.req, setReq(i.exact))
	}
	return andReq(i.req, andReq(setReq(i.pre), setReq(i.suf)))
}

// foldLower returns the lower cases of the runes a case-insensitive r
// matches, as strings.
func foldLower(r rune) []string {
	set := []string{string(unicode.ToLower(r))}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		set = append(set, string(unicode.ToLower(f)))
	}
	slices.Sort(set)
	return slices.Compact(set)
}

// analyze derives the info of re. lower says the analyzer lowercases (then a
// case-insensitive literal is its lower case; otherwise it tells nothing).
func analyze(re *syntax.Regexp, lower bool) info {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginLine, syntax.OpEndLine:
		return exactInfo("")
	case syntax.OpBeginText, syntax.OpEndText:
		return exactInfo(edge)
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase == 0 {
			return exactInfo(string(re.Rune))
		}
		if !lower {
			return unknown
		}
		// Each rune is the lower case of the runes it matches: one, or a
		// set ('s' matches 'ſ', whose lower case is itself).
		parts := make([]info, len(re.Rune))
		for i, r := range re.Rune {
			parts[i] = exactInfo(foldLower(r)...)
		}
		return concatAll(parts)
	case syntax.OpCharClass:
		n := 0
		for i := 0; i < len(re.Rune); i += 2 {
			n += int(re.Rune[i+1]-re.Rune[i]) + 1
			if n > 4 {
				return unknown
			}
		}
		var set []string
		for i := 0; i < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				set = append(set, string(r))
			}
		}
		return exactInfo(set...)
	case syntax.OpCapture:
		return analyze(re.Sub[0], lower)
	case syntax.OpConcat:
		parts := make([]info, len(re.Sub))
		for i, s := range re.Sub {
			parts[i] = analyze(s, lower)
		}
		return concatAll(parts)
	case syntax.OpAlternate:
		out := analyze(re.Sub[0], lower)
		for _, s := range re.Sub[1:] {
			out = alternate(out, analyze(s, lower))
		}
		return out
	case syntax.OpQuest:
		x := analyze(re.Sub[0], lower)
		if x.isExact {
			return alternate(x, exactInfo(""))
		}
		return unknown
	case syntax.OpPlus:
		x := analyze(re.Sub[0], lower)
		out := info{req: x.full(), pre: x.pre, suf: x.suf}
		if x.isExact {
			out.pre, out.suf = x.exact, x.exact
		}
		return out
	case syntax.OpRepeat:
		if re.Min == 0 {
			return unknown
		}
		x := analyze(re.Sub[0], lower)
		return info{req: x.full(), pre: []string{""}, suf: []string{""}}
	}
	// OpStar, OpAnyChar, OpAnyCharNotNL, OpNoMatch: no knowledge.
	return unknown
}

func concatAll(parts []info) info {
	out := exactInfo("")
	for _, p := range parts {
		out = concat(out, p)
	}
	return out
}

// cross returns every a+b, or nil when there would be more than maxSet.
func cross(a, b []string) []string {
	if len(a)*len(b) > maxSet {
		return nil
	}
	var out []string
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func concat(x, y info) info {
	if x.isExact && y.isExact {
		if set := cross(x.exact, y.exact); set != nil {
			return info{exact: set, isExact: true, req: andReq(x.req, y.req)}
		}
	}
	out := info{req: andReq(x.req, y.req)}
	// The strings spanning the boundary: x's suffixes then y's prefixes.
	xs, yp := x.suf, y.pre
	if x.isExact {
		xs = x.exact
	}
	if y.isExact {
		yp = y.exact
	}
	if mid := cross(xs, yp); mid != nil {
		out.req = andReq(out.req, setReq(mid))
	} else {
		out.req = andReq(out.req, andReq(setReq(xs), setReq(yp)))
	}
	out.pre, out.suf = x.pre, y.suf
	if x.isExact {
		out.pre = cross(x.exact, y.pre)
		if y.isExact {
			out.pre = x.exact
		}
	}
	if y.isExact {
		out.suf = cross(x.suf, y.exact)
		if x.isExact {
			out.suf = y.exact
		}
	}
	if out.pre == nil {
		out.pre = []string{""}
	}
	if out.suf == nil {
		out.suf = []string{""}
	}
	return out
}

func union(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

func alternate(x, y info) info {
	if x.isExact && y.isExact && x.req == nil && y.req == nil {
		if set := union(x.exact, y.exact); len(set) <= maxSet {
			return exactInfo(set...)
		}
	}
	out := info{req: orReq(x.full(), y.full())}
	xp, xs, yp, ys := x.pre, x.suf, y.pre, y.suf
	if x.isExact {
		xp, xs = x.exact, x.exact
	}
	if y.isExact {
		yp, ys = y.exact, y.exact
	}
	out.pre, out.suf = union(xp, yp), union(xs, ys)
	if len(out.pre) > maxSet {
		out.pre = []string{""}
	}
	if len(out.suf) > maxSet {
		out.suf = []string{""}
	}
	return out
}
