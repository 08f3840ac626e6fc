package reader_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// genRecords returns n records: empty ones, binary ones, text, and a few
// larger than a store block.
func genRecords(seed uint64, n int) [][]byte {
	r := rand.New(rand.NewPCG(seed, 1))
	recs := make([][]byte, n)
	for i := range recs {
		var b []byte
		switch k := r.IntN(20); {
		case k == 0:
			b = []byte{}
		case k == 1:
			b = make([]byte, r.IntN(64))
			for j := range b {
				b[j] = byte(r.UintN(256))
			}
		case k == 2 && r.IntN(10) == 0:
			b = bytes.Repeat([]byte("huge record "), format.StoreBlockTarget/12*(1+r.IntN(3))+r.IntN(100))
		default:
			for j := r.IntN(30); j >= 0; j-- {
				b = append(b, []string{"connection", "refused", "host", "db-1", "error", "timeout", "GET /index"}[r.IntN(7)]...)
				b = append(b, ' ')
			}
		}
		recs[i] = b
	}
	return recs
}

// buildRecords writes a segment whose documents store recs (each also
// indexed as its "text" value) and returns its path.
func buildRecords(t testing.TB, recs [][]byte, o writer.Options) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "rec.snii")
	w, err := writer.Create(context.Background(), p, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if _, err := w.Add(writer.Document{Fields: []writer.Field{{Name: "text", Values: []string{string(r)}}}, Record: r}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkRecords asserts every record of s is byte-equal to recs, one at a
// time, in order, and in a shuffled batch.
func checkRecords(t *testing.T, s *reader.Segment, recs [][]byte) {
	t.Helper()
	for i, want := range recs {
		got, err := s.Record(bg, uint32(i))
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("record %d: %d bytes, want %d", i, len(got), len(want))
		}
	}
	ids := make([]uint32, len(recs))
	for i := range ids {
		ids[i] = uint32(i)
	}
	r := rand.New(rand.NewPCG(7, 7))
	for _, order := range []string{"ascending", "shuffled"} {
		if order == "shuffled" {
			r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
			ids = append(ids, ids[:len(ids)/3]...) // repeats
		}
		k := 0
		err := s.Records(bg, ids, func(id uint32, rec []byte) error {
			if id != ids[k] {
				t.Fatalf("%s: call %d for id %d, want %d", order, k, id, ids[k])
			}
			if !bytes.Equal(rec, recs[id]) {
				t.Fatalf("%s: record %d differs", order, id)
			}
			k++
			return nil
		})
		if err != nil || k != len(ids) {
			t.Fatalf("%s: %d of %d records, %v", order, k, len(ids), err)
		}
	}
}

func TestStoreRoundTrip(t *testing.T) {
	recs := genRecords(1, 3000)
	o := writer.DefaultOptions("text")
	p := buildRecords(t, recs, o)
	s := open(t, p)
	info, ok := s.Store()
	if !ok || info.Records != uint64(len(recs)) || info.Format != snii.RecordJSON || info.Blocks < 2 {
		t.Fatalf("store %+v %v", info, ok)
	}
	var raw uint64
	for _, r := range recs {
		raw += uint64(len(r))
	}
	if info.RawBytes != raw || info.Bytes == 0 || info.Bytes >= raw {
		t.Errorf("store bytes %d, raw %d (want raw %d, compressed below it)", info.Bytes, info.RawBytes, raw)
	}
	checkRecords(t, s, recs)
	if err := s.Verify(bg); err != nil {
		t.Fatal(err)
	}
	// Through a plain ReaderAt (no mapping) too.
	b := testkit.ReadFile(t, p)
	s2, err := openBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	checkRecords(t, s2, recs)
}

func TestStoreErrors(t *testing.T) {
	recs := genRecords(2, 50)
	o := writer.DefaultOptions("text")
	s := open(t, buildRecords(t, recs, o))
	if _, err := s.Record(bg, uint32(len(recs))); !errors.Is(err, errs.InvalidArgument) {
		t.Errorf("id past the documents: %v", err)
	}
	stop := errors.New("stop")
	n := 0
	if err := s.Records(bg, []uint32{0, 1, 2}, func(uint32, []byte) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
		t.Errorf("fn's error: %v after %d calls", err, n)
	}
	o.NoStore = true
	ns := open(t, buildRecords(t, recs, o))
	if _, ok := ns.Store(); ok {
		t.Error("NoStore segment reports a store")
	}
	if _, err := ns.Record(bg, 0); !errors.Is(err, errs.NotFound) {
		t.Errorf("no store: %v", err)
	}
	if err := ns.Verify(bg); err != nil {
		t.Error(err)
	}
}

// TestStoreDocumentJSON: a nil Record stores the fields as a JSON object.
func TestStoreDocumentJSON(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j.snii")
	o := writer.DefaultOptions("text", "host")
	docs := []writer.Document{
		writer.Doc("text", "a <b> \"c\"", "host", "h1", "text", "second"),
		{},
		{Fields: []writer.Field{{Name: "host", Values: []string{"x"}}}, Record: []byte{}},
	}
	w, err := writer.Create(context.Background(), p, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if _, err := w.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	s := open(t, p)
	want := []string{`{"text":["a <b> \"c\"","second"],"host":"h1"}`, `{}`, ``}
	for i, w := range want {
		got, err := s.Record(bg, uint32(i))
		if err != nil || string(got) != w {
			t.Errorf("record %d: %q, %v; want %q", i, got, err, w)
		}
	}
}

// TestStoreCorrupt: flipping any byte of the store section gives ErrCorrupt
// at open, Record or Verify, never a panic or a wrong record.
func TestStoreCorrupt(t *testing.T) {
	recs := genRecords(3, 400)
	p := buildRecords(t, recs, writer.DefaultOptions("text"))
	b := testkit.ReadFile(t, p)
	s := open(t, p)
	info, _ := s.Store()
	start := uint64(len(b)) - info.Bytes - 64 // the store and around it
	r := rand.New(rand.NewPCG(3, 3))
	for k := 0; k < 300; k++ {
		c := slices.Clone(b)
		off := start + uint64(r.IntN(int(info.Bytes)))
		c[off] ^= byte(1 + r.IntN(255))
		seg, err := openBytes(c)
		if err != nil {
			if !errors.Is(err, errs.Corrupt) {
				t.Fatalf("open, byte %d: %v", off, err)
			}
			continue
		}
		for i := range recs {
			got, err := seg.Record(bg, uint32(i))
			if err != nil {
				if !errors.Is(err, errs.Corrupt) {
					t.Fatalf("byte %d, record %d: %v", off, i, err)
				}
				continue
			}
			if !bytes.Equal(got, recs[i]) {
				t.Fatalf("byte %d: record %d wrong", off, i)
			}
		}
		if err := seg.Verify(bg); err == nil || !errors.Is(err, errs.Corrupt) {
			t.Fatalf("byte %d: verify %v", off, err)
		}
		seg.Close()
	}
}

// TestTopRecords: TopOptions.Records fills every hit with its record.
func TestTopRecords(t *testing.T) {
	recs := genRecords(4, 2000)
	o := writer.DefaultOptions("text")
	s := open(t, buildRecords(t, recs, o))
	hits, err := s.Top(bg, reader.Term("text", "refused"), 30, &reader.TopOptions{Records: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) < 30 {
		t.Fatalf("%d hits", len(hits))
	}
	for _, h := range hits {
		if h.Record == nil || !bytes.Equal(h.Record, recs[h.Doc]) {
			t.Errorf("hit %d: record %q, want %q", h.Doc, h.Record, recs[h.Doc])
		}
	}
	plain, err := s.Top(bg, reader.Term("text", "refused"), 30, nil)
	if err != nil || len(plain) != len(hits) || plain[0].Record != nil {
		t.Errorf("Top without Records: %d hits, %v", len(plain), err)
	}
	o.NoStore = true
	ns := open(t, buildRecords(t, recs, o))
	if _, err := ns.Top(bg, reader.Term("text", "refused"), 3, &reader.TopOptions{Records: true}); !errors.Is(err, errs.NotFound) {
		t.Errorf("Top with Records on a segment without a store: %v", err)
	}
}

// TestRecordsConcurrent: many goroutines read records of one segment at once
// (mapped and through a ReaderAt), each getting its own bytes.
func TestRecordsConcurrent(t *testing.T) {
	recs := genRecords(5, 1500)
	p := buildRecords(t, recs, writer.DefaultOptions("text"))
	viaReaderAt, err := openBytes(testkit.ReadFile(t, p))
	if err != nil {
		t.Fatal(err)
	}
	defer viaReaderAt.Close()
	for _, s := range []*reader.Segment{open(t, p), viaReaderAt} {
		parallel(64, func(i int) {
			r := rand.New(rand.NewPCG(uint64(i), 9))
			ids := make([]uint32, 40)
			for k := range ids {
				ids[k] = uint32(r.IntN(len(recs)))
			}
			if i%2 == 0 {
				slices.Sort(ids)
			}
			err := s.Records(bg, ids, func(id uint32, rec []byte) error {
				if !bytes.Equal(rec, recs[id]) {
					return errors.New("record differs")
				}
				return nil
			})
			if err != nil {
				t.Errorf("goroutine %d: %v", i, err)
			}
		})
	}
}

// TestRecordsDecodeBudget: a block's decode buffer is charged to the
// segment's DecodeBudget before it is allocated: a record larger than the
// whole budget fails with ErrLimit, the others still load.
func TestRecordsDecodeBudget(t *testing.T) {
	recs := [][]byte{[]byte("small one"), bytes.Repeat([]byte("big record "), 100_000), []byte("small two")}
	p := buildRecords(t, recs, writer.DefaultOptions("text"))
	s, err := reader.Open(p, reader.Options{DecodeBudget: reader.NewDecodeBudget(256 << 10)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Record(bg, 1); !errors.Is(err, errs.Limit) {
		t.Errorf("a 1.1 MB record under a 256 KiB budget: %v, want ErrLimit", err)
	}
	for _, id := range []uint32{0, 2} {
		if got, err := s.Record(bg, id); err != nil || !bytes.Equal(got, recs[id]) {
			t.Errorf("record %d: %q, %v", id, got, err)
		}
	}
	if err := s.Verify(bg); !errors.Is(err, errs.Limit) {
		t.Errorf("Verify under the budget: %v, want ErrLimit", err)
	}
}
