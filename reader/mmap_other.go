//go:build !unix

package reader

import (
	"errors"
	"os"
)

// mapFile is not available on this platform: Open reads through pread.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	return nil, nil, errNoMmap
}

const canMmap = false

var errNoMmap = errors.New("reader: mmap is not available on this platform")
