package peers

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// ConcConfig is the concurrency phase: snii answering a mixed query stream
// from goroutines that share one open segment, as a search server would.
type ConcConfig struct {
	Segment    string   `json:"segment"`
	Queries    []*Query `json:"queries"`
	Expected   []int    `json:"expected"` // hit count of each query (oracle)
	Goroutines []int    `json:"goroutines"`
	Ops        int      `json:"ops"` // queries per phase
	Seed       uint64   `json:"seed"`
}

// ConcPhase is one goroutine count's result.
type ConcPhase struct {
	Goroutines int     `json:"goroutines"`
	Ops        int     `json:"ops"`
	WallSec    float64 `json:"wall_seconds"` // synchronized start → last query done
	QPS        float64 `json:"queries_per_second"`
	P50us      float64 `json:"p50_us"`
	P95us      float64 `json:"p95_us"`
	P99us      float64 `json:"p99_us"`
	CPUPerQus  float64 `json:"cpu_us_per_query"` // user+system CPU of the process / ops
	PeakRSS    int64   `json:"peak_rss_bytes"`   // VmHWM during the phase (reset before it); 0 if unknown
	HeapBefore uint64  `json:"heap_inuse_before"`
	HeapAfter  uint64  `json:"heap_inuse_after"`
	AllocPerQ  float64 `json:"alloc_bytes_per_query"`
	MallocPerQ float64 `json:"mallocs_per_query"`
	Checked    int     `json:"answers_checked"`
}

// RunConc opens the segment once and runs one phase per goroutine count.
// Every answer is compared with the expected count; a difference fails the
// run.
func RunConc(cc ConcConfig) ([]ConcPhase, error) {
	if len(cc.Queries) == 0 || len(cc.Expected) != len(cc.Queries) {
		return nil, fmt.Errorf("conc: %d queries, %d expected counts", len(cc.Queries), len(cc.Expected))
	}
	c, err := openSniiCounter(cc.Segment, cc.Queries)
	if err != nil {
		return nil, err
	}
	defer c.close()
	// The stream: rounds over the whole set, each round a seeded shuffle.
	rng := rand.New(rand.NewPCG(cc.Seed, 0x5eed))
	seq := make([]int, cc.Ops)
	perm := rng.Perm(len(cc.Queries))
	for i := range seq {
		if i%len(perm) == 0 {
			rng.Shuffle(len(perm), func(a, b int) { perm[a], perm[b] = perm[b], perm[a] })
		}
		seq[i] = perm[i%len(perm)]
	}
	// Warm-up: every query once per goroutine count's largest value.
	for i := range cc.Queries {
		if _, err := c.count(i); err != nil {
			return nil, err
		}
	}
	var out []ConcPhase
	for _, g := range cc.Goroutines {
		p, err := concPhase(c, seq, cc.Expected, g)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func concPhase(c *sniiCounter, seq, expected []int, g int) (ConcPhase, error) {
	p := ConcPhase{Goroutines: g, Ops: len(seq)}
	runtime.GC()
	resetPeakRSS()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	cpu0 := cpuTime()

	lat := make([][]float64, g)
	var next atomic.Int64
	var failed atomic.Pointer[error]
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	ready.Add(g)
	done.Add(g)
	for w := 0; w < g; w++ {
		lat[w] = make([]float64, 0, len(seq)/g+1)
		go func(w int) {
			defer done.Done()
			ready.Done()
			<-start
			for {
				i := int(next.Add(1)) - 1
				if i >= len(seq) || failed.Load() != nil {
					return
				}
				qi := seq[i]
				t := time.Now()
				n, err := c.count(qi)
				d := time.Since(t)
				if err == nil && n != expected[qi] {
					err = fmt.Errorf("%d goroutines: %s counted %d, oracle %d", g, c.qs[qi], n, expected[qi])
				}
				if err != nil {
					failed.CompareAndSwap(nil, &err)
					return
				}
				lat[w] = append(lat[w], float64(d.Nanoseconds())/1e3)
			}
		}(w)
	}
	ready.Wait()
	t0 := time.Now()
	close(start)
	done.Wait()
	p.WallSec = time.Since(t0).Seconds()
	cpu1 := cpuTime()
	runtime.ReadMemStats(&ms1)
	if e := failed.Load(); e != nil {
		return p, *e
	}
	var all []float64
	for _, l := range lat {
		all = append(all, l...)
	}
	p.Checked = len(all)
	p.QPS = float64(len(all)) / p.WallSec
	p.P50us = nearestRank(all, 50)
	p.P95us = nearestRank(all, 95)
	p.P99us = nearestRank(all, 99)
	p.CPUPerQus = (cpu1 - cpu0).Seconds() * 1e6 / float64(len(all))
	p.PeakRSS = PeakRSS()
	p.HeapBefore, p.HeapAfter = ms0.HeapInuse, ms1.HeapInuse
	p.AllocPerQ = float64(ms1.TotalAlloc-ms0.TotalAlloc) / float64(len(all))
	p.MallocPerQ = float64(ms1.Mallocs-ms0.Mallocs) / float64(len(all))
	return p, nil
}

// cpuTime is the user+system CPU time of the process.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// resetPeakRSS resets the kernel's high-water mark of this process (Linux:
// clear_refs 5), so that VmHWM afterwards is the peak of the phase.
func resetPeakRSS() {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// PeakRSS reads this process's VmHWM from /proc/self/status (bytes; 0 if
// unavailable).
func PeakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(v)
			if len(f) >= 1 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}
