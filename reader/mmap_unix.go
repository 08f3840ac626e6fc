//go:build unix

package reader

import (
	"os"

	"github.com/snii-go/snii/internal/errs"
	"golang.org/x/sys/unix"
)

// mapFile memory-maps the whole of f read-only. A zero-length file maps to an
// empty slice (and fails the tail check later).
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	if size == 0 {
		return []byte{}, func() error { return nil }, nil
	}
	if int64(int(size)) != size {
		return nil, nil, errTooLarge(size)
	}
	b, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return unix.Munmap(b) }, nil
}

const canMmap = true

func errTooLarge(size int64) error {
	return errs.Limitf("reader: file of %d bytes too large to map", size)
}
