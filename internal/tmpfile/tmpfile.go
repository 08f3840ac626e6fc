package tmpfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Prefixes of the hidden files snii creates.
const (
	LockPrefix  = ".snii-lock-"  // one per claiming run and directory
	TmpPrefix   = ".snii-tmp-"   // a segment being written, in its destination directory
	RunPrefix   = ".snii-run-"   // spilled runs of a build
	SpoolPrefix = ".snii-spool-" // dict region / doc span overflow of a build
	MergePrefix = ".snii-merge-" // intermediate segments of a multi-pass merge
	// UploadPrefix names a directory: a segment built for an upload to
	// object storage, kept until the upload ends.
	UploadPrefix = ".snii-upload-"
)

// dataPrefixes are the prefixes Clean removes (besides the lock file).
var dataPrefixes = []string{TmpPrefix, RunPrefix, SpoolPrefix, MergePrefix, UploadPrefix}

// Owner is a run's claim on a directory: the files it creates there carry
// its ID, and its lock file is locked until Release.
type Owner struct {
	dir  string
	id   string
	lock *os.File // nil where locks are not supported
}

var seq atomic.Uint64

// random returns a decimal suffix unlikely to repeat.
func random() string {
	v := uint64(time.Now().UnixNano()) ^ seq.Add(0x9e3779b97f4a7c15) ^ uint64(os.Getpid())<<32
	v ^= v >> 29
	v *= 0xbf58476d1ce4e5b9
	v ^= v >> 32
	return strconv.FormatUint(v%1e10, 10)
}

// Claim creates and locks a lock file in dir.
func Claim(dir string) (*Owner, error) {
	for try := 0; ; try++ {
		id := random()
		path := filepath.Join(dir, LockPrefix+id)
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("create lock file in %s: %w", dir, err)
		}
		locked, err := lockFile(f)
		if err != nil {
			f.Close()
			os.Remove(path)
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		// A Clean may have taken the lock between the create and our lock,
		// and removed the file: then ours is an orphan inode; start over.
		if locked && !samePath(f, path) {
			f.Close()
			continue
		}
		if !locked { // unsupported: no lock, Clean never removes our files
			f.Close()
			f = nil
		}
		return &Owner{dir: dir, id: id, lock: f}, nil
	}
}

func samePath(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

// Dir returns the claimed directory.
func (o *Owner) Dir() string { return o.dir }

// Create creates a new file PREFIX+ID+"-"+random in the directory, opened for
// reading and writing, with mode perm before the umask.
func (o *Owner) Create(prefix string, perm os.FileMode) (*os.File, error) {
	for try := 0; ; try++ {
		path := filepath.Join(o.dir, prefix+o.id+"-"+random())
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		return f, err
	}
}

// Mkdir creates a new directory PREFIX+ID+"-"+random in the directory (mode
// 0o700) and returns its path. Clean removes it whole once the run is gone.
func (o *Owner) Mkdir(prefix string) (string, error) {
	for try := 0; ; try++ {
		path := filepath.Join(o.dir, prefix+o.id+"-"+random())
		err := os.Mkdir(path, 0o700)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		if err != nil {
			return "", err
		}
		return path, nil
	}
}

// Release removes the lock file and drops the lock. The caller removes its
// temp files first.
func (o *Owner) Release() error {
	if o == nil {
		return nil
	}
	err := os.Remove(filepath.Join(o.dir, LockPrefix+o.id))
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	if o.lock != nil {
		if cerr := o.lock.Close(); err == nil {
			err = cerr
		}
		o.lock = nil
	}
	return err
}

// Removed is a file Clean removed.
type Removed struct {
	Path string
	Size int64
}

// Clean removes from dir the temp files (and upload directories, whole) of
// runs that are gone (their lock file can be locked) and those runs' lock
// files. Files of live runs, files
// without a lock file and anything not named by this package stay.
func Clean(dir string) ([]Removed, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	byID := map[string][]string{}
	var locks []string
	for _, e := range ents {
		name := e.Name()
		if id, ok := strings.CutPrefix(name, LockPrefix); ok {
			if isID(id) {
				locks = append(locks, id)
			}
			continue
		}
		for _, p := range dataPrefixes {
			rest, ok := strings.CutPrefix(name, p)
			if !ok {
				continue
			}
			if id, _, ok := strings.Cut(rest, "-"); ok && isID(id) {
				byID[id] = append(byID[id], name)
			}
		}
	}
	var out []Removed
	var first error
	for _, id := range locks {
		lockPath := filepath.Join(dir, LockPrefix+id)
		f, err := os.OpenFile(lockPath, os.O_RDWR, 0)
		if err != nil {
			continue // gone meanwhile
		}
		locked, err := tryLock(f)
		if err != nil || !locked {
			f.Close() // a live run (or locks unsupported): leave its files
			continue
		}
		for _, name := range byID[id] {
			p := filepath.Join(dir, name)
			st, err := os.Lstat(p)
			if err != nil {
				continue
			}
			size, remove := st.Size(), os.Remove
			switch {
			case st.IsDir() && strings.HasPrefix(name, UploadPrefix):
				size, remove = dirSize(p), os.RemoveAll
			case !st.Mode().IsRegular():
				continue
			}
			if err := remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				if first == nil {
					first = err
				}
				continue
			}
			out = append(out, Removed{Path: p, Size: size})
		}
		if err := os.Remove(lockPath); err == nil {
			out = append(out, Removed{Path: lockPath})
		}
		f.Close()
	}
	return out, first
}

// dirSize returns the bytes of the regular files under dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

func isID(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
