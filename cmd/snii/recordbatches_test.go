package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/snii-go/snii/reader"
)

// TestBatcher: more than one goroutine prints ids that span
// minParallelBlocks blocks or more; the batches cover the ids once, in
// order; until a batch is
// formatted they hold at most minPrintBatch ids, then about printBatchBytes
// of output at the length of the records formatted (never more) and about
// four batches per worker; ids each in their own block are cut at that
// size, dense ids span minBatchBlocks blocks; a store of records longer
// than printBatchBytes gets batches of one record.
func TestBatcher(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	st := reader.StoreInfo{Records: 100000, Blocks: 1000, RawBytes: 100000 * 100} // 100 records of 100 bytes a block
	for _, n := range []int{0, 1, 31, 32, 100, 5000, 200000} {
		for _, stride := range []uint32{1, 7, 150} {
			ids := make([]uint32, n)
			for i := range ids {
				ids[i] = uint32(i) * stride
			}
			bt := newBatcher(ids, st)
			blocks := float64(n) * min(1, float64(stride)/101) // the store has 100 records a block
			if (blocks < minParallelBlocks-1) != (bt.workers == 1) || bt.workers > 2 {
				t.Errorf("n %d stride %d (%.0f blocks): %d workers", n, stride, blocks, bt.workers)
			}
			share := max(n/(4*bt.workers), 1)
			at, batches := 0, 0
			for {
				most := minPrintBatch
				if bt.records.Load() > 0 {
					most = int(printBatchBytes * bt.records.Load() / bt.outBytes.Load())
				}
				r, ok := bt.next()
				if !ok {
					break
				}
				batches++
				if r.lo != at || r.hi <= r.lo || r.hi > n {
					t.Fatalf("n %d stride %d: batch [%d, %d) after %d", n, stride, r.lo, r.hi, at)
				}
				size := r.hi - r.lo
				if size > most {
					t.Errorf("n %d stride %d: batch %d of %d ids, at most %d", n, stride, batches, size, most)
				}
				if stride > 101 && size > min(share, most) { // every id in another block
					t.Errorf("n %d stride %d: batch %d of %d ids, want %d", n, stride, batches, size, min(share, most))
				}
				if stride == 1 && r.hi < n && size < min(most, 8*101) {
					t.Errorf("n %d stride %d: batch %d of %d ids spans fewer than 8 blocks", n, stride, batches, size)
				}
				switch {
				case batches == 1:
					bt.formatted(size, size*100) // records of 100 bytes
				case n == 200000 && batches == 10:
					bt.formatted(size*1000, size*1000*printBatchBytes/20) // then of 1/20 of printBatchBytes
				}
				at = r.hi
			}
			if at != n {
				t.Errorf("n %d stride %d: batches end at %d", n, stride, at)
			}
			if bt.workers > 1 && n >= 5000 && batches < 3*bt.workers {
				t.Errorf("n %d stride %d: %d batches for %d workers", n, stride, batches, bt.workers)
			}
		}
	}
	big := newBatcher(make([]uint32, 100), reader.StoreInfo{Records: 10, Blocks: 10, RawBytes: 10 * printBatchBytes * 3})
	for r, ok := big.next(); ok; r, ok = big.next() {
		if r.hi-r.lo != 1 {
			t.Fatalf("records of %d bytes: a batch of %d", 3*printBatchBytes, r.hi-r.lo)
		}
		big.formatted(1, 3*printBatchBytes)
	}
}

// offsetReads counts the reads of each offset of a file.
type offsetReads struct {
	f     *os.File
	mu    sync.Mutex
	reads map[int64]int
}

func (c *offsetReads) ReadAt(p []byte, off int64) (int, error) {
	c.mu.Lock()
	c.reads[off]++
	c.mu.Unlock()
	return c.f.ReadAt(p, off)
}

