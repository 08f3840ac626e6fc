// Package redfa is a deterministic automaton over runes built lazily from a
// regexp/syntax program: a state is the set of the program's rune-consuming
// instructions (and whether Match is reached) after an input, with every
// empty-width assertion taken as satisfied. Without assertions in the
// program it decides matching exactly; with them it over-approximates (a
// state may hold threads an assertion would have stopped). It builds at most
// MaxStates states, then gives up (Unknown). A DFA is not safe for
// concurrent use.
package redfa
