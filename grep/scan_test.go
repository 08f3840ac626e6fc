package grep_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii/grep"
)

// TestParallelBatches: with small batches read on several goroutines, the
// records come in ascending id order, exactly those the regexp selects
// (or, inverted, does not), the profile counts every record read once, and
// an error from fn stops the walk at once with that error.
func TestParallelBatches(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	recs := genRecords(rand.New(rand.NewPCG(7, 8)), 600)
	s := build(t, recs, "standard")
	for _, c := range []struct {
		expr   string
		invert bool
	}{
		{`(conn|timeout)`, false},
		{`[0-9]+`, false}, // no literal: every record
		{`error`, true},
	} {
		re := regexp.MustCompile(c.expr)
		var want []uint32
		for i, r := range recs {
			if re.MatchString(r) != c.invert {
				want = append(want, uint32(i))
			}
		}
		var got []uint32
		var prof grep.Profile
		err := grep.Grep(bg, s, re, &grep.Options{Batch: 3, Invert: c.invert, Profile: &prof}, func(id uint32, rec []byte) error {
			if string(rec) != recs[id] {
				t.Errorf("%s: record %d is %q, want %q", c.expr, id, rec, recs[id])
			}
			got = append(got, id)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s (invert %v): %d records %v..., want %d", c.expr, c.invert, len(got), got[:min(5, len(got))], len(want))
		}
		if prof.Matched != len(want) || prof.Candidates < len(want) || prof.Candidates > len(recs) {
			t.Errorf("%s: profile %d candidates, %d matched; want %d matched", c.expr, prof.Candidates, prof.Matched, len(want))
		}
		if len(want) < 10 {
			t.Fatalf("%s: only %d records selected: the stop below needs more", c.expr, len(want))
		}
		stop := errors.New("stop")
		calls := 0
		err = grep.Grep(bg, s, re, &grep.Options{Batch: 3, Invert: c.invert}, func(uint32, []byte) error {
			calls++
			if calls == 5 {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) || calls != 5 {
			t.Errorf("%s: stopping at the 5th record gave %v after %d calls", c.expr, err, calls)
		}
	}
}

// TestDefaultBatches: by default the candidates are read in about four
// batches per goroutine of at least 64 records (a store block split
// between two batches is decoded twice), and every record in batches of
// 1024 when the regexp gives no query.
func TestDefaultBatches(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	recs := genRecords(rand.New(rand.NewPCG(7, 9)), 3000)
	s := build(t, recs, "standard")
	for _, c := range []struct {
		expr       string
		candidates int // at least
	}{{`(conn|timeout)`, 1000}, {`Kelvin`, 10}, {`[0-9]+`, 3000}} {
		var prof grep.Profile
		if err := grep.Grep(bg, s, regexp.MustCompile(c.expr), &grep.Options{Profile: &prof}, func(uint32, []byte) error { return nil }); err != nil {
			t.Fatal(err)
		}
		size := min(max(prof.Candidates/8, 64), 1024)
		if prof.Query == "" {
			size = 1024
		}
		if want := (prof.Candidates + size - 1) / size; prof.Candidates < c.candidates || prof.Batches != want {
			t.Errorf("%s: %d candidates in %d batches, want %d", c.expr, prof.Candidates, prof.Batches, want)
		}
	}
}

// TestBatchBuffersReused: the records a batch selects are copied into
// buffers that later batches reuse, so a warm grep passing on 50 batches
// of large records allocates less than half their bytes (copying each batch
// into new buffers allocates more than their bytes).
func TestBatchBuffersReused(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector (sync.Pool drops items)")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	recs := make([]string, 800)
	matched := 0
	for i := range recs {
		var b strings.Builder
		for b.Len() < 4000 {
			fmt.Fprintf(&b, "record %d word%d ", i, b.Len()%97)
		}
		if i%2 == 0 {
			fmt.Fprintf(&b, "needle %d", i)
			matched += b.Len()
		}
		recs[i] = b.String()
	}
	s := build(t, recs, "standard")
	re := regexp.MustCompile(`needle [0-9]+`)
	n := 0
	run := func() {
		err := grep.Grep(bg, s, re, &grep.Options{Batch: 8}, func(id uint32, rec []byte) error {
			if string(rec) != recs[id] {
				return fmt.Errorf("record %d: %d bytes, want %d", id, len(rec), len(recs[id]))
			}
			n++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	run() // warm: pooled decoders, contexts and buffers
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	run()
	runtime.ReadMemStats(&after)
	if n != len(recs) {
		t.Fatalf("%d records selected in two runs, want %d", n, len(recs))
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(matched/2) {
		t.Errorf("a warm grep passing on %d bytes of records in batches of 8 allocated %d bytes, want at most %d", matched, got, matched/2)
	}
}
