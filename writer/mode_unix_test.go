//go:build unix

package writer_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/snii-go/snii/writer"
)

// Issue 16 item 7: a segment is created 0666 &^ umask, like any file a user
// writes (it used to be 0600 whatever the umask). The test sets the process
// umask, so it does not run in parallel.
func TestSegmentModeFollowsUmask(t *testing.T) {
	docs := genDocs(3, 50)
	for _, c := range []struct {
		umask int
		want  os.FileMode
	}{{0o022, 0o644}, {0o077, 0o600}, {0o002, 0o664}} {
		old := syscall.Umask(c.umask)
		dir := t.TempDir()
		path := filepath.Join(dir, "x.snii")
		w, err := writer.Create(context.Background(), path, genOptions())
		if err == nil {
			for _, d := range docs {
				if _, err = w.Add(d); err != nil {
					break
				}
			}
		}
		if err == nil {
			err = w.Close()
		}
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode().Perm(); got != c.want {
			t.Errorf("umask %03o: mode %03o, want %03o", c.umask, got, c.want)
		}
	}
}
