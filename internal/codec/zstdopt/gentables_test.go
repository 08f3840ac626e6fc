package zstdopt_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"go/format"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/klauspost/compress/huff0"
	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/codec/zstdopt"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/writer"
)

// genTableCount is the number of tables TestGenTables makes (it becomes
// zstdopt.NumTables, less any table no training frame chose). Of 8, 12, 16, 24
// and 32 tables trained on these corpora, 24 made the smallest frames of the
// benchmark corpora (32 gave the same).
const genTableCount = 24

var (
	genTables = flag.Bool("gen-tables", false, "regenerate tables.go (the shared literal tables) from the training corpora")
	corpora   = flag.String("corpora", "../../../../shared/corpora", "with -gen-tables: the corpora directory")
)

// The training inputs of the shared literal tables: corpora the benchmarks do
// not use (the loghub 2k samples of systems other than Linux, Proxifier and
// Apache, whose full logs are the service benchmark; the KJV; the SWE-agent
// demonstrations), so that the tables are measured out of sample.
func trainingFiles(t *testing.T, root string) []string {
	var files []string
	logs, _ := filepath.Glob(filepath.Join(root, "loghub/2k/*.log"))
	for _, f := range logs {
		b := filepath.Base(f)
		if b == "Linux_2k.log" || b == "Proxifier_2k.log" || b == "Apache_2k.log" {
			continue
		}
		files = append(files, f)
	}
	files = append(files, filepath.Join(root, "kjv-bible/kjv.tsv"))
	demos, _ := filepath.Glob(filepath.Join(root, "agent-trajectories/swe-agent-demonstrations/*.traj"))
	files = append(files, demos...)
	if len(files) < 10 {
		t.Fatalf("training corpora not found under %s", root)
	}
	return files
}

