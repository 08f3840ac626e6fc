package capture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/limits"
)

// plain builds a plain payload: doc count, then per doc its position count and
// positions (first absolute, then deltas).
func plain(docs ...[]uint32) []byte {
	b := binary.AppendUvarint(nil, uint64(len(docs)))
	for _, ps := range docs {
		b = binary.AppendUvarint(b, uint64(len(ps)))
		prev := uint32(0)
		for i, p := range ps {
			if i == 0 {
				b = binary.AppendUvarint(b, uint64(p))
			} else {
				b = binary.AppendUvarint(b, uint64(p-prev))
			}
			prev = p
		}
	}
	return b
}

type testWin struct {
	index    int
	eligible bool
	plain    []byte
}

func sampleWindows(n int) []testWin {
	var out []testWin
	for i := range n {
		var docs [][]uint32
		for d := range 1 + i%7 {
			var ps []uint32
			for p := range 1 + (i+d)%5 {
				ps = append(ps, uint32(p*3+d))
			}
			docs = append(docs, ps)
		}
		out = append(out, testWin{index: i % 2, eligible: i%3 != 0, plain: plain(docs...)})
	}
	return out
}

var sampleInfos = []IndexInfo{
	{Name: "body", Known: true, Policy: budget.Policy{}, ZstdLevel: 3,
		Limits: limits.Limits{}.Normalize()},
	{Name: "title"},
}

