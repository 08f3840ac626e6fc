//go:build !race

package reader_test

const raceEnabled = false
