package peers

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Lucene runs bench/lucene/LuceneBench.java against the Debian
// liblucene8-java jars (Lucene 8.8.1; the jar files are named 8.7.0 by the
// package).
type Lucene struct {
	Java      string   // java binary
	Classpath string   // compiled classes + jars
	JVMArgs   []string // e.g. -Xmx
	Version   string   // java -version, first line
}

// LuceneJars are the jars the program needs, looked up in jarDir.
var LuceneJars = []string{"lucene-core-*.jar", "lucene-analyzers-common-*.jar"}

// SetupLucene finds java, javac and the Lucene jars and compiles the
// program into workDir. It returns an error saying what is missing (the
// harness then runs without Lucene); `apt-get install liblucene8-java`
// provides the jars.
func SetupLucene(src, jarDir, workDir string) (*Lucene, error) {
	java, err := exec.LookPath("java")
	if err != nil {
		return nil, errors.New("java not found")
	}
	javac, err := exec.LookPath("javac")
	if err != nil {
		return nil, errors.New("javac not found")
	}
	var jars []string
	for _, pat := range LuceneJars {
		m, _ := filepath.Glob(filepath.Join(jarDir, pat))
		if len(m) == 0 {
			return nil, fmt.Errorf("no %s in %s (apt-get install liblucene8-java)", pat, jarDir)
		}
		sort.Strings(m)
		jars = append(jars, m[len(m)-1])
	}
	classes := filepath.Join(workDir, "lucene-classes")
	if err := os.MkdirAll(classes, 0o755); err != nil {
		return nil, err
	}
	cp := strings.Join(jars, string(os.PathListSeparator))
	out, err := exec.Command(javac, "-nowarn", "-d", classes, "-cp", cp, src).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("javac %s: %v\n%s", src, err, out)
	}
	ver, _ := exec.Command(java, "-version").CombinedOutput()
	first, _, _ := strings.Cut(string(ver), "\n")
	return &Lucene{
		Java:      java,
		Classpath: classes + string(os.PathListSeparator) + cp,
		JVMArgs:   nil, // JVM defaults (G1, max heap 1/4 of RAM)
		Version:   strings.TrimSpace(first),
	}, nil
}

func (l *Lucene) command(args ...string) *exec.Cmd {
	a := append(append([]string{}, l.JVMArgs...), "-cp", l.Classpath, "LuceneBench")
	return exec.Command(l.Java, append(a, args...)...)
}

// Build indexes the docs file into dir in a separate JVM. The build time is
// measured inside the JVM (from opening the writer to the commit after
// forceMerge(1)); the peak RSS is the JVM's.
func (l *Lucene) Build(docsPath, dir string) (BuildResult, error) {
	return l.build(docsPath, dir, "")
}

// BuildStored is Build with the text also stored, under the codec's
// BEST_COMPRESSION (mode "compression") or BEST_SPEED ("speed") stored fields.
func (l *Lucene) BuildStored(docsPath, dir, mode string) (BuildResult, error) {
	if mode != "compression" && mode != "speed" {
		return BuildResult{}, fmt.Errorf("lucene: stored mode %q, want compression or speed", mode)
	}
	return l.build(docsPath, dir, mode)
}

