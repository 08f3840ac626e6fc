package writer

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/snii-go/snii/internal/tmpfile"
)

// Temp file name prefixes. Every file a build creates carries one of them and
// the ID of the build's lock file (see internal/tmpfile), so a killed build's
// leftovers can be found and removed safely (snii clean).
const (
	tmpPrefix   = tmpfile.TmpPrefix   // the segment being written, in the destination directory
	runPrefix   = tmpfile.RunPrefix   // spilled runs, in the temp dir
	spoolPrefix = tmpfile.SpoolPrefix // dict region / doc span overflow, in the temp dir
)

// File modes before the umask: the segment is created like any file a user
// writes (0666 &^ umask, e.g. 0644 under umask 022); the scratch files the
// build removes again stay private.
const (
	segmentPerm = 0o666
	scratchPerm = 0o600
)

// faults injects failures into a build. Only this package's tests set it
// (through the unexported Options.faults); a nil *faults injects nothing.
type faults struct {
	mu         sync.Mutex // guards written and failed
	failAfter  int64      // fail the write that takes the bytes written to all files past failAfter (< 0: never)
	written    int64      // bytes written so far, over all files
	failSync   bool       // the segment's fsync fails
	failRename bool       // the rename into place fails
	corruptRun bool       // flip a byte of the run file before the merge reads it
	spoolLimit int        // > 0: spools keep at most this many bytes in memory (forces spool files)

	pairNoFwd     bool   // no forward index for the pair counting
	pairRecords   bool   // a forward index's pairs go to the record sorter, not to buckets
	pairWide      bool   // bucket records take 8 bytes even when 4 would do
	pairSplit     int    // > 0: 4-byte bucket records keep this many fewer bits of the doc (at least 1), the rest from hiStart
	pairSplits    int    // pair countings whose 4-byte bucket records left docs' high parts to hiStart
	pairNoBits    bool   // the pair counting makes no bitmaps of terms (co reads every term's docs back)
	pairPaths     [3]int // indexes whose pairs were counted from buckets, from a forward index's records, from the postings
	pairFills     int    // passes over a forward index that filled buckets
	pairFwdFile   int    // indexes whose forward index went to a temp file
	pairEntryFile int    // fields whose pair entries went to a temp file
	pairEntries   int    // > 0: the pair entries kept in memory, in bytes (else MemoryLimit/64)
	pairBucket    int64  // > 0: the pair buckets' memory share in bytes (else MemoryLimit/4)
	pairTokens    uint64 // > 0: the default minimum pair df's tokens per unit of df (else pairsMinDFTokens)
	serial        bool   // no second goroutine for Add's batches and the prx encoder (as with GOMAXPROCS 1)
	syncDoc       int64  // > 0: the size from which Add analyzes a document itself (else syncDocBytes)
	asyncDocs     int    // documents analyzed on the analysis goroutine
	failed        bool   // a fault fired
}

var errInjected = errors.New("writer: injected fault")

// tempFile is a file the build creates and removes: written at its end with
// positional writes (so it can be truncated and rewritten) and read with
// ReadAt.
type tempFile struct {
	f      *os.File
	path   string
	size   int64
	faults *faults
	ctx    context.Context // nil: never cancelled
}

// createTemp creates a temp file named by owner's claim on its directory.
func createTemp(owner *tmpfile.Owner, prefix string, perm os.FileMode, fl *faults) (*tempFile, error) {
	f, err := owner.Create(prefix, perm)
	if err != nil {
		return nil, fmt.Errorf("writer: create temp file in %s: %w", owner.Dir(), err)
	}
	return &tempFile{f: f, path: f.Name(), faults: fl}, nil
}

// Write appends p at the end of the file. It fails once the build's context
// is done: every long phase of a build (spill, run merge, emit, assemble)
// writes through here, so cancellation stops it within one buffer.
func (t *tempFile) Write(p []byte) (int, error) {
	if t.ctx != nil {
		if err := t.ctx.Err(); err != nil {
			return 0, fmt.Errorf("writer: write %s: %w", filepath.Base(t.path), err)
		}
	}
	q := p
	var injected bool
	if fl := t.faults; fl != nil {
		fl.mu.Lock() // the pair counting writes its temp files beside the emitter
		defer fl.mu.Unlock()
		if left := fl.failAfter - fl.written; fl.failAfter >= 0 && int64(len(p)) > left {
			q, injected = p[:max(left, 0)], true
		}
	}
	n, err := t.f.WriteAt(q, t.size)
	t.size += int64(n)
	if t.faults != nil {
		t.faults.written += int64(n)
	}
	if err == nil && injected {
		t.faults.failed = true
		err = errInjected
	}
	if err != nil {
		return n, fmt.Errorf("writer: write %s: %w", filepath.Base(t.path), err)
	}
	return n, nil
}

