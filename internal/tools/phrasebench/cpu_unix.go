//go:build linux || freebsd || netbsd || openbsd || dragonfly || solaris

package main

import "golang.org/x/sys/unix"

// threadCPU returns the calling thread's CPU time in nanoseconds.
func threadCPU() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		fail(err)
	}
	return ts.Nano()
}
