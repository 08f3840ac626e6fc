package reader_test

import (
	"os"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/reader"
)

// serviceFetchPhrases are phrase queries with hits on the service logs (from
// bench/queries/service.txt).
var serviceFetchPhrases = []string{
	"secondary module capability", "mount cache", "fast fpu save and restore",
	"acpi disabled because your bios is", "new driver usbfs", "bios version", "hot plug pci core",
	"client address connection", "user unknown timed", "timed out", "max retries",
	"opened for user root by uid", "proxy server cannot", "child workerenv in", "contains no soa",
	"workerenv init ok", "closed for", "for user", "by rule",
}

// TestStoreFetchSideBySide compares segments of the same lines (field
// "text") built with different store layouts, side by side in one process:
// for each phrase of serviceFetchPhrases, the CPU time of counting its hits
// and finding the first 20, and of loading their records, alternating the
// segments over six rounds. It logs the per-phrase times and their totals.
// The segments are named by SNII_FETCH_SEGS (comma-separated paths, e.g. one
// built by each of two snii binaries: snii build -q -o S --format lines
// loghub/full/*.log); it skips without them.
func TestStoreFetchSideBySide(t *testing.T) {
	env := os.Getenv("SNII_FETCH_SEGS")
	if env == "" {
		t.Skip("SNII_FETCH_SEGS names no segments")
	}
	paths := strings.Split(env, ",")
	segs := make([]*reader.Segment, len(paths))
	for i, p := range paths {
		s, err := reader.Open(p, reader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		segs[i] = s
	}
	const rounds, reps = 6, 100
	totQuery, totRecords := make([]float64, len(segs)), make([]float64, len(segs))
	for _, p := range serviceFetchPhrases {
		q := reader.Phrase("text", strings.Fields(p)...)
		query, records := make([]float64, len(segs)), make([]float64, len(segs))
		for range rounds {
			for k, s := range segs {
				ids, err := s.Docs(bg, q, &reader.SearchOptions{Limit: 20})
				if err != nil {
					t.Fatal(err)
				}
				t0 := testkit.CPUTime()
				for range reps {
					if _, err := s.Count(bg, q, nil); err != nil {
						t.Fatal(err)
					}
					if _, err := s.Docs(bg, q, &reader.SearchOptions{Limit: 20}); err != nil {
						t.Fatal(err)
					}
				}
				t1 := testkit.CPUTime()
				for range reps {
					if err := s.Records(bg, ids, func(uint32, []byte) error { return nil }); err != nil {
						t.Fatal(err)
					}
				}
				t2 := testkit.CPUTime()
				query[k] += (t1 - t0).Seconds() * 1e6 / reps / rounds
				records[k] += (t2 - t1).Seconds() * 1e6 / reps / rounds
			}
		}
		t.Logf("%-36s count+first 20 µs %.0f, records µs %.0f", p, query, records)
		for k := range segs {
			totQuery[k] += query[k]
			totRecords[k] += records[k]
		}
	}
	t.Logf("total over %d phrases: count+first 20 µs %.0f, records µs %.0f", len(serviceFetchPhrases), totQuery, totRecords)
}
