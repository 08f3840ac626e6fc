//go:build race

package search_test

// raceEnabled: the race detector is on; the slow tests do less.
const raceEnabled = true
