//go:build !race

package prx

const raceEnabled = false
