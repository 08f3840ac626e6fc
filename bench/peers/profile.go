package peers

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

// ProfileSnii prints the reader.Profile of each picked query, then loops
// over them for d under the CPU profiler (written to cpuPath).
func ProfileSnii(seg string, qs []*Query, pick []int, d time.Duration, rounds int, cpuPath string, w io.Writer) error {
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
	if cpuPath != "" {
		f, err := os.Create(cpuPath)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	// Start the loop with no collection under way: the engines' start-up
	// garbage would otherwise be marked during the first rounds (write
	// barriers on, mark work interleaved), which shifts instruction counts.
	runtime.GC()
	n := 0
	start := time.Now()
	for r := 0; rounds > 0 && r < rounds || rounds <= 0 && time.Since(start) < d; r++ {
		for _, i := range pick {
			if _, _, err := se.Run(i, 1); err != nil {
				return err
			}
			n++
		}
	}
	fmt.Fprintf(w, "%d calls in %v", n, time.Since(start).Round(time.Millisecond))
	if cpuPath != "" {
		fmt.Fprintf(w, "; profile in %s", cpuPath)
	}
	fmt.Fprintln(w)
	return nil
}