// TestPrintBlocksOnce: printing the records of a query on several
// goroutines reads each store block once, but for at most one block per
// boundary between two batches, and allocates nothing per printed line
// (what a line costs is within its block's and its batch's share).
func TestPrintBlocksOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var b strings.Builder
	const lines = 60000 // about 185 blocks
	for i := range lines {
		fmt.Fprintf(&b, "%d request served by host-%d in %d ms, status ok\n", i, i%7, i%13)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "a.log")
	if err := os.WriteFile(log, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "a.snii")
	ok(t, "build", "-q", "-o", path, log)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	cr := &offsetReads{f: f, reads: map[int64]int{}}
	seg, err := reader.OpenReaderAt(context.Background(), cr, fi.Size(), reader.Options{Name: path})
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	st, _ := seg.Store()
	if st.Blocks < 2*minParallelBlocks {
		t.Fatalf("%d store blocks: the test needs more", st.Blocks)
	}
	rq, _, err := compileQuery(seg, "text", "served", 0)
	if err != nil {
		t.Fatal(err)
	}
	all, err := seg.Docs(context.Background(), rq, nil)
	if err != nil || len(all) != lines {
		t.Fatalf("%d docs, %v", len(all), err)
	}
	f2 := &queryFlags{}
	print := func(ids []uint32) (batches int) {
		p := newRecordPrinter(io.Discard, f2, false)
		if err := p.printSegment(context.Background(), seg, rq, ids, nil, 0); err != nil {
			t.Fatal(err)
		}
		if err := p.w.Flush(); err != nil {
			t.Fatal(err)
		}
		if p.records != len(ids) || p.workers != 4 || p.batches < 2 {
			t.Fatalf("%d records printed of %d, %d batches, %d goroutines", p.records, len(ids), p.batches, p.workers)
		}
		return p.batches
	}
	// every third record: the batches end inside blocks
	var ids []uint32
	for i := 0; i < lines; i += 3 {
		ids = append(ids, uint32(i))
	}
	clear(cr.reads)
	batches := print(ids)
	distinct, again := 0, 0
	for _, n := range cr.reads {
		distinct++
		again += n - 1
	}
	if distinct < st.Blocks-1 || again > batches-1 {
		t.Errorf("%d store blocks, %d batches: %d offsets read, %d of them again", st.Blocks, batches, distinct, again)
	}
	t.Logf("%d store blocks, %d batches: %d offsets read, %d of them again", st.Blocks, batches, distinct, again)
	allocs := func(ids []uint32) float64 { // testing.AllocsPerRun would run on one goroutine
		var before, after runtime.MemStats
		print(ids)
		runtime.ReadMemStats(&before)
		for range 5 {
			print(ids)
		}
		runtime.ReadMemStats(&after)
		return float64(after.Mallocs-before.Mallocs) / 5
	}
	half := all[:lines/2] // over minParallelBlocks blocks too
	few, many := allocs(half), allocs(all)
	if perLine := (many - few) / float64(len(all)-len(half)); perLine > 0.1 {
		t.Errorf("%.0f allocations for %d lines, %.0f for %d: %.3f a line", few, len(half), many, len(all), perLine)
	}
	t.Logf("%.0f allocations for %d lines, %.0f for %d", few, len(half), many, len(all))
}

// TestBatchesLikeRipgrep: with four goroutines printing (several batches a
// query), snii query prints rg's lines, colors and context groups, and
// --top's records best first, each its input line.
func TestBatchesLikeRipgrep(t *testing.T) {
	bin := needRG(t)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	text, err := os.ReadFile(demoFile("app.log"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "app8.log") // eight copies: the matches span over minParallelBlocks blocks
	if err := os.WriteFile(log, bytes.Repeat(text, 8), 0o644); err != nil {
		t.Fatal(err)
	}
	seg := filepath.Join(dir, "app8.snii")
	ok(t, "build", "-q", "-o", seg, log)
	if r := ok(t, "query", seg, `"connection refused"`, "--profile"); !strings.Contains(r.stderr, "on up to 4 goroutines") {
		t.Fatalf("the records were not printed on four goroutines:\n%s", r.stderr)
	}
	for _, ph := range []string{"logged in from", "connection refused"} {
		for _, args := range [][]string{{"--color", "never"}, {"--color", "always", "-C", "2"}, {"-B", "1", "--color", "never"}, {"-A", "4", "--color", "never"}} {
			want := rg(t, bin, log, append(append([]string{"-F", "-i"}, args...), ph)...)
			if strings.Count(want, "\n") < 4*minPrintBatch {
				t.Fatalf("%q %v: %d lines, too few for several batches", ph, args, strings.Count(want, "\n"))
			}
			if got := ok(t, append([]string{"query", seg, `"` + ph + `"`}, args...)...).stdout; got != want {
				t.Errorf("%q %v: snii and rg differ:\n%s", ph, args, firstDiff(got, want))
			}
		}
	}
	lines := strings.Split(string(bytes.Repeat(text, 8)), "\n")
	q := "logged OR failed OR refused"
	var ids []string
	for _, m := range regexp.MustCompile(`doc ([0-9]+),`).FindAllStringSubmatch(ok(t, "query", seg, q, "--top", "100", "--ids").stdout, -1) {
		ids = append(ids, m[1])
	}
	out := strings.Split(strings.TrimSuffix(ok(t, "query", seg, q, "--top", "100", "--json").stdout, "\n"), "\n")
	var got []string
	for _, l := range out {
		var r recordLine
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Record != lines[r.ID] || r.Score == nil {
			t.Fatalf("--top --json: record %d is %q (score %v), line %q", r.ID, r.Record, r.Score, lines[r.ID])
		}
		got = append(got, fmt.Sprint(r.ID))
	}
	if len(got) != 100 || !slices.Equal(got, ids) {
		t.Errorf("--top 100 --json prints ids %v, --ids %v", got, ids)
	}
}
