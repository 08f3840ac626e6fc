//go:build unix

package reader

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/snii-go/snii/internal/errs"
)

// indexPanic returns what recover gives for an index out of range.
func indexPanic(i int) (r any) {
	defer func() { r = recover() }()
	var a []int
	_ = a[i]
	return nil
}

// TestFaultOnChangedFile: a runtime error recovered by a mapped segment's
// guard is the "file changed" corruption error once the file was rewritten
// in place (bytes checked once and read again can disagree then), and stays
// a panic while the file is the one opened (a bug, never hidden).
func TestFaultOnChangedFile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "writer", "tiny.snii"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "live.snii")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.guarding() {
		t.Skip("segment not mapped")
	}
	r := indexPanic(0)
	func() {
		defer func() {
			if recover() == nil {
				t.Error("a runtime error on an unchanged file did not panic")
			}
		}()
		_ = s.fault(r, nil)
	}()
	later := time.Now().Add(time.Hour)
	if err := os.WriteFile(path, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if err := s.fault(r, nil); !errors.Is(err, errs.Corrupt) {
		t.Errorf("runtime error on a rewritten file: %v, want a corruption error", err)
	}
}
