package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/snii-go/snii/internal/seam"

	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/codec/prx/capture"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
	"github.com/spf13/pflag"
)

// captureBuildHook adds `snii build --capture FILE [--capture-all]`: the windows
// are captured as the writer encodes them (writer.the onWindow hook), in emission
// order, and each field's recorded outcome is added once the segment is written.
// The capture is written to a temp file beside FILE and renamed into place only
// when the build succeeds.
func captureBuildHook() buildHook {
	var path string
	var all bool
	return buildHook{
		addFlags: func(fs *pflag.FlagSet) {
			fs.StringVar(&path, "capture", "", "also write the .prx windows to this capture file, for snii replay")
			fs.BoolVar(&all, "capture-all", false, "with --capture: keep the fast-path windows too")
		},
		start: func(o *writer.Options, output string) (func(error) error, error) {
			if path == "" {
				if all {
					return nil, usagef("--capture-all needs --capture FILE")
				}
				return nil, nil
			}
			return startBuildCapture(o, output, path, all)
		},
	}
}

func startBuildCapture(o *writer.Options, output, path string, all bool) (func(error) error, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("--capture: %w", err)
	}
	discard := func() { tmp.Close(); os.Remove(tmp.Name()) }
	cw, err := capture.NewWriter(tmp, capture.WriterOptions{All: all})
	if err != nil {
		discard()
		return nil, fmt.Errorf("--capture %s: %w", path, err)
	}
	ords := make(map[string]int, len(o.Fields))
	var names []string
	for _, f := range o.Fields {
		names = append(names, f.Name)
		i, err := cw.AddIndex(capture.IndexInfo{Name: f.Name, Known: true, Policy: o.Policy, ZstdLevel: o.ZstdLevel, Limits: o.Limits.Normalize()})
		if err != nil {
			discard()
			return nil, fmt.Errorf("--capture %s: %w", path, err)
		}
		ords[f.Name] = i
	}
	seam.SetOnWindow(o, func(field string, w *prx.Window, f prx.Frame) error {
		i, ok := ords[field]
		if !ok {
			return fmt.Errorf("capture: window of undeclared index %q", field)
		}
		return cw.Encoded(i, w, f)
	})
	return func(buildErr error) (err error) {
		defer func() {
			if err != nil || buildErr != nil {
				discard()
			}
		}()
		if buildErr != nil {
			return nil
		}
		if err := recordOutcomes(cw, names, ords, output); err != nil {
			return fmt.Errorf("--capture %s: %w", path, err)
		}
		if err := cw.Close(); err != nil {
			return fmt.Errorf("--capture %s: %w", path, err)
		}
		if err := tmp.Close(); err != nil {
			return fmt.Errorf("--capture %s: %w", path, err)
		}
		return os.Rename(tmp.Name(), path)
	}, nil
}

// recordOutcomes adds to the capture what each field of the built segment recorded.
func recordOutcomes(cw *capture.Writer, names []string, ords map[string]int, segment string) error {
	seg, err := reader.Open(segment, reader.Options{})
	if err != nil {
		return err
	}
	defer seg.Close()
	var errsAll []error
	for _, name := range names {
		i := ords[name]
		m, err := fieldMeta(seg, name)
		if err != nil {
			errsAll = append(errsAll, err)
			continue
		}
		errsAll = append(errsAll, cw.SetOutcome(i, capture.Outcome{Windows: m.Outcome.Windows, Bytes: m.Outcome.Bytes, Budget: m.Outcome.Budget}))
	}
	return errors.Join(errsAll...)
}