func writeSample(t testing.TB, all bool, wins []testWin, withOutcome bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, WriterOptions{All: all})
	if err != nil {
		t.Fatal(err)
	}
	for i, info := range sampleInfos {
		got, err := w.AddIndex(info)
		if err != nil || got != i {
			t.Fatalf("AddIndex(%q) = %d, %v", info.Name, got, err)
		}
	}
	for _, tw := range wins {
		if err := w.Window(tw.index, tw.eligible, tw.plain); err != nil {
			t.Fatal(err)
		}
	}
	if withOutcome {
		o := Outcome{Windows: [3]int64{5, 6, 7}, Bytes: [3]int64{100, 200, 300},
			Budget: budget.Outcome{Eligible: 6, SumSmallest: 999, Traded: 12, TradedCount: 2, FinalShare: 41, Allowance: 79}}
		if err := w.SetOutcome(0, o); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	wins := sampleWindows(50)
	for _, all := range []bool{false, true} {
		t.Run(fmt.Sprint("all=", all), func(t *testing.T) {
			data := writeSample(t, all, wins, true)
			got, infos, gotAll, err := ReadAll(bytes.NewReader(data), ReaderOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if gotAll != all {
				t.Fatalf("All = %v, want %v", gotAll, all)
			}
			var want []Unit
			for _, tw := range wins {
				if !tw.eligible && !all {
					continue
				}
				d, _ := binary.Uvarint(tw.plain)
				want = append(want, Unit{Index: tw.index, Eligible: tw.eligible, Docs: int(d), Plain: tw.plain,
					Record: int64(len(sampleInfos) + len(want)), Ordinal: int64(len(want))})
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("windows (-want +got):\n%s", diff)
			}
			wantInfos := append([]IndexInfo(nil), sampleInfos...)
			wantInfos[0].Recorded = &Outcome{Windows: [3]int64{5, 6, 7}, Bytes: [3]int64{100, 200, 300},
				Budget: budget.Outcome{Policy: budget.Policy{}, Eligible: 6, SumSmallest: 999, Traded: 12,
					TradedCount: 2, FinalShare: 41, Allowance: 79}}
			if diff := cmp.Diff(wantInfos, infos); diff != "" {
				t.Fatalf("indexes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEmptyCapture(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != HeaderSize+4+3+4 {
		t.Fatalf("empty capture is %d bytes", buf.Len())
	}
	wins, infos, _, err := ReadAll(&buf, ReaderOptions{})
	if err != nil || len(wins) != 0 || len(infos) != 0 {
		t.Fatalf("ReadAll(empty) = %d windows, %d indexes, %v", len(wins), len(infos), err)
	}
}

func TestWriterIndexAutoDeclare(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, WriterOptions{All: true})
	a, err1 := w.Index("f")
	b, err2 := w.Index("f")
	c, err3 := w.Index("g")
	if err1 != nil || err2 != nil || err3 != nil || a != 0 || b != 0 || c != 1 {
		t.Fatalf("Index: %d %d %d (%v %v %v)", a, b, c, err1, err2, err3)
	}
	if _, err := w.AddIndex(IndexInfo{Name: "f"}); !errors.Is(err, errs.InvalidArgument) {
		t.Fatalf("declaring f twice: %v", err)
	}
	if err := w.Window(7, true, plain([]uint32{1})); !errors.Is(err, errs.InvalidArgument) {
		t.Fatalf("window of an undeclared index: %v", err)
	}
	if err := w.Window(0, true, nil); !errors.Is(err, errs.InvalidArgument) {
		t.Fatalf("window without a doc count: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Window(0, true, plain([]uint32{1})); !errors.Is(err, errs.Closed) {
		t.Fatalf("window after Close: %v", err)
	}
}

func TestWriterConcurrent(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, WriterOptions{})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			idx, err := w.Index(fmt.Sprint("f", g))
			if err != nil {
				t.Error(err)
				return
			}
			for i := range 100 {
				if err := w.Window(idx, true, plain([]uint32{uint32(i)})); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	wins, infos, _, err := ReadAll(&buf, ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	next := make([]uint64, len(infos))
	for _, win := range wins {
		// plain = docs(1) count(1) pos: the position is the window's number within its field.
		if p := uint64(win.Plain[2]); p != next[win.Index] {
			t.Fatalf("index %d: window %d out of order (want %d)", win.Index, p, next[win.Index])
		}
		next[win.Index]++
	}
	if len(wins) != 400 {
		t.Fatalf("%d windows, want 400", len(wins))
	}
}

// Every truncation of a valid capture is an error naming a record (or the header),
// of kind Corrupt, and never a panic.
func TestTruncated(t *testing.T) {
	data := writeSample(t, true, sampleWindows(20), true)
	for n := range len(data) {
		_, _, _, err := ReadAll(bytes.NewReader(data[:n]), ReaderOptions{})
		if err == nil {
			t.Fatalf("truncated to %d of %d bytes: no error", n, len(data))
		}
		if !errors.Is(err, errs.Corrupt) {
			t.Fatalf("truncated to %d: %v is not Corrupt", n, err)
		}
		if n >= HeaderSize && !strings.Contains(err.Error(), "capture record ") {
			t.Fatalf("truncated to %d: %q does not name the record", n, err)
		}
	}
}

// Every single-bit flip of a valid capture is detected.
func TestCorrupt(t *testing.T) {
	data := writeSample(t, false, sampleWindows(8), true)
	for i := range data {
		for bit := range 8 {
			bad := bytes.Clone(data)
			bad[i] ^= 1 << bit
			_, _, _, err := ReadAll(bytes.NewReader(bad), ReaderOptions{})
			if err == nil {
				t.Fatalf("flip of bit %d of byte %d: no error", bit, i)
			}
			if !errors.Is(err, errs.Corrupt) && !errors.Is(err, errs.Version) {
				t.Fatalf("flip of bit %d of byte %d: %v", bit, i, err)
			}
		}
	}
}

func TestCorruptNamesRecord(t *testing.T) {
	wins := sampleWindows(10)
	data := writeSample(t, true, wins, false)
	// Find record 5 and damage its body.
	off := HeaderSize
	for range 5 {
		off += 4 + int(binary.LittleEndian.Uint32(data[off:])) + 4
	}
	bad := bytes.Clone(data)
	bad[off+5] ^= 0x40
	r, err := NewReader(bytes.NewReader(bad), ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	for {
		_, err = r.Next()
		if err != nil {
			break
		}
		n++
	}
	if want := fmt.Sprintf("capture record 5 at offset %d: crc", off); !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not contain %q", err, want)
	}
	if n != 3 { // records 0, 1 declare the fields; 2, 3, 4 are windows
		t.Fatalf("read %d windows before the bad record, want 3", n)
	}
	if _, err2 := r.Next(); err2 != err {
		t.Fatalf("error is not sticky: %v then %v", err, err2)
	}
}

func TestBadHeader(t *testing.T) {
	good := appendHeader(nil, false)
	newer := bytes.Clone(good)
	binary.LittleEndian.PutUint16(newer[4:], 3)
	binary.LittleEndian.PutUint16(newer[6:], 2)
	binary.LittleEndian.PutUint32(newer[12:], crc(newer[:12]))
	readable := bytes.Clone(good)
	binary.LittleEndian.PutUint16(readable[4:], 2) // newer, but readable by version 1
	binary.LittleEndian.PutUint32(readable[12:], crc(readable[:12]))
	for _, tc := range []struct {
		name string
		b    []byte
		kind error
	}{
		{"empty", nil, errs.Corrupt},
		{"short", good[:9], errs.Corrupt},
		{"magic", append([]byte("SNII"), good[4:]...), errs.Corrupt},
		{"newer", newer, errs.Version},
	} {
		if _, err := NewReader(bytes.NewReader(tc.b), ReaderOptions{}); !errors.Is(err, tc.kind) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.kind)
		}
	}
	if _, err := NewReader(bytes.NewReader(readable), ReaderOptions{}); err != nil {
		t.Errorf("newer version with min reader 1: %v", err)
	}
}

// A record length above the limit is rejected before allocating, and a lying
// length in a short file allocates only what the file holds.
func TestBoundedAllocation(t *testing.T) {
	huge := appendHeader(nil, false)
	huge = binary.LittleEndian.AppendUint32(huge, 1<<31)
	if _, _, _, err := ReadAll(bytes.NewReader(huge), ReaderOptions{}); !errors.Is(err, errs.Corrupt) ||
		!strings.Contains(err.Error(), "over the limit") {
		t.Fatalf("huge record: %v", err)
	}
	small := appendHeader(nil, false)
	small = binary.LittleEndian.AppendUint32(small, 100)
	small = append(small, make([]byte, 50)...)
	if _, _, _, err := ReadAll(bytes.NewReader(small), ReaderOptions{MaxRecord: 64}); err == nil ||
		!strings.Contains(err.Error(), "over the limit of 64") {
		t.Fatalf("record over MaxRecord: %v", err)
	}
	lying := appendHeader(nil, false)
	lying = binary.LittleEndian.AppendUint32(lying, DefaultMaxRecord)
	lying = append(lying, make([]byte, 1000)...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, _, err := ReadAll(bytes.NewReader(lying), ReaderOptions{})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, errs.Corrupt) || !strings.Contains(err.Error(), "truncated record") {
		t.Fatalf("lying length: %v", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Fatalf("a 1 KB file claiming a %d-byte record allocated %d bytes", DefaultMaxRecord, got)
	}
}

func TestTrailingBytes(t *testing.T) {
	data := append(writeSample(t, false, sampleWindows(3), false), 0)
	_, _, _, err := ReadAll(bytes.NewReader(data), ReaderOptions{})
	if !errors.Is(err, errs.Corrupt) || !strings.Contains(err.Error(), "after the end record") {
		t.Fatalf("trailing byte: %v", err)
	}
}

// body builds a record with a valid CRC around any body.
func record(body []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(body)))
	b = append(b, body...)
	return binary.LittleEndian.AppendUint32(b, crc(body))
}

func TestInconsistentRecords(t *testing.T) {
	idx := appendIndexBody(nil, &IndexInfo{Name: "f"})
	win := func(index uint64, flags byte, docs uint64, p []byte) []byte {
		b := []byte{kindWindow}
		b = binary.AppendUvarint(b, index)
		b = append(b, flags)
		b = binary.AppendUvarint(b, docs)
		return append(b, p...)
	}
	end := func(records, windows uint64) []byte {
		b := []byte{kindEnd}
		b = binary.AppendUvarint(b, records)
		return binary.AppendUvarint(b, windows)
	}
	for _, tc := range []struct {
		name    string
		records [][]byte
		want    string
	}{
		{"undeclared index", [][]byte{win(0, 1, 1, plain([]uint32{1})), end(1, 1)}, "record 0 at offset 16: window 0:"},
		{"doc count", [][]byte{idx, win(0, 1, 2, plain([]uint32{1})), end(2, 1)}, "record 1 at offset"},
		{"fast path in eligible capture", [][]byte{idx, win(0, 0, 1, plain([]uint32{1})), end(2, 1)}, "fast-path window"},
		{"end counts", [][]byte{idx, win(0, 1, 1, plain([]uint32{1})), end(2, 0)}, "end record counts"},
		{"twice", [][]byte{idx, idx, end(2, 0)}, "declared twice"},
		{"kind", [][]byte{{99}}, "unknown record kind 99"},
		{"empty body", [][]byte{{}}, "empty record"},
		{"no end", [][]byte{idx}, "truncated capture"},
	} {
		data := appendHeader(nil, false)
		for _, r := range tc.records {
			data = append(data, record(r)...)
		}
		_, _, _, err := ReadAll(bytes.NewReader(data), ReaderOptions{})
		if !errors.Is(err, errs.Corrupt) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

type failWriter struct{ after int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.after < len(p) {
		return 0, io.ErrShortWrite
	}
	f.after -= len(p)
	return len(p), nil
}

func TestWriterError(t *testing.T) {
	w, err := NewWriter(&failWriter{after: 100}, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.AddIndex(IndexInfo{Name: "f"}); err != nil {
		t.Fatal(err)
	}
	big := plain(make([][]uint32, 1)...)
	big = append(big, make([]byte, 300<<10)...) // more than the writer's buffer
	err1 := w.Window(0, true, big)
	err2 := w.Close()
	if err1 == nil && err2 == nil {
		t.Fatal("write errors were lost")
	}
}

// Encoded keeps what an encoder hook hands it: one record per unit, the eligible
// units (or all with All), each with its docs' plain payload.
func TestEncoded(t *testing.T) {
	enc, err := prx.NewEncoder(prx.EncoderOptions{Policy: budget.Policy{}})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	var small, big, multi prx.Window
	small.AppendDoc([]uint32{1, 5})
	for d := range 200 {
		big.AppendDoc([]uint32{uint32(d), uint32(d + 7), uint32(4*d + 7)})
	}
	for d := range 900 { // 2700 positions: three units, the last one short
		multi.AppendDoc([]uint32{uint32(d), uint32(d + 7), uint32(4*d + 7)})
	}
	for _, all := range []bool{false, true} {
		var buf bytes.Buffer
		w, _ := NewWriter(&buf, WriterOptions{All: all})
		idx, _ := w.Index("f")
		type rec struct {
			plain    []byte
			eligible bool
		}
		var want []rec
		for _, win := range []*prx.Window{&small, &big, &multi} {
			f, err := enc.Encode(win)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Encoded(idx, win, f); err != nil {
				t.Fatal(err)
			}
			var sub prx.Window
			for _, u := range f.Units {
				if u.Eligible || all {
					want = append(want, rec{prx.AppendPlain(nil, win.Slice(u.Lo, u.Hi, &sub)), u.Eligible})
				}
			}
		}
		bad := prx.Frame{Units: []prx.Unit{{Lo: 0, Hi: 1, Eligible: true}}}
		if err := w.Encoded(idx, &prx.Window{Offsets: []uint32{0, 5}}, bad); !errors.Is(err, errs.InvalidArgument) {
			t.Fatalf("invalid window: %v", err)
		}
		bad.Units[0].Hi = 2
		if err := w.Encoded(idx, &small, bad); !errors.Is(err, errs.InvalidArgument) {
			t.Fatalf("unit outside the window: %v", err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		wins, _, _, err := ReadAll(&buf, ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(wins) != len(want) || len(want) < 3 {
			t.Fatalf("all=%v: %d records, want %d", all, len(wins), len(want))
		}
		for i, win := range wins {
			if !bytes.Equal(win.Plain, want[i].plain) || win.Eligible != want[i].eligible {
				t.Fatalf("all=%v: record %d differs", all, i)
			}
		}
	}
}
