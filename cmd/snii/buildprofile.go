package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/snii-go/snii/writer"
	"github.com/spf13/pflag"
)

// profileBuildHook adds `snii build --cpuprofile FILE`: a Go CPU profile of
// the build (reading, analysis, spills and the writing of the segment), for
// go tool pprof. The flag is hidden: it is for measuring the build.
func profileBuildHook() buildHook {
	var path string
	return buildHook{
		addFlags: func(fs *pflag.FlagSet) {
			fs.StringVar(&path, "cpuprofile", "", "write a CPU profile of the build to this file (go tool pprof)")
			_ = fs.MarkHidden("cpuprofile")
		},
		start: func(_ *writer.Options, _ string) (func(error) error, error) {
			if path == "" {
				return nil, nil
			}
			f, err := os.Create(path)
			if err != nil {
				return nil, fmt.Errorf("--cpuprofile: %w", err)
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				f.Close()
				return nil, fmt.Errorf("--cpuprofile %s: %w", path, err)
			}
			return func(error) error {
				pprof.StopCPUProfile()
				if err := f.Close(); err != nil {
					return fmt.Errorf("--cpuprofile %s: %w", path, err)
				}
				return nil
			}, nil
		},
	}
}
