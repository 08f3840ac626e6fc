//go:build race

package prx

// raceEnabled: the race detector is on (it makes allocation counts meaningless).
const raceEnabled = true
