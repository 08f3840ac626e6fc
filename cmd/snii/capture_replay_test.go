package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/replay"
)

func replayJSON(t *testing.T, args ...string) replay.Report {
	t.Helper()
	r := ok(t, append([]string{"replay"}, append(args, "--json", "-q")...)...)
	var rep replay.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("replay --json: %v\n%s", err, r.stdout)
	}
	return rep
}

// A segment's own capture, replayed with the segment's policy in captured order,
// reproduces the segment's recorded outcome: the eligible windows (zstd windows
// and bytes, the budget's accounting), and with --all every codec's windows and bytes.
func TestCaptureReplayReproducesSegment(t *testing.T) {
	dir := t.TempDir()
	for _, policy := range [][]string{nil, {"--prx-zstd-min-saving", "30"}, {"--budget-percent", "12"}} {
		seg := filepath.Join(dir, "app.snii")
		ok(t, append([]string{"build", "-q", "-o", seg, eligibleLog(t)}, policy...)...)
		for _, all := range []bool{false, true} {
			capPath := filepath.Join(dir, "app.cap")
			args := []string{seg, "-o", capPath}
			if all {
				args = append(args, "--all")
			}
			r := ok(t, append([]string{"capture"}, args...)...)
			if !strings.Contains(r.stdout, `index "text"`) {
				t.Fatalf("capture summary:\n%s", r.stdout)
			}
			want := "budget:8"
			if len(policy) > 0 {
				want = map[string]string{"30": "30", "12": "budget:12"}[policy[1]]
			}
			rep := replayJSON(t, capPath, "--policies", want, "--orders", "captured", "--cycles", "0")
			ir := rep.Indexes[0]
			if ir.Check == nil || !ir.Check.OK || ir.Check.Policy != want || ir.Check.AllCodecs != all {
				t.Fatalf("policy %s all=%v: check %+v", want, all, ir.Check)
			}
			if ir.Eligible == 0 || (all && ir.Windows <= ir.Eligible) {
				t.Fatalf("policy %s all=%v: %d windows, %d eligible", want, all, ir.Windows, ir.Eligible)
			}
			res := ir.Results[0]
			if res.Extra != ir.Recorded.Budget.Traded {
				t.Fatalf("extra %d, recorded traded %d", res.Extra, ir.Recorded.Budget.Traded)
			}
			if all && (res.AllFrames.Array() != ir.Recorded.Windows || res.AllBytes.Array() != ir.Recorded.Bytes) {
				t.Fatalf("all windows %+v %+v, recorded %v %v", res.AllFrames, res.AllBytes, ir.Recorded.Windows, ir.Recorded.Bytes)
			}
		}
	}
}

func TestReplayOutputs(t *testing.T) {
	dir := t.TempDir()
	seg := filepath.Join(dir, "app.snii")
	capPath := filepath.Join(dir, "app.cap")
	ok(t, "build", "-q", "-o", seg, eligibleLog(t))
	ok(t, "capture", seg, "-o", capPath, "-q")
	svg, csvPath := filepath.Join(dir, "chart.svg"), filepath.Join(dir, "samples.csv")
	r := ok(t, "replay", capPath, "--cycles", "1", "--blocks", "1", "--svg", svg, "--csv", csvPath, "--verify", "-q",
		"--policies", "0,30,budget:8", "--orders", "captured,shuffle:3")
	for _, want := range []string{`index "text"`, "budget:8", "shuffle:3", "reproduces it exactly"} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("replay output lacks %q:\n%s", want, r.stdout)
		}
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	points := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("chart is not XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "g" {
			for _, a := range se.Attr {
				if a.Name.Local == "class" && a.Value == "point" {
					points++
				}
			}
		}
	}
	if points != 6 {
		t.Fatalf("%d points in the chart, want 6", points)
	}
	c, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	// A header, then rows for each of the 6 policies in each of the 4 orders.
	if lines := strings.Count(string(c), "\n"); lines < 1+6*4 || (lines-1)%(6*4) != 0 {
		t.Fatalf("%d CSV lines, want a header and a multiple of %d rows", lines, 6*4)
	}
}

func TestCaptureReplayErrors(t *testing.T) {
	dir := t.TempDir()
	seg := filepath.Join(dir, "app.snii")
	capPath := filepath.Join(dir, "app.cap")
	ok(t, "build", "-q", "-o", seg, eligibleLog(t))
	ok(t, "capture", seg, "-o", capPath, "-q")
	data, err := os.ReadFile(capPath)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.cap")
	if err := os.WriteFile(bad, data[:len(data)-5], 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.cap")
	ok(t, "capture", seg, "-o", empty, "-q", "--field", "text")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"replay", bad, "--cycles", "0"}, exitFailure, "capture record"},
		{[]string{"replay", filepath.Join(dir, "missing.cap")}, exitFailure, "no such file"},
		{[]string{"replay", capPath, "--policies", "0,fast"}, exitUsage, `policy "fast"`},
		{[]string{"replay", capPath, "--orders", "random"}, exitUsage, `order "random"`},
		{[]string{"replay", capPath, "--cycles", "0", "--svg", filepath.Join(dir, "x.svg")}, exitUsage, "--svg needs decode timings"},
		{[]string{"replay", capPath, "--field", "nope"}, exitUsage, `index "nope"`},
		{[]string{"replay", capPath, "--zstd-level", "9"}, exitUsage, "--zstd-level"},
		{[]string{"replay"}, exitUsage, "accepts 1 arg"},
		{[]string{"capture", seg}, exitUsage, "--output (-o) is required"},
		{[]string{"capture", seg, "-o", capPath, "--field", "nope"}, exitUsage, `no field "nope"`},
		{[]string{"capture", capPath, "-o", filepath.Join(dir, "y.cap")}, exitFailure, "app.cap"},
	} {
		fails(t, tc.code, "", tc.args, tc.want)
	}
	if _, err := os.Stat(filepath.Join(dir, "y.cap")); !os.IsNotExist(err) {
		t.Errorf("a failed capture left its output: %v", err)
	}
}

// An empty capture (no windows) gives an empty report, not an error.
func TestReplayEmptyCapture(t *testing.T) {
	dir := t.TempDir()
	seg := filepath.Join(dir, "tiny.snii")
	in := filepath.Join(dir, "tiny.log")
	if err := os.WriteFile(in, []byte("a b c\nd e f\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok(t, "build", "-q", "-o", seg, in)
	capPath := filepath.Join(dir, "tiny.cap")
	ok(t, "capture", seg, "-o", capPath, "-q")
	svg := filepath.Join(dir, "tiny.svg")
	r := ok(t, "replay", capPath, "-q", "--svg", svg)
	if !strings.Contains(r.stdout, "no eligible windows") {
		t.Fatalf("empty replay:\n%s", r.stdout)
	}
	rep := replayJSON(t, capPath)
	if len(rep.Indexes) != 1 || rep.Indexes[0].Eligible != 0 || rep.Indexes[0].Check == nil || !rep.Indexes[0].Check.OK {
		t.Fatalf("empty replay report %+v", rep.Indexes)
	}
}
