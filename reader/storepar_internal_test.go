package reader

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/zstdopt"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/writer"
)

// parSegment writes a segment of n text records (several store blocks) and
// returns its path and the records.
func parSegment(t *testing.T, n int) (string, [][]byte) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "par.snii")
	w, err := writer.Create(context.Background(), p, writer.DefaultOptions("text"))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	words := []string{"connection", "refused", "host", "db-1", "error", "timeout", "GET /index", "sshd", "pam_unix"}
	recs := make([][]byte, n)
	for i := range recs {
		b := fmt.Appendf(nil, "%d ", i)
		for j := r.IntN(40); j >= 0; j-- {
			b = append(b, words[r.IntN(len(words))]...)
			b = fmt.Appendf(b, " %d ", r.IntN(1000))
		}
		recs[i] = b
		if _, err := w.Add(writer.Document{Fields: []writer.Field{{Name: "text", Values: []string{string(b)}}}, Record: b}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return p, recs
}

// withProcs runs fn with GOMAXPROCS at each of 1, 2 and 4.
func withProcs(t *testing.T, fn func(t *testing.T)) {
	old := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(old)
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		t.Run(fmt.Sprintf("procs%d", procs), fn)
	}
}

// noHelpersLeft fails when more goroutines run than before (a helper of a
// Records call outlived it). A helper joined by the call may still be
// leaving the scheduler: the count is given a few yields to settle.
func noHelpersLeft(t *testing.T, before int) {
	t.Helper()
	n := runtime.NumGoroutine()
	for i := 0; i < 200 && n > before; i++ {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
		n = runtime.NumGoroutine()
	}
	if n > before {
		t.Errorf("%d goroutines after the calls, %d before", n, before)
	}
}

