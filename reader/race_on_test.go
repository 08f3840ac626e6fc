//go:build race

package reader_test

// raceEnabled: the race detector is on (sync.Pool drops items at random, so
// allocation counts are meaningless, and everything runs several times slower).
const raceEnabled = true
