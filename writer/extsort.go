package writer

import (
	"bufio"
	"cmp"
	"container/heap"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"unsafe"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
)

// rec is one record of an extSorter: ordered by k, then v.
type rec struct {
	k uint64
	v uint32
}

func cmpRec(a, b rec) int {
	if c := cmp.Compare(a.k, b.k); c != 0 {
		return c
	}
	return cmp.Compare(a.v, b.v)
}

// recBytes is the memory a buffered record takes (accounting).
const recBytes = 16

// extRunBlock is the records of one CRC block of a spilled run, and
// runReadBuffer the read buffer of one run while the runs are merged: a
// merge holds one block and one buffer per run (a small memory limit makes
// many runs).
const (
	extRunBlock   = 512
	runReadBuffer = 16 << 10
)

// extSorter sorts records with bounded memory: above limit records it sorts
// its buffer and spills it as a run to a temp file; iterating merges the runs
// and the in-memory remainder. It can be iterated any number of times once
// filled. The order (k, then v) is total, so the output does not depend on
// the limit.
type extSorter struct {
	limit  int
	buf    []rec
	spare  []rec // the radix sort's scratch, kept for reuse
	file   *tempFile
	create func() (*tempFile, error)
	runs   []section
	what   string // for errors
	sorted bool
	out    []byte
	raw    []byte // where lazyMap: the mapping that holds buf and spare (free releases it)
}

func newExtSorter(limitBytes int64, what string, create func() (*tempFile, error)) *extSorter {
	// The buffer and the radix sort's scratch (as long) stay within limitBytes
	// together: limitBytes / (2 · recBytes) records.
	return &extSorter{limit: int(max(limitBytes/(2*recBytes), 1024)), what: what, create: create}
}

// add adds a record. Records of equal k must come with v ascending.
func (s *extSorter) add(k uint64, v uint32) error {
	if len(s.buf) >= s.limit {
		if err := s.spill(); err != nil {
			return err
		}
	}
	if len(s.buf) == cap(s.buf) {
		s.grow()
	}
	s.buf = append(s.buf, rec{k, v})
	s.sorted = false
	return nil
}

func (s *extSorter) spill() error {
	if s.file == nil {
		f, err := s.create()
		if err != nil {
			return err
		}
		s.file = f
	}
	s.sort()
	start := s.file.size
	for i := 0; i < len(s.buf); i += extRunBlock {
		blk := s.buf[i:min(i+extRunBlock, len(s.buf))]
		b := binary.LittleEndian.AppendUint32(s.out[:0], uint32(len(blk)))
		for _, r := range blk {
			b = binary.LittleEndian.AppendUint64(b, r.k)
			b = binary.LittleEndian.AppendUint32(b, r.v)
		}
		b = binary.LittleEndian.AppendUint32(b, format.Checksum(b))
		s.out = b
		if _, err := s.file.Write(b); err != nil {
			return fmt.Errorf("writer: spill %s: %w", s.what, err)
		}
	}
	s.runs = append(s.runs, section{off: start, n: s.file.size - start})
	s.buf = s.buf[:0]
	return nil
}

// grow makes room in buf: where a mapping's pages are taken only once
// touched (lazyMap), buf and the sort's scratch move to one mapping of their
// full size outside the Go heap (no collection cycle for them, and free gives
// them back at once); otherwise buf doubles, never past the limit.
func (s *extSorter) grow() {
	if n := 2 * s.limit * int(unsafe.Sizeof(rec{})); lazyMap && s.raw == nil && len(s.buf) >= 1024 && n/int(unsafe.Sizeof(rec{})) == 2*s.limit {
		if raw, err := mapRaw(n); err == nil {
			s.raw = raw
			all := unsafe.Slice((*rec)(unsafe.Pointer(unsafe.SliceData(raw))), 2*s.limit)
			nb := all[:len(s.buf):s.limit]
			copy(nb, s.buf)
			s.buf, s.spare = nb, all[s.limit:s.limit]
			return
		}
	}
	nb := make([]rec, len(s.buf), min(max(2*cap(s.buf), 1024), s.limit))
	copy(nb, s.buf)
	s.buf = nb
}

// free releases the sorter's mapping (its records and scratch) and its
// buffers: s is unusable after. The temp file stays with the build's.
func (s *extSorter) free() {
	if s == nil {
		return
	}
	if s.raw != nil {
		_ = unmapRaw(s.raw)
	}
	s.raw, s.buf, s.spare = nil, nil, nil
}

