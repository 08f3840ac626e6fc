package reader_test

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// TestRecordsReuseDecodeBuffers: a program that prints many records, one
// Records call per batch (as snii query does), decodes them into the same
// few buffers: once warm, reading blocks of every size (one record each,
// from 17 KiB to 900 KiB, growing and shrinking) allocates a small fraction
// of the bytes it decodes, and every record is still byte-equal.
func TestRecordsReuseDecodeBuffers(t *testing.T) {
	allocTest(t)
	var recs [][]byte
	var total int
	for i := range 72 {
		n := 17<<10 + (i*7919)%(64<<10) // one block each, plain lengths of every size class to 128 KiB
		if i%18 == 17 {
			n = 300<<10 + i*5000 // blocks over 256 KiB, under 1 MiB
		}
		var b bytes.Buffer
		for j := 0; b.Len() < n; j++ {
			fmt.Fprintf(&b, "record %d line %d value=%d ", i, j, (i*j)%977)
		}
		recs = append(recs, b.Bytes()[:n])
		total += n
	}
	s, err := reader.Open(buildRecords(t, recs, writer.DefaultOptions("text")), reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if st, _ := s.Store(); st.Blocks != len(recs) {
		t.Fatalf("%d blocks for %d records over a block each", st.Blocks, len(recs))
	}
	pass := func() {
		for lo := 0; lo < len(recs); lo += 4 {
			var ids []uint32
			for id := lo; id < min(lo+4, len(recs)); id++ {
				ids = append(ids, uint32(id))
			}
			err := s.Records(bg, ids, func(id uint32, rec []byte) error {
				if !bytes.Equal(rec, recs[id]) {
					return fmt.Errorf("record %d: %d bytes, want %d", id, len(rec), len(recs[id]))
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	on := gcOff()
	defer on()
	pass() // warm: the pooled context's buffers reach their sizes
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	pass()
	runtime.ReadMemStats(&after)
	on()
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(total/32) {
		t.Errorf("a warm pass over %d records of %d bytes allocated %d bytes, want at most %d (decode buffers reused)", len(recs), total, got, total/32)
	}
}

// TestRecordsBufferClassWithinBudget: a block whose size class is over the
// decode budget but whose plain length is within it still loads (its
// buffer is then of its exact size).
func TestRecordsBufferClassWithinBudget(t *testing.T) {
	recs := [][]byte{[]byte("small one"), bytes.Repeat([]byte("mid record "), 15_000), []byte("small two")} // 165 KB: class 256 KiB
	s, err := reader.Open(buildRecords(t, recs, writer.DefaultOptions("text")), reader.Options{DecodeBudget: reader.NewDecodeBudget(200 << 10)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.Records(bg, []uint32{0, 1, 2}, func(id uint32, rec []byte) error {
		if !bytes.Equal(rec, recs[id]) {
			return fmt.Errorf("record %d: %d bytes, want %d", id, len(rec), len(recs[id]))
		}
		return nil
	})
	if err != nil {
		t.Errorf("records of up to 165 KB under a 200 KiB budget: %v", err)
	}
}

// TestRecordsGrowingBlocksWithinBudget: ascending ids over blocks that grow
// (40, 70, 130 KiB, one record each) hold one decoded block at a time, so
// they load under a budget of 256 KiB although their buffers' size classes
// add up past it (a buffer too small for the next block gives its charge to
// the new one); so does Verify, which reads every block. Each runs on a
// segment of its own (no buffer pooled by the other).
func TestRecordsGrowingBlocksWithinBudget(t *testing.T) {
	var recs [][]byte
	for i, n := range []int{40 << 10, 70 << 10, 130 << 10} {
		var b bytes.Buffer
		for j := 0; b.Len() < n; j++ {
			fmt.Fprintf(&b, "record %d line %d value=%d ", i, j, (i*j*7919)%100003)
		}
		recs = append(recs, b.Bytes()[:n])
	}
	p := buildRecords(t, recs, writer.DefaultOptions("text"))
	for _, verify := range []bool{false, true} {
		s, err := reader.Open(p, reader.Options{DecodeBudget: reader.NewDecodeBudget(256 << 10)})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if st, _ := s.Store(); st.Blocks != len(recs) {
			t.Fatalf("%d blocks for %d records over 16 KiB", st.Blocks, len(recs))
		}
		if verify {
			if err := s.Verify(bg); err != nil {
				t.Errorf("Verify under a 256 KiB budget: %v", err)
			}
			continue
		}
		n := 0
		err = s.Records(bg, []uint32{0, 1, 2}, func(id uint32, rec []byte) error {
			if !bytes.Equal(rec, recs[id]) {
				return fmt.Errorf("record %d: %d bytes, want %d", id, len(rec), len(recs[id]))
			}
			n++
			return nil
		})
		if err != nil || n != len(recs) {
			t.Errorf("records of 40, 70 and 130 KiB in ascending order under a 256 KiB budget: %d read, %v", n, err)
		}
	}
}
