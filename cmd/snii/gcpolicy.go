package main

// readGCPercent is the garbage collector's target percentage for the
// commands that read a segment and exit (query, grep, get): their live heap is
// small and bounded by the decode limits, and most of what they allocate
// (decoded blocks, output batches) is reused or dies young, so a collection
// started at the runtime's default of 100 (a 4 MB heap) does work and touches
// memory for nothing. At 400 such a process reaches the end without one; a
// long query still collects, its heap at most five times what it keeps live.
const readGCPercent = 400

// writeGCPercent is the target for the commands that write a segment (build,
// merge). Their bounded memory is the term buffers and the store, outside the
// Go heap or accounted by the memory limit; what the heap holds beyond that
// live set is the garbage of analysis batches and encoders, and at the
// runtime's default of 100 it may grow to twice the live heap before a
// collection. At 50 it stays within half again, so that the process keeps
// within the memory limit plus the 64 MiB the writer documents, for about the
// same CPU.
const writeGCPercent = 50

// gcPercentFor returns the GC percentage to set for the command line args (0:
// keep the runtime's), given the environment's GOGC: the user's setting
// always wins.
func gcPercentFor(args []string, gogc string) int {
	if gogc != "" || len(args) == 0 {
		return 0
	}
	switch args[0] {
	case "query", "grep", "get":
		return readGCPercent
	case "build", "merge":
		return writeGCPercent
	}
	return 0
}