// sort sorts the buffer by k, then v. Callers add records of equal k with
// v ascending (the contract of add), so a stable LSD radix sort of k (16-bit
// digits, skipping digits that never vary) gives that order; it needs a
// scratch copy of the buffer while it runs.
func (s *extSorter) sort() {
	if len(s.buf) < 256 {
		slices.SortFunc(s.buf, cmpRec)
		return
	}
	and, or := ^uint64(0), uint64(0)
	for _, r := range s.buf {
		and &= r.k
		or |= r.k
	}
	tmp := s.spare
	if cap(tmp) < len(s.buf) {
		tmp = make([]rec, len(s.buf))
	}
	src, dst := s.buf, tmp[:len(s.buf)]
	var counts [4][1 << 16]int // one histogram per 16-bit digit, in one pass
	for _, r := range src {
		counts[0][r.k&0xffff]++
		counts[1][r.k>>16&0xffff]++
		counts[2][r.k>>32&0xffff]++
		counts[3][r.k>>48]++
	}
	for d := uint(0); d < 4; d++ {
		shift := 16 * d
		if (and^or)>>shift&0xffff == 0 {
			continue // every key has the same digit
		}
		count := &counts[d]
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, r := range src {
			dg := r.k >> shift & 0xffff
			dst[count[dg]] = r
			count[dg]++
		}
		src, dst = dst, src
	}
	s.buf, s.spare = src, dst[:0]
}

// recSource is one sorted input of the merge.
type recSource interface {
	next() (rec, bool, error)
}

type memRecs struct {
	recs []rec
	i    int
}

func (m *memRecs) next() (rec, bool, error) {
	if m.i >= len(m.recs) {
		return rec{}, false, nil
	}
	m.i++
	return m.recs[m.i-1], true, nil
}

type runRecs struct {
	r    *bufio.Reader
	blk  []rec
	i    int
	raw  []byte
	what string
}

func (r *runRecs) next() (rec, bool, error) {
	if r.i < len(r.blk) {
		r.i++
		return r.blk[r.i-1], true, nil
	}
	var h [4]byte
	if _, err := io.ReadFull(r.r, h[:]); err != nil {
		if err == io.EOF {
			return rec{}, false, nil
		}
		return rec{}, false, errs.Corruptf("writer: %s: run block header: %v", r.what, err)
	}
	n := int(binary.LittleEndian.Uint32(h[:]))
	if n == 0 || n > extRunBlock {
		return rec{}, false, errs.Corruptf("writer: %s: run block of %d records", r.what, n)
	}
	need := 4 + 12*n + 4
	if cap(r.raw) < need {
		r.raw = make([]byte, need)
	}
	raw := r.raw[:need]
	copy(raw, h[:])
	if _, err := io.ReadFull(r.r, raw[4:]); err != nil {
		return rec{}, false, errs.Corruptf("writer: %s: run block: %v", r.what, err)
	}
	if format.Checksum(raw[:need-4]) != binary.LittleEndian.Uint32(raw[need-4:]) {
		return rec{}, false, errs.Corruptf("writer: %s: run block crc mismatch", r.what)
	}
	r.blk = r.blk[:0]
	for i := 0; i < n; i++ {
		o := 4 + 12*i
		r.blk = append(r.blk, rec{binary.LittleEndian.Uint64(raw[o:]), binary.LittleEndian.Uint32(raw[o+8:])})
	}
	r.i = 1
	return r.blk[0], true, nil
}

// recIter merges sorted sources.
type recIter struct {
	srcs []recSource
	h    recHeap
	init bool
}

type recHead struct {
	r   rec
	src int
}

type recHeap []recHead

func (h recHeap) Len() int { return len(h) }
func (h recHeap) Less(i, j int) bool {
	if c := cmpRec(h[i].r, h[j].r); c != 0 {
		return c < 0
	}
	return h[i].src < h[j].src
}
func (h recHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *recHeap) Push(x any)   { *h = append(*h, x.(recHead)) }
func (h *recHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// sortBuf sorts the in-memory buffer (once).
func (s *extSorter) sortBuf() {
	if !s.sorted {
		s.sort()
		s.sorted = true
	}
}

// iter returns an iterator over every record added, in order.
func (s *extSorter) iter() *recIter {
	s.sortBuf()
	it := &recIter{}
	for _, r := range s.runs {
		it.srcs = append(it.srcs, &runRecs{r: bufio.NewReaderSize(io.NewSectionReader(s.file, r.off, r.n), runReadBuffer), what: s.what})
	}
	it.srcs = append(it.srcs, &memRecs{recs: s.buf})
	return it
}

func (it *recIter) next() (rec, bool, error) {
	if len(it.srcs) == 1 { // no runs: the buffer alone
		return it.srcs[0].next()
	}
	if !it.init {
		it.init = true
		for i, src := range it.srcs {
			r, ok, err := src.next()
			if err != nil {
				return rec{}, false, err
			}
			if ok {
				it.h = append(it.h, recHead{r, i})
			}
		}
		heap.Init(&it.h)
	}
	if len(it.h) == 0 {
		return rec{}, false, nil
	}
	top := it.h[0]
	r, ok, err := it.srcs[top.src].next()
	if err != nil {
		return rec{}, false, err
	}
	if ok {
		it.h[0].r = r
		heap.Fix(&it.h, 0)
	} else {
		heap.Pop(&it.h)
	}
	return top.r, true, nil
}
