package writer_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/snii-go/snii/internal/seam"

	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/writer"
)

// leftovers lists the files of dir (none is expected after a failed build).
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// Issue 16 item 3: a cancelled build stops in every long phase, publishes
// nothing and removes its temp files.
func TestCancelBuild(t *testing.T) {
	docs := genDocs(7, 3000)
	for _, phase := range []string{"add", "spill", "emit"} {
		t.Run(phase, func(t *testing.T) {
			dir, tmp := t.TempDir(), t.TempDir()
			path := filepath.Join(dir, "x.snii")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			o := genOptions()
			o.TempDir = tmp
			o.MemoryLimit = 256 << 10 // spill often
			windows := 0
			if phase == "emit" {
				seam.SetOnWindow(&o, func(string, *prx.Window, prx.Frame) error {
					if windows++; windows == 5 {
						cancel()
					}
					return nil
				})
			}
			w, err := writer.Create(ctx, path, o)
			if err != nil {
				t.Fatal(err)
			}
			var addErr error
			for i, d := range docs {
				if phase == "add" && i == 100 {
					cancel()
				}
				if phase == "spill" && w.Stats().Spills == 2 {
					cancel()
				}
				if _, addErr = w.Add(d); addErr != nil {
					break
				}
			}
			err = w.Close()
			if phase != "emit" && !errors.Is(addErr, context.Canceled) {
				t.Errorf("Add: err = %v, want context.Canceled", addErr)
			}
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Close: err = %v, want context.Canceled", err)
			}
			if phase == "spill" && w.Stats().Spills < 2 {
				t.Errorf("only %d spills: the spill phase was not reached", w.Stats().Spills)
			}
			if l := append(leftovers(t, dir), leftovers(t, tmp)...); len(l) != 0 {
				t.Errorf("left behind: %v", l)
			}
		})
	}
}