func (l *Lucene) build(docsPath, dir, stored string) (BuildResult, error) {
	res := BuildResult{Engine: "lucene", Options: "Lucene 8.8.1, PatternTokenizer " + TokenPattern + " + LowerCaseFilter (+ 255-byte limit), positions, norms off, forceMerge(1), no compound file, RAM buffer 1900 MB, JVM defaults " + strings.Join(l.JVMArgs, " ")}
	if err := os.RemoveAll(dir); err != nil {
		return res, err
	}
	args := []string{"build", docsPath, dir}
	if stored != "" {
		args = append(args, "stored="+stored)
		res.Options += ", text stored (BEST_" + strings.ToUpper(stored) + ")"
	}
	cmd := l.command(args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return res, fmt.Errorf("lucene build: %v\n%s", err, stderr.String())
	}
	var r struct {
		Docs      int     `json:"docs"`
		Seconds   float64 `json:"build_seconds"`
		Segments  int     `json:"segments"`
		Lucene    string  `json:"lucene"`
		PeakRSSKB int64   `json:"peak_rss_kb"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return res, fmt.Errorf("lucene build output %q: %w", out, err)
	}
	if r.Segments != 1 {
		return res, fmt.Errorf("lucene build: %d segments, want 1", r.Segments)
	}
	res.Docs, res.Seconds = r.Docs, r.Seconds
	res.Options += ", lucene " + r.Lucene
	res.PeakRSS = r.PeakRSSKB * 1024 // VmHWM read by the JVM at the end of the build
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.CPUSec = float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
	}
	res.Size, res.Files, err = dirSizes(dir)
	if err == nil {
		res.Sections = byExtension(res.Files)
	}
	return res, err
}

// byExtension sums file sizes by extension (Lucene's per-format files).
func byExtension(files map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for name, n := range files {
		ext := filepath.Ext(name)
		if ext == "" {
			ext = name
		}
		out[ext] += n
	}
	return out
}

type luceneEngine struct {
	cmd *exec.Cmd
	in  *bufio.Writer
	out *bufio.Reader
}

// Serve starts a JVM that answers the prepared queries from the index in dir.
func (l *Lucene) Serve(dir, workDir string, qs []*Query) (Engine, error) {
	qf := filepath.Join(workDir, "lucene-queries.tsv")
	var b strings.Builder
	for _, q := range qs {
		kind := string(q.Kind)
		if q.Kind == KindSloppy {
			kind += strconv.Itoa(q.Slop) // "sloppy2"
		}
		fmt.Fprintf(&b, "%s\t%s\n", kind, strings.Join(q.Terms, " "))
	}
	if err := os.WriteFile(qf, []byte(b.String()), 0o644); err != nil {
		return nil, err
	}
	cmd := l.command("serve", dir, qf)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	e := &luceneEngine{cmd: cmd, in: bufio.NewWriter(stdin), out: bufio.NewReaderSize(stdout, 1<<20)}
	line, err := e.out.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "ready ") {
		e.Close()
		return nil, fmt.Errorf("lucene serve: %q %v", line, err)
	}
	if f := strings.Fields(line); len(f) < 2 || f[1] != "1" {
		e.Close()
		return nil, fmt.Errorf("lucene serve: %q: want one segment", line)
	}
	return e, nil
}

func (e *luceneEngine) Name() string { return "lucene" }

func (e *luceneEngine) call(cmd string) (string, error) {
	if _, err := e.in.WriteString(cmd + "\n"); err != nil {
		return "", err
	}
	if err := e.in.Flush(); err != nil {
		return "", err
	}
	line, err := e.out.ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("lucene %q: %w", cmd, err)
	}
	line = strings.TrimSuffix(line, "\n")
	if strings.HasPrefix(line, "error") {
		return "", fmt.Errorf("lucene %q: %s", cmd, line)
	}
	return line, nil
}

// Warmup runs every query in a loop inside the JVM for d.
func (e *luceneEngine) Warmup(d time.Duration) error {
	_, err := e.call(fmt.Sprintf("warmup %d", d.Milliseconds()))
	return err
}

func (e *luceneEngine) Run(qi, reps int) (int, Timing, error) {
	line, err := e.call(fmt.Sprintf("run %d %d", qi, reps))
	if err != nil {
		return 0, Timing{}, err
	}
	f := strings.Fields(line)
	if len(f) != 3 {
		return 0, Timing{}, fmt.Errorf("lucene run: %q", line)
	}
	n, err1 := strconv.Atoi(f[0])
	wall, err2 := strconv.ParseInt(f[1], 10, 64)
	cpu, err3 := strconv.ParseInt(f[2], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return 0, Timing{}, fmt.Errorf("lucene run: %q", line)
	}
	return n, Timing{Wall: time.Duration(wall), CPU: time.Duration(cpu)}, nil
}

func (e *luceneEngine) Docs(qi int) ([]uint32, error) {
	line, err := e.call(fmt.Sprintf("ids %d", qi))
	if err != nil {
		return nil, err
	}
	f := strings.Fields(line)
	n, err := strconv.Atoi(f[0])
	if err != nil || n != len(f)-1 {
		return nil, fmt.Errorf("lucene ids: bad answer (%d fields)", len(f))
	}
	out := make([]uint32, n)
	for i, s := range f[1:] {
		v, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return nil, err
		}
		out[i] = uint32(v)
	}
	return out, nil
}

func (e *luceneEngine) Close() error {
	e.in.WriteString("quit\n")
	e.in.Flush()
	done := make(chan error, 1)
	go func() {
		io.Copy(io.Discard, e.out)
		done <- e.cmd.Wait()
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		e.cmd.Process.Kill()
		return <-done
	}
}
