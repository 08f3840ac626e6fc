//go:build unix

package writer

import "golang.org/x/sys/unix"

// mapRaw returns n bytes of zeroed memory outside the Go heap (an anonymous
// private mapping). The term buffer keeps its pool there, so the garbage
// collector's heap goal (twice the live heap by default) does not double the
// buffer's footprint; the memory holds no Go pointers.
func mapRaw(n int) ([]byte, error) {
	return unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
}

// lazyMap: a mapping's pages take memory only once touched, so a mapping may
// reserve more than it will use.
const lazyMap = true

// dropPages gives the pages of b (from mapRaw) back to the system; b stays
// mapped and reads zero until written again.
func dropPages(b []byte) { _ = unix.Madvise(b, unix.MADV_DONTNEED) }

// unmapRaw releases memory from mapRaw.
func unmapRaw(b []byte) error { return unix.Munmap(b) }
