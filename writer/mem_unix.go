//go:build unix

package writer

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page (x86-64, arm64 with 4 KiB
// base pages).
const hugePage = 2 << 20

// mapRaw returns n bytes of zeroed memory outside the Go heap (an anonymous
// private mapping). The term buffer keeps its pool there, so the garbage
// collector's heap goal (twice the live heap by default) does not double the
// buffer's footprint; the memory holds no Go pointers.
//
// A mapping of at least hugePage bytes starts on a hugePage boundary and is
// marked for transparent huge pages: the term buffer, the forward index and
// the pair buckets are written at scattered places, and one TLB entry then
// covers 2 MiB of them instead of 4 KiB. Pages are still taken only once
// touched (a huge page at a time where the system grants one).
func mapRaw(n int) ([]byte, error) {
	if n <= 0 {
		return nil, unix.EINVAL
	}
	const prot, flags = unix.PROT_READ | unix.PROT_WRITE, unix.MAP_ANON | unix.MAP_PRIVATE
	if n < hugePage {
		p, err := unix.MmapPtr(-1, 0, nil, uintptr(n), prot, flags)
		if err != nil {
			return nil, err
		}
		return unsafe.Slice((*byte)(p), n), nil
	}
	size := n + hugePage
	p, err := unix.MmapPtr(-1, 0, nil, uintptr(size), prot, flags)
	if err != nil {
		return nil, err
	}
	skip := int((hugePage - uintptr(p)%hugePage) % hugePage)
	used := (n + os.Getpagesize() - 1) &^ (os.Getpagesize() - 1)
	// The unaligned head and the tail go back at once; unmapRaw unmaps the rest.
	if skip > 0 {
		_ = unix.MunmapPtr(p, uintptr(skip))
	}
	if tail := size - skip - used; tail > 0 {
		_ = unix.MunmapPtr(unsafe.Add(p, skip+used), uintptr(tail))
	}
	b := unsafe.Slice((*byte)(unsafe.Add(p, skip)), n)
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE) // a hint: without it the mapping works the same
	return b, nil
}

// lazyMap: a mapping's pages take memory only once touched, so a mapping may
// reserve more than it will use.
const lazyMap = true

// dropPages gives the pages of b (from mapRaw) back to the system; b stays
// mapped and reads zero until written again.
func dropPages(b []byte) { _ = unix.Madvise(b, unix.MADV_DONTNEED) }

// unmapRaw releases memory from mapRaw.
func unmapRaw(b []byte) error {
	if cap(b) == 0 {
		return nil
	}
	return unix.MunmapPtr(unsafe.Pointer(unsafe.SliceData(b)), uintptr(cap(b)))
}
