//go:build race

package grep_test

// raceEnabled: the race detector is on (sync.Pool drops items at random, so
// allocation counts are meaningless).
const raceEnabled = true
