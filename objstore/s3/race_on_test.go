//go:build race

package s3_test

// raceEnabled: the race detector is on; the slow tests do less.
const raceEnabled = true
