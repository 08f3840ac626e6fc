package reader

import (
	"regexp/syntax"
	"slices"
	"unicode/utf8"
)

// maxDFAStates bounds the states a termDFA builds; past it the automaton
// gives up (stepping returns unknownState) and matching falls back to the
// pattern's regexp.
const maxDFAStates = 2048

const (
	deadState    int32 = 0  // no thread left: nothing matches from here
	unknownState int32 = -1 // the automaton gave up (too many states)
)

// termDFA is a deterministic automaton over runes built lazily from a
// pattern's anchored program: a state is the set of its rune-consuming
// instructions (and whether Match is reached) after an input, empty-width
// assertions taken as satisfied. It answers matching exactly when the
// program has no assertion besides the anchors that wrap the pattern
// (exact), and prefix viability always (erring towards true). It is built
// per scan and is not safe for concurrent use.
type termDFA struct {
	prog   *syntax.Prog
	exact  bool
	start  int32
	states []dfaState
	ids    map[string]int32
	// scratch for closures: the instructions marked, the rune-consuming
	// ones and Match among them, the state key
	on     []bool
	marked []uint32
	stack  []uint32
	pcs    []uint32
	key    []byte
}

type dfaState struct {
	insts []uint32 // the rune-consuming instructions, ascending
	match bool
	ascii [utf8.RuneSelf]int32 // transition on an ASCII byte, plus one (0: not built yet)
	other map[rune]int32       // transitions on other runes
}

// newTermDFA returns the automaton of p's anchored program.
func newTermDFA(prog *syntax.Prog) *termDFA {
	d := &termDFA{prog: prog, ids: map[string]int32{}, on: make([]bool, len(prog.Inst))}
	widths := 0
	for i := range prog.Inst {
		if prog.Inst[i].Op == syntax.InstEmptyWidth {
			widths++
		}
	}
	d.exact = widths == 2 // the \A and \z around the pattern
	d.states = append(d.states, dfaState{})
	d.ids[""] = deadState
	d.add(uint32(prog.Start))
	d.start = d.intern()
	return d
}

// add puts the closure of pc into the scratch set.
func (d *termDFA) add(pc uint32) {
	d.stack = append(d.stack[:0], pc)
	for len(d.stack) > 0 {
		pc := d.stack[len(d.stack)-1]
		d.stack = d.stack[:len(d.stack)-1]
		if d.on[pc] {
			continue
		}
		d.on[pc] = true
		d.marked = append(d.marked, pc)
		in := &d.prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			d.stack = append(d.stack, in.Out, in.Arg)
		case syntax.InstCapture, syntax.InstNop, syntax.InstEmptyWidth:
			d.stack = append(d.stack, in.Out)
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL, syntax.InstMatch:
			d.pcs = append(d.pcs, pc)
		}
	}
}

// intern returns the state of the scratch set and clears it; unknownState
// when a new state would pass maxDFAStates.
func (d *termDFA) intern() int32 {
	slices.Sort(d.pcs)
	d.key = d.key[:0]
	match := false
	var insts []uint32
	for _, pc := range d.pcs {
		if d.prog.Inst[pc].Op == syntax.InstMatch {
			match = true
			continue
		}
		insts = append(insts, pc)
		d.key = append(d.key, byte(pc), byte(pc>>8), byte(pc>>16), byte(pc>>24))
	}
	if match {
		d.key = append(d.key, 'm')
	}
	for _, pc := range d.marked {
		d.on[pc] = false
	}
	d.marked, d.pcs = d.marked[:0], d.pcs[:0]
	if id, ok := d.ids[string(d.key)]; ok {
		return id
	}
	if len(d.states) >= maxDFAStates {
		return unknownState
	}
	id := int32(len(d.states))
	d.states = append(d.states, dfaState{insts: insts, match: match})
	d.ids[string(d.key)] = id
	return id
}

// step returns the state after reading r in state s (s a known state).
func (d *termDFA) step(s int32, r rune) int32 {
	st := &d.states[s]
	if r < utf8.RuneSelf {
		if n := st.ascii[r]; n != 0 {
			return n - 1
		}
	} else if n, ok := st.other[r]; ok {
		return n
	}
	for _, pc := range st.insts {
		if in := &d.prog.Inst[pc]; in.MatchRune(r) {
			d.add(in.Out)
		}
	}
	n := d.intern()
	if n == unknownState {
		return n
	}
	st = &d.states[s] // intern may have grown the slice
	if r < utf8.RuneSelf {
		st.ascii[r] = n + 1
	} else {
		if st.other == nil {
			st.other = map[rune]int32{}
		}
		st.other[r] = n
	}
	return n
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
	s := d.start
	for len(prefix) > 0 && s > deadState {
		r, n := utf8.DecodeRune(prefix)
		prefix = prefix[n:]
		s = d.step(s, r)
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
	return &termMatcher{d: d, fallback: p.re.Match, trail: []int32{d.start}, dead: -1}
}

// match reports whether p matches the whole term, for terms in ascending
// order. When it does not and no term before skipTo (which is greater than
// term) can match either, because they all start with a prefix of term after
// which nothing can, skipTo is set: the walk may seek there.
func (m *termMatcher) match(term []byte) (ok bool, skipTo []byte) {
	if !m.d.exact || m.d.start == unknownState {
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
			s = m.d.step(s, rune(c))
			i++
		} else {
			r, n := utf8.DecodeRune(term[i:])
			if r == utf8.RuneError && n == 1 {
				valid = false // its width depended on the bytes after it
			}
			s = m.d.step(s, r)
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
		if m.dead < 0 && s >= deadState && len(m.d.states[s].insts) == 0 {
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
	return m.d.states[s].match, nil
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
