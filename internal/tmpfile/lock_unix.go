//go:build unix

package tmpfile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes an exclusive lock on f (it was just created, nobody else
// holds it for long); locked is false where locks are unsupported.
func lockFile(f *os.File) (locked bool, err error) {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err == unix.EINTR {
			continue
		}
		if errors.Is(err, unix.ENOLCK) || errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP) {
			return false, nil
		}
		return err == nil, err
	}
}

// tryLock takes an exclusive lock on f without waiting.
func tryLock(f *os.File) (bool, error) {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case err == unix.EINTR:
			continue
		case err == unix.EWOULDBLOCK:
			return false, nil
		}
		return false, err
	}
}
