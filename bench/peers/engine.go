package peers

import (
	"runtime"
	"time"
)

// Engine answers the prepared query set of a run from an index on disk.
// Engines are used from one goroutine.
type Engine interface {
	// Name is the engine's label in reports ("snii", "bleve", "lucene", ...).
	Name() string
	// Run counts the hits of query qi reps times and returns the count, the
	// wall time measured around the reps calls and the CPU time of the
	// calling thread over them (0 where it cannot be measured).
	Run(qi, reps int) (count int, t Timing, err error)
	// Docs returns the ascending doc ids that match query qi.
	Docs(qi int) ([]uint32, error)
	// Close releases the index.
	Close() error
}

// Timing is one measurement of reps calls.
type Timing struct {
	Wall time.Duration // elapsed
	CPU  time.Duration // CPU time of the thread that ran the calls (Go: locked to its thread; Java: ThreadMXBean)
}

// timeCalls runs fn reps times on a goroutine locked to its OS thread and
// returns the last count and the timing.
func timeCalls(reps int, fn func() (int, error)) (int, Timing, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	n := 0
	c0 := threadCPU()
	start := time.Now()
	for r := 0; r < reps; r++ {
		c, err := fn()
		if err != nil {
			return 0, Timing{}, err
		}
		n = c
	}
	wall := time.Since(start)
	return n, Timing{Wall: wall, CPU: threadCPU() - c0}, nil
}

// BuildResult is what a builder reports about one index build.
type BuildResult struct {
	Engine   string           `json:"engine"`
	Docs     int              `json:"docs"`
	Seconds  float64          `json:"build_seconds"`      // create → durable close
	PeakRSS  int64            `json:"peak_rss_bytes"`     // of the builder process (getrusage of the child)
	CPUSec   float64          `json:"cpu_seconds"`        // user+system CPU of the builder process (child), all threads
	Size     int64            `json:"index_bytes"`        // all files of the index
	Files    map[string]int64 `json:"files"`              // per file (relative path) or section
	Sections map[string]int64 `json:"sections,omitempty"` // bytes per section (snii) or per file extension (Lucene)
	Stats    map[string]int64 `json:"stats,omitempty"`    // counts and byte accounting (snii metadata)
	Options  string           `json:"options"`
}

// DocsPerSecond is the build throughput.
func (b BuildResult) DocsPerSecond() float64 {
	if b.Seconds <= 0 {
		return 0
	}
	return float64(b.Docs) / b.Seconds
}
