package peers

import (
	"bufio"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// Env records where a run happened.
type Env struct {
	Date       string `json:"date"`
	Commit     string `json:"commit"`
	Dirty      bool   `json:"dirty"` // uncommitted or untracked changes in the work tree
	Go         string `json:"go"`
	Java       string `json:"java,omitempty"`
	Lucene     string `json:"lucene,omitempty"`
	Bleve      string `json:"bleve"`
	CPU        string `json:"cpu"`
	NumCPU     int    `json:"num_cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	OS         string `json:"os"`
	Kernel     string `json:"kernel,omitempty"`
	// Load averages (1, 5, 15 min) before and after the timed cycles: the
	// machine is shared, and other work on it shows here.
	LoadBefore string `json:"loadavg_before_cycles,omitempty"`
	LoadAfter  string `json:"loadavg_after_cycles,omitempty"`
}

// LoadAvg returns the first three fields of /proc/loadavg ("" elsewhere).
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// CaptureEnv fills Env from the machine; commit and dirtiness come from the
// git work tree around the working directory (read-only git commands).
func CaptureEnv() Env {
	e := Env{
		Date:       time.Now().UTC().Format(time.RFC3339),
		Go:         runtime.Version(),
		Bleve:      "v2.6.3",
		NumCPU:     runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		OS:         runtime.GOOS + "/" + runtime.GOARCH,
		CPU:        cpuModel(),
	}
	if out, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
		e.Commit = strings.TrimSpace(string(out))
	}
	if out, err := exec.Command("git", "status", "--porcelain").Output(); err == nil {
		e.Dirty = len(strings.TrimSpace(string(out))) > 0
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		e.Kernel = strings.TrimSpace(string(b))
	}
	return e
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}
