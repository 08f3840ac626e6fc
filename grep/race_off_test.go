//go:build !race

package grep_test

const raceEnabled = false
