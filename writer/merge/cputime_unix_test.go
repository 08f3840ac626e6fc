//go:build unix

package merge_test

import (
	"time"

	"golang.org/x/sys/unix"
)

// cpuTime returns the CPU time (user + system) the process has used: on a
// shared machine it varies much less than wall time.
func cpuTime() time.Duration {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
