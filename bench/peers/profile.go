package peers

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"time"
)

// ProfileSnii prints the reader.Profile of each picked query, then loops
// over them for d under the CPU profiler (written to cpuPath).
func ProfileSnii(seg string, qs []*Query, pick []int, d time.Duration, cpuPath string, w io.Writer) error {
	e, err := OpenSnii(EngineSnii, seg, qs)
	if err != nil {
		return err
	}
	defer e.Close()
	se := e.(*sniiEngine)
	for _, i := range pick {
		p, err := se.Profile(i)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%d %s: %+v\n", i, qs[i], p)
	}
	f, err := os.Create(cpuPath)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	n := 0
	for start := time.Now(); time.Since(start) < d; {
		for _, i := range pick {
			if _, _, err := se.Run(i, 1); err != nil {
				pprof.StopCPUProfile()
				return err
			}
			n++
		}
	}
	pprof.StopCPUProfile()
	fmt.Fprintf(w, "%d calls; profile in %s\n", n, cpuPath)
	return nil
}