// trainingPayloads builds segments of each file (trainingGroups) and returns
// the RAW positions payload of every eligible unit the writer encodes, each
// as many times as its group's weight.
func trainingPayloads(t *testing.T, files []string) [][]byte {
	var out [][]byte
	enc, err := prx.NewEncoder(prx.EncoderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	for _, path := range files {
		for _, g := range trainingGroups {
			ps := groupPayloads(t, enc, path, g.lines)
			for range g.weight {
				out = append(out, ps...)
			}
		}
	}
	return out
}

// trainingGroups are the document lengths of the training builds, in input
// lines per document, and the weight of their frames: logs are indexed a line
// a document (weight 3), but traces and other long documents have position
// deltas of several bytes, which one line per document never shows.
var trainingGroups = []struct{ lines, weight int }{{1, 3}, {5, 1}, {20, 1}, {100, 1}}

// groupPayloads builds a segment of path's lines, group lines a document, and
// returns the RAW positions payload of every eligible unit the writer encodes.
func groupPayloads(t *testing.T, enc *prx.Encoder, path string, group int) [][]byte {
	var out [][]byte
	o := writer.DefaultOptions("text")
	seam.SetOnWindow(&o, func(_ string, w *prx.Window, f prx.Frame) error {
		rf, err := enc.EncodeCodec(w, prx.CodecRaw)
		if err != nil {
			return err
		}
		for i, u := range f.Units {
			if !u.Eligible {
				continue
			}
			ru := rf.Units[i]
			end := ru.Off + ru.Len - prx.CRCSize
			out = append(out, bytes.Clone(rf.Bytes[end-ru.PlainLen:end]))
		}
		return nil
	})
	w, err := writer.Create(context.Background(), filepath.Join(t.TempDir(), "train.snii"), o)
	if err != nil {
		t.Fatal(err)
	}
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 64<<20)
	var doc strings.Builder
	n := 0
	flush := func() {
		if n > 0 {
			if _, err := w.Add(writer.Doc("text", doc.String())); err != nil {
				t.Fatal(err)
			}
		}
		doc.Reset()
		n = 0
	}
	for sc.Scan() {
		doc.WriteString(sc.Text())
		doc.WriteByte('\n')
		if n++; n == group {
			flush()
		}
	}
	flush()
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// literalHist returns the histogram of the literals of payload's zstd frame
// (ok false when its literals are not Huffman coded with a table of their own).
func literalHist(t *testing.T, enc *zstd.Encoder, payload []byte) (h [256]uint32, ok bool) {
	fr := enc.EncodeAll(payload, nil)
	lits, ok := zstdopt.FrameLiterals(fr)
	for _, c := range lits {
		h[c]++
	}
	return h, ok
}

func smoothedTable(t *testing.T, h *[256]uint32) *huff0.Scratch {
	var c [256]uint32
	for i := range c {
		c[i] = h[i]*4 + 1 // every byte value gets a code
	}
	s := &huff0.Scratch{}
	if err := s.BuildCTable(&c); err != nil {
		t.Fatal(err)
	}
	return s
}

// cluster splits the histograms into k groups (Lloyd's iterations, each
// histogram to the table that codes it in the fewest bits, from an initial
// split by the share of the most frequent byte) and returns a table per group.
func cluster(t *testing.T, hs [][256]uint32, k int) []*huff0.Scratch {
	idx := make([]int, len(hs))
	key := make([]float64, len(hs))
	for i := range hs {
		idx[i] = i
		var mx, tot uint32
		for _, v := range hs[i] {
			tot += v
			mx = max(mx, v)
		}
		key[i] = float64(mx) / float64(tot)
	}
	sort.SliceStable(idx, func(a, b int) bool { return key[idx[a]] < key[idx[b]] })
	assign := make([]int, len(hs))
	for r, i := range idx {
		assign[i] = r * k / len(hs)
	}
	var tabs []*huff0.Scratch
	for it := 0; it < 20; it++ {
		sums := make([][256]uint32, k)
		for i := range hs {
			for s, v := range hs[i] {
				sums[assign[i]][s] += v
			}
		}
		tabs = tabs[:0]
		for j := range sums {
			tabs = append(tabs, smoothedTable(t, &sums[j]))
		}
		changed := 0
		for i := range hs {
			best, bj := math.MaxInt, 0
			for j, tb := range tabs {
				if e := tb.EstimateSize(&hs[i]); e >= 0 && e < best {
					best, bj = e, j
				}
			}
			if bj != assign[i] {
				changed++
				assign[i] = bj
			}
		}
		if changed == 0 {
			break
		}
	}
	// Drop the tables no histogram chose.
	used := make([]bool, len(tabs))
	for _, j := range assign {
		used[j] = true
	}
	kept := tabs[:0]
	for j, tb := range tabs {
		if used[j] {
			kept = append(kept, tb)
		}
	}
	return kept
}

// TestGenTables regenerates tables.go: go test ./internal/codec/zstdopt -run TestGenTables -gen-tables
func TestGenTables(t *testing.T) {
	if !*genTables {
		t.Skip("run with -gen-tables to regenerate tables.go")
	}
	payloads := trainingPayloads(t, trainingFiles(t, *corpora))
	enc, err := zstdopt.NewEncoder(0)
	if err != nil {
		t.Fatal(err)
	}
	var hs [][256]uint32
	for _, p := range payloads {
		if h, ok := literalHist(t, enc, p); ok {
			hs = append(hs, h)
		}
	}
	t.Logf("%d eligible units, %d with Huffman-coded literals", len(payloads), len(hs))
	tabs := cluster(t, hs, genTableCount)

	// The entropy tables every dictionary must carry (never used: a frame
	// Share writes has no sequence table in repeat mode) come from one
	// dictionary built over the training units.
	zero := make([]byte, 8)
	base, err := zstd.BuildDict(zstd.BuildDictOptions{ID: 1, Contents: payloads, History: zero, Offsets: [3]int{1, 4, 8}, Level: zstd.SpeedDefault})
	if err != nil {
		t.Fatal(err)
	}
	_, rest, err := huff0.ReadTable(base[8:], nil)
	if err != nil {
		t.Fatal(err)
	}
	fse := base[len(base)-len(rest) : len(base)-len(zero)-12]

	var src bytes.Buffer
	src.WriteString(`// Code generated by TestGenTables (go test ./internal/codec/zstdopt -run TestGenTables -gen-tables); DO NOT EDIT.

package zstdopt

// NumTables is the number of shared literal tables.
const NumTables = ` + fmt.Sprint(len(tabs)) + `

// Tables are the shared literal tables as zstd dictionaries: Tables[i] has
// dictionary ID i+1. Their bytes are part of the format (docs/FORMAT.md).
var Tables = [NumTables][]byte{
`)
	for i, tb := range tabs {
		d := binary.LittleEndian.AppendUint32(nil, 0xEC30A437)
		d = binary.LittleEndian.AppendUint32(d, uint32(i+1))
		if d, err = tb.AppendTable(d); err != nil {
			t.Fatal(err)
		}
		d = append(d, fse...)
		for _, o := range []uint32{1, 4, 8} {
			d = binary.LittleEndian.AppendUint32(d, o)
		}
		d = append(d, zero...)
		fmt.Fprintf(&src, "\t{")
		for j, c := range d {
			if j%16 == 0 {
				src.WriteString("\n\t\t")
			}
			fmt.Fprintf(&src, "0x%02x, ", c)
		}
		src.WriteString("\n\t},\n")
	}
	src.WriteString("}\n")
	out, err := format.Source(src.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("tables.go", out, 0o644); err != nil {
		t.Fatal(err)
	}
}
