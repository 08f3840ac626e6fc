//go:build unix

package testkit

import (
	"time"

	"golang.org/x/sys/unix"
)

// CPUTime returns the CPU time (user + system) the process has used: on a
// shared machine it varies much less than wall time. It is 0 when it cannot
// be measured.
func CPUTime() time.Duration {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
