//go:build !(linux || freebsd || netbsd || openbsd || dragonfly || solaris)

package main

// threadCPU is not available here: CPU-time ratios come out as NaN.
func threadCPU() int64 { return 0 }
