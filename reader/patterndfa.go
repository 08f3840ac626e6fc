package reader

import (
	"regexp/syntax"
	"slices"
	"unicode/utf8"

	"github.com/snii-go/snii/internal/redfa"
)

const (
	deadState    = redfa.Dead    // no thread left: nothing matches from here
	unknownState = redfa.Unknown // the automaton gave up (too many states)
)

// termDFA is the automaton of a pattern's anchored program (redfa). It
// answers matching exactly when the program has no assertion besides the
// \A and \z that wrap the pattern (exact), and prefix viability always
// (erring towards true). It is built per scan and is not safe for
// concurrent use.
type termDFA struct {
	*redfa.DFA
	exact bool
}

// newTermDFA returns the automaton of p's anchored program.
func newTermDFA(prog *syntax.Prog) *termDFA {
	d := redfa.New(prog)
	return &termDFA{DFA: d, exact: d.EmptyWidths() == 2}
}

// viable reports whether some term starting with prefix may match: false
// only when the automaton has no thread left after reading prefix (a prefix
// ending inside a character counts up to its last whole one).
func (d *termDFA) viable(prefix []byte) bool {
	for i := len(prefix) - 1; i >= 0 && i >= len(prefix)-utf8.UTFMax; i-- {
		if utf8.RuneStart(prefix[i]) {
			if !utf8.FullRune(prefix[i:]) {
				prefix = prefix[:i] // a character cut short: its rest is in the term
			}
			break
		}
	}
	s := d.Start()
	for len(prefix) > 0 && s > deadState {
		r, n := utf8.DecodeRune(prefix)
		prefix = prefix[n:]
		s = d.Step(s, r)
	}
	return s != deadState
}

// termMatcher matches the terms of a dictionary walk, in byte order, against
// a pattern: the automaton resumes from the state it had after the longest
// common prefix with the previous term, so a run of terms sharing a prefix
// reads that prefix once (and a prefix with no thread left rules out every
// term that starts with it).
type termMatcher struct {
	d        *termDFA
	fallback func([]byte) bool // the regexp, when the automaton is not exact or gave up
	prev     []byte
	// trail[i] is the state after prev[:i] where i is a resumable position
	// (a rune boundary with only whole valid characters before it), else
	// unknownState; it is computed up to len(trail)-1.
	trail []int32
	// dead is the length of prev's shortest prefix after which no
	// continuation can match (no thread left, or only Match), -1 when none
	// is known: a later term starting with it is skipped by seeking.
	dead int
	// steps counts the characters the automaton read (a work counter).
	steps int64
}

func newTermMatcher(p *pattern) *termMatcher {
	d := newTermDFA(p.prog)
	return &termMatcher{d: d, fallback: p.re.Match, trail: []int32{d.Start()}, dead: -1}
}

// match reports whether p matches the whole term, for terms in ascending
// order. When it does not and no term before skipTo (which is greater than
// term) can match either, because they all start with a prefix of term after
// which nothing can, skipTo is set: the walk may seek there.
func (m *termMatcher) match(term []byte) (ok bool, skipTo []byte) {
	if !m.d.exact {
		return m.fallback(term), nil
	}
	l := min(lcpLen(m.prev, term), len(m.trail)-1)
	if m.dead >= 0 && l >= m.dead {
		// term starts with the dead prefix (and, being greater than prev,
		// is longer than it when it ended in Match only)
		return false, successor(term[:m.dead])
	}
	for l > 0 && m.trail[l] == unknownState {
		l--
	}
	m.prev = append(m.prev[:0], term...)
	m.trail = m.trail[:l+1]
	m.dead = -1
	s := m.trail[l]
	i := l
	valid := true // only whole valid characters so far: positions resumable
	for i < len(term) && s > deadState {
		c := term[i]
		m.steps++
		if c < utf8.RuneSelf {
			s = m.d.Step(s, rune(c))
			i++
		} else {
			r, n := utf8.DecodeRune(term[i:])
			if r == utf8.RuneError && n == 1 {
				valid = false // its width depended on the bytes after it
			}
			s = m.d.Step(s, r)
			for k := 1; k < n; k++ {
				m.trail = append(m.trail, unknownState)
			}
			i += n
		}
		if !valid {
			m.trail = append(m.trail, unknownState)
			continue
		}
		m.trail = append(m.trail, s)
		if m.dead < 0 && s >= deadState && m.d.Final(s) {
			m.dead = i // nothing can follow prev[:i]
		}
	}
	switch {
	case s == unknownState:
		m.trail, m.dead = m.trail[:1], -1
		return m.fallback(term), nil
	case s == deadState:
		return false, nil
	}
	return m.d.Match(s), nil
}

// successor returns the least string greater than every string starting
// with p (nil when p is empty or all 0xff bytes).
func successor(p []byte) []byte {
	q := slices.Clone(p)
	for len(q) > 0 {
		if q[len(q)-1] < 0xff {
			q[len(q)-1]++
			return q
		}
		q = q[:len(q)-1]
	}
	return nil
}
