package testkit

import "runtime"

// AllocBytes returns the bytes allocated (runtime.MemStats.TotalAlloc) while fn
// runs, after a collection.
func AllocBytes(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}
