//go:build !unix

package writer

// mapRaw returns n bytes of zeroed memory (on the Go heap on this platform).
func mapRaw(n int) ([]byte, error) { return make([]byte, n), nil }

// lazyMap is false: a mapping here is committed memory.
const lazyMap = false

// dropPages does nothing here (the memory is the garbage collector's).
func dropPages([]byte) {}

// unmapRaw releases memory from mapRaw (the garbage collector does, here).
func unmapRaw([]byte) error { return nil }