func (t *tempFile) ReadAt(p []byte, off int64) (int, error) { return t.f.ReadAt(p, off) }

// truncate empties the file.
func (t *tempFile) truncate() error {
	t.size = 0
	if err := t.f.Truncate(0); err != nil {
		return fmt.Errorf("writer: truncate %s: %w", filepath.Base(t.path), err)
	}
	return nil
}

// remove closes and deletes the file; it is safe to call twice.
func (t *tempFile) remove() error {
	if t == nil || t.f == nil {
		return nil
	}
	cerr := t.f.Close()
	rerr := os.Remove(t.path)
	t.f = nil
	if rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		return fmt.Errorf("writer: remove %s: %w", t.path, rerr)
	}
	if cerr != nil && !errors.Is(cerr, os.ErrClosed) {
		return fmt.Errorf("writer: close %s: %w", t.path, cerr)
	}
	return nil
}

// spool holds bytes that must be written later (a dict region, the doc
// span of a windowed term): in memory up to limit, then in a temp file.
type spool struct {
	mem    []byte
	limit  int
	f      *tempFile
	bw     *bufio.Writer
	n      int64
	create func() (*tempFile, error)
}

func (s *spool) Write(p []byte) (int, error) {
	if s.f == nil && len(s.mem)+len(p) <= s.limit {
		s.mem = append(s.mem, p...)
		s.n += int64(len(p))
		return len(p), nil
	}
	if s.f == nil {
		f, err := s.create()
		if err != nil {
			return 0, err
		}
		s.f = f
		s.bw = bufio.NewWriterSize(f, 64<<10)
	}
	if s.f.size == 0 && s.bw.Buffered() == 0 && len(s.mem) > 0 {
		if _, err := s.bw.Write(s.mem); err != nil {
			return 0, err
		}
		s.mem = s.mem[:0]
	}
	n, err := s.bw.Write(p)
	s.n += int64(n)
	return n, err
}

// Len returns the bytes spooled.
func (s *spool) Len() int64 { return s.n }

// copyTo writes the spooled bytes to dst.
func (s *spool) copyTo(dst io.Writer) error {
	if s.f == nil || (s.f.size == 0 && s.bw.Buffered() == 0) {
		_, err := dst.Write(s.mem)
		return err
	}
	if err := s.bw.Flush(); err != nil {
		return err
	}
	if _, err := io.Copy(dst, io.NewSectionReader(s.f, 0, s.f.size)); err != nil {
		return fmt.Errorf("writer: copy spool %s: %w", filepath.Base(s.f.path), err)
	}
	return nil
}

// reset empties the spool, keeping its memory and file.
func (s *spool) reset() error {
	s.mem = s.mem[:0]
	s.n = 0
	if s.f != nil {
		s.bw.Reset(s.f)
		return s.f.truncate()
	}
	return nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("writer: open directory %s: %w", dir, err)
	}
	serr := d.Sync()
	cerr := d.Close()
	if serr != nil {
		return fmt.Errorf("writer: sync directory %s: %w", dir, serr)
	}
	if cerr != nil {
		return fmt.Errorf("writer: close directory %s: %w", dir, cerr)
	}
	return nil
}

// addPairFills records passes that filled pair buckets (tests).
func (f *faults) addPairFills(n int) {
	if f != nil {
		f.pairFills += n
	}
}

// splitUsed records a pair counting whose 4-byte records split the docs (tests).
func (f *faults) splitUsed() {
	if f != nil {
		f.pairSplits++
	}
}

// countPath records which way a field's pairs were counted (tests).
func (f *faults) countPath(i int) {
	if f != nil {
		f.pairPaths[i]++
	}
}

// isDir returns nil when dir is a directory, otherwise why not, worded to
// follow the directory's name ("does not exist", "is not a directory").
func isDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("does not exist")
	case err != nil:
		return fmt.Errorf("cannot be read (%v)", err)
	case !fi.IsDir():
		return errors.New("is not a directory")
	}
	return nil
}
