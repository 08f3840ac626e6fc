package redfa

import (
	"regexp/syntax"
	"slices"
	"unicode/utf8"
)

// MaxStates bounds the states a DFA builds.
const MaxStates = 2048

// Special states.
const (
	Dead    int32 = 0  // no thread left: nothing matches from here
	Unknown int32 = -1 // the automaton gave up (too many states)
)

// DFA is the lazily built automaton of one program.
type DFA struct {
	prog   *syntax.Prog
	start  int32
	widths int
	states []state
	ids    map[string]int32
	// scratch for closures: the instructions marked, the rune-consuming
	// ones and Match among them, the state key
	on     []bool
	marked []uint32
	stack  []uint32
	pcs    []uint32
	key    []byte
}

type state struct {
	insts []uint32 // the rune-consuming instructions, ascending
	match bool
	ascii [utf8.RuneSelf]int32 // transition on an ASCII rune, plus one (0: not built yet)
	other map[rune]int32       // transitions on other runes
}

// New returns the automaton of prog, with its start state built.
func New(prog *syntax.Prog) *DFA {
	d := &DFA{prog: prog, ids: map[string]int32{}, on: make([]bool, len(prog.Inst))}
	for i := range prog.Inst {
		if prog.Inst[i].Op == syntax.InstEmptyWidth {
			d.widths++
		}
	}
	d.states = append(d.states, state{})
	d.ids[""] = Dead
	d.add(uint32(prog.Start))
	d.start = d.intern()
	return d
}

// EmptyWidths returns the number of empty-width instructions of the program
// (the assertions taken as satisfied).
func (d *DFA) EmptyWidths() int { return d.widths }

// Start returns the start state.
func (d *DFA) Start() int32 { return d.start }

// Match reports whether the known state s has reached Match.
func (d *DFA) Match(s int32) bool { return d.states[s].match }

// Final reports whether nothing can be read from the known state s: it is
// Dead, or has reached Match with no thread left to extend it.
func (d *DFA) Final(s int32) bool { return len(d.states[s].insts) == 0 }

// add puts the closure of pc into the scratch set.
func (d *DFA) add(pc uint32) {
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

// intern returns the state of the scratch set and clears it; Unknown when a
// new state would pass MaxStates.
func (d *DFA) intern() int32 {
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
	if len(d.states) >= MaxStates {
		return Unknown
	}
	id := int32(len(d.states))
	d.states = append(d.states, state{insts: insts, match: match})
	d.ids[string(d.key)] = id
	return id
}

// Step returns the state after reading r in the known state s.
func (d *DFA) Step(s int32, r rune) int32 {
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
	if n == Unknown {
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