// TestRecordsParOracle: Records hands out every record byte-equal to the one
// added, in the order given, for ascending ids, ids in any order (with
// repeats) and ids spread over every block, on one CPU and more, mapped and
// through a ReaderAt; a call over minParBlocks compressed blocks or more
// takes the parallel walk exactly when GOMAXPROCS is above 1.
func TestRecordsParOracle(t *testing.T) {
	p, recs := parSegment(t, 20000)
	withProcs(t, func(t *testing.T) {
		for _, o := range []Options{{}, {NoMmap: true}} {
			s, err := Open(p, o)
			if err != nil {
				t.Fatal(err)
			}
			info, _ := s.Store()
			if info.Blocks < 2*minParBlocks {
				t.Fatalf("%d store blocks: the test needs several", info.Blocks)
			}
			before := runtime.NumGoroutine()
			r := rand.New(rand.NewPCG(1, uint64(runtime.GOMAXPROCS(0))))
			for round := range 60 {
				ids := make([]uint32, 1+r.IntN(240))
				for i := range ids {
					ids[i] = uint32(r.IntN(len(recs)))
				}
				if round%3 == 0 {
					ids = append(ids, ids[:len(ids)/2]...) // repeats, blocks used again later
				}
				if round%2 == 0 {
					slices.Sort(ids)
				}
				var got []uint32
				err := s.Records(bg(), ids, func(id uint32, rec []byte) error {
					got = append(got, id)
					if !bytes.Equal(rec, recs[id]) {
						return fmt.Errorf("record %d: %q, want %q", id, rec, recs[id])
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, ids) {
					t.Fatalf("records handed out for %v, want %v", got, ids)
				}
			}
			noHelpersLeft(t, before)
			x := s.getCtx(bg(), false)
			st, err := s.storeIndex()
			if err != nil {
				t.Fatal(err)
			}
			var few, spread []uint32 // ids in minParBlocks-1 blocks, and in every block
			for b := range st.blocks {
				if b < minParBlocks-1 {
					few = append(few, st.first[b])
				}
				spread = append(spread, st.first[b])
			}
			for _, c := range []struct {
				ids  []uint32
				want bool
			}{{[]uint32{1, 2, 3}, false}, {few, false}, {spread, runtime.GOMAXPROCS(0) > 1}} {
				par, err := x.recordsPar(st, c.ids, func(uint32, []byte) error { return nil })
				if err != nil || par != c.want {
					t.Errorf("ids %v: parallel %v (%v), want %v", c.ids, par, err, c.want)
				}
			}
			s.putCtx(x)
			s.Close()
		}
	})
}

// TestRecordsParStops: an error from fn at any position stops the call with
// that error after exactly the records before it; a cancelled context stops
// it with the context's error; no helper outlives a call.
func TestRecordsParStops(t *testing.T) {
	p, recs := parSegment(t, 16000)
	s, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var ids []uint32
	for id := 3; id < len(recs); id += 150 { // ascending, about one id a block
		ids = append(ids, uint32(id))
	}
	if st, err := s.storeIndex(); err != nil || st.block(ids[len(ids)-1])-st.block(ids[0]) < 2*minParBlocks {
		t.Fatalf("ids over too few blocks for a parallel walk (%v)", err)
	}
	shuffled := slices.Clone(ids)
	rand.New(rand.NewPCG(2, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	stop := errors.New("stop here")
	withProcs(t, func(t *testing.T) {
		before := runtime.NumGoroutine()
		for _, ids := range [][]uint32{ids, shuffled} {
			for pos := range ids {
				n := 0
				err := s.Records(bg(), ids, func(id uint32, rec []byte) error {
					if id != ids[n] || !bytes.Equal(rec, recs[id]) {
						return fmt.Errorf("call %d: record %d, want %d", n, id, ids[n])
					}
					n++
					if n == pos+1 {
						return stop
					}
					return nil
				})
				if err != stop || n != pos+1 {
					t.Fatalf("fn fails at %d: %d calls, %v", pos, n, err)
				}
			}
			for _, pos := range []int{0, len(ids) / 2, len(ids) - 1} {
				ctx, cancel := context.WithCancel(bg())
				n := 0
				err := s.Records(ctx, ids, func(id uint32, rec []byte) error {
					n++
					if n == pos+1 {
						cancel()
					}
					return nil
				})
				cancel()
				if pos < len(ids)-1 && !errors.Is(err, context.Canceled) {
					t.Errorf("cancelled at %d: %v after %d calls", pos, err, n)
				}
				if n > pos+1+16 {
					t.Errorf("cancelled at %d: %d calls after", pos, n-pos-1)
				}
			}
		}
		noHelpersLeft(t, before)
	})
}

// TestRecordsParCorruptBlock: a damaged block in the middle of a call is
// ErrCorrupt naming that block, returned after every record before it (and
// none after), mapped and through a ReaderAt, however many goroutines decode.
func TestRecordsParCorruptBlock(t *testing.T) {
	p, recs := parSegment(t, 16000)
	s, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.storeIndex()
	if err != nil {
		t.Fatal(err)
	}
	nb := len(st.blocks)
	if nb < 2*minParBlocks {
		t.Fatalf("%d store blocks: the test needs %d", nb, 2*minParBlocks)
	}
	bad := nb / 2
	var ids []uint32 // the first record of every block
	for b := range nb {
		ids = append(ids, st.first[b])
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[st.offs[bad+1]-1] ^= 0x55 // the block's last byte: its CRC fails
	s.Close()
	cp := filepath.Join(t.TempDir(), "corrupt.snii")
	if err := os.WriteFile(cp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	withProcs(t, func(t *testing.T) {
		before := runtime.NumGoroutine()
		for _, o := range []Options{{}, {NoMmap: true}} {
			c, err := Open(cp, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, order := range []string{"ascending", "descending"} {
				ids := slices.Clone(ids)
				stopAt := bad // records handed out before the error
				if order == "descending" {
					slices.Reverse(ids)
					stopAt = nb - 1 - bad
				}
				n := 0
				err := c.Records(bg(), ids, func(id uint32, rec []byte) error {
					if id != ids[n] || !bytes.Equal(rec, recs[id]) {
						return fmt.Errorf("call %d: record %d, want %d", n, id, ids[n])
					}
					n++
					return nil
				})
				if !errors.Is(err, errs.Corrupt) || !strings.Contains(err.Error(), fmt.Sprintf("block %d:", bad)) || n != stopAt {
					t.Errorf("NoMmap %v, %s: %d records, then %v; want %d records, then block %d corrupt", o.NoMmap, order, n, err, stopAt, bad)
				}
			}
			c.Close()
		}
		noHelpersLeft(t, before)
	})
}

// TestRecordsParBudget: when the decode budget has room for one block's
// buffer only (another query holds the rest), no block is decoded ahead and
// the call does not wait for the other query: each block waits for its turn
// and the buffer of the one before, and every record loads.
func TestRecordsParBudget(t *testing.T) {
	p, recs := parSegment(t, 16000)
	withProcs(t, func(t *testing.T) {
		s, err := Open(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		st, err := s.storeIndex()
		if err != nil {
			t.Fatal(err)
		}
		var ids []uint32 // ascending: one block held at a time
		for b, info := range st.blocks {
			if int(info.PlainLen)+zstdopt.DecodeSlack <= format.StoreBlockTarget && info.Flags != 0 {
				ids = append(ids, st.first[b]) // a block of the smallest buffer class
			}
		}
		if len(ids) < minParBlocks {
			t.Fatalf("%d blocks of the smallest buffer class: the test needs several", len(ids))
		}
		s.Close()
		one := int64(format.StoreBlockTarget) // a buffer of that class
		budget := NewDecodeBudget(4 * one)
		s, err = Open(p, Options{DecodeBudget: budget})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		other := 3 * one // another query's buffers, held through the call
		if err := budget.acquire(bg(), 0, other); err != nil {
			t.Fatal(err)
		}
		defer budget.release(other)
		// a call that waited for the other query would wait for ever
		ctx, cancel := context.WithTimeout(bg(), time.Minute)
		defer cancel()
		err = s.Records(ctx, ids, func(id uint32, rec []byte) error {
			if !bytes.Equal(rec, recs[id]) {
				return fmt.Errorf("record %d differs", id)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func bg() context.Context { return context.Background() }

// failingReaderAt fails every read that overlaps [from, to).
type failingReaderAt struct {
	f        *os.File
	from, to int64
}

var errBadRead = errors.New("device read failed")

func (r failingReaderAt) ReadAt(b []byte, off int64) (int, error) {
	if off < r.to && off+int64(len(b)) > r.from {
		return 0, errBadRead
	}
	return r.f.ReadAt(b, off)
}

// TestRecordsParReadError: a store block whose read fails in the middle of
// a call is a *snii.SegmentError of the store naming the block, returned
// after every record before it, however many goroutines decode (as the
// sequential walk places it).
func TestRecordsParReadError(t *testing.T) {
	p, recs := parSegment(t, 16000)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.storeIndex()
	if err != nil {
		t.Fatal(err)
	}
	nb := len(st.blocks)
	if nb < 2*minParBlocks {
		t.Fatalf("%d store blocks: the test needs %d", nb, 2*minParBlocks)
	}
	bad := nb / 2
	ra := failingReaderAt{f: f, from: int64(st.offs[bad]), to: int64(st.offs[bad+1])}
	var ids []uint32 // the first record of every block
	for b := range nb {
		ids = append(ids, st.first[b])
	}
	s.Close()
	withProcs(t, func(t *testing.T) {
		c, err := OpenReaderAt(bg(), ra, fi.Size(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		n := 0
		err = c.Records(bg(), ids, func(id uint32, rec []byte) error {
			if !bytes.Equal(rec, recs[id]) {
				return fmt.Errorf("record %d differs", id)
			}
			n++
			return nil
		})
		var se *snii.SegmentError
		if !errors.Is(err, errBadRead) || !errors.As(err, &se) || se.Section != "store" || !strings.Contains(err.Error(), fmt.Sprintf("block %d:", bad)) || n != bad {
			t.Errorf("%d records, then %v; want %d records, then the read error placed in the store's block %d", n, err, bad, bad)
		}
	})
}

// TestRecordsParReadBuffers: a parallel Records call through a ReaderAt
// holds the stored bytes of the blocks it decodes ahead and of the one it
// hands out, not of every block it has read: at each block's first record,
// the read buffers held are a few blocks' worth, however long the call.
func TestRecordsParReadBuffers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	p, _ := parSegment(t, 16000)
	s, err := Open(p, Options{NoMmap: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, err := s.storeIndex()
	if err != nil {
		t.Fatal(err)
	}
	nb := len(st.blocks)
	if nb < 2*minParBlocks {
		t.Fatalf("%d store blocks: the test needs %d", nb, 2*minParBlocks)
	}
	var ids []uint32
	most, docs := 0, 0 // the largest stored block, the most records of a block
	for b := range nb {
		ids = append(ids, st.first[b], st.first[b+1]-1)
		most = max(most, int(st.blocks[b].StoredLen))
		docs = max(docs, int(st.blocks[b].Docs))
	}
	x := s.getCtx(bg(), false)
	defer s.putCtx(x)
	peak := 0
	par, err := x.recordsPar(st, ids, func(uint32, []byte) error {
		held := 0
		for k := range x.storePar.blocks { // (only the caller touches stored)
			held += cap(x.storePar.blocks[k].stored)
		}
		peak = max(peak, held)
		return nil
	})
	if !par || err != nil {
		t.Fatalf("parallel %v, %v", par, err)
	}
	if limit := 2 * (maxStoreBuffers + 1) * most; peak > limit {
		t.Errorf("%d bytes of read buffers held at once over %d blocks of at most %d stored bytes; want at most %d", peak, nb, most, limit)
	}
	if limit := 2 * (maxStoreBuffers + 1) * (docs + 1); cap(x.storeEnds) > limit {
		t.Errorf("room for %d record offsets taken over %d blocks of at most %d records; want at most %d", cap(x.storeEnds), nb, docs, limit)
	}
}
