package main

import (
	"runtime"
	"sync/atomic"

	"github.com/snii-go/snii/reader"
)

// idRange is the batch ids[lo:hi] of the records to print.
type idRange struct{ lo, hi int }

// Batches of printed records: a batch is one Segment.Records call (its
// store blocks decoded once), read and formatted on one goroutine, its
// output held until it is written and its buffer then reused by a later
// batch. A batch's output is about printBatchBytes at the length of the
// records formatted so far (the store's average before, and then at most
// minPrintBatch records), so that the batches in flight hold a few of them
// (or, for records longer than that, a record each); within that, a batch
// holds about a quarter of one goroutine's share of the ids. A store block
// split between two batches is decoded by both, so a batch of close ids
// spans, within its bytes, the ids of about minBatchBlocks blocks (at the
// store's average records per block), and ends, when it can within a
// block's average record count, where the next id is more than that count
// away (most likely in another block).
const (
	minPrintBatch   = 8
	minBatchBlocks  = 8
	printBatchBytes = 128 << 10
)

// batcher cuts the ids to print into batches, in order.
type batcher struct {
	ids     []uint32
	workers int    // goroutines printing
	gap     uint64 // the store's average records per block, plus one
	share   int    // ids per batch for about four batches per goroutine
	lo      int    // the first id of the next batch
	// formatted so far (by the batches' goroutines)
	records, outBytes atomic.Int64
	avgRecord         int64 // the store's average record length, plus one
}

// minParallelBlocks is the fewest store blocks (as estimated) the records
// of a print span for it to use more than one goroutine: below, the second
// goroutine's decoder and buffers cost more than its share of the decoding.
const minParallelBlocks = 64

// newBatcher returns the batcher of ids (one goroutine per CPU, one when
// the ids span fewer than minParallelBlocks blocks).
func newBatcher(ids []uint32, st reader.StoreInfo) *batcher {
	b := &batcher{ids: ids, workers: max(1, runtime.GOMAXPROCS(0)), gap: 1}
	b.share = max(len(ids)/(4*b.workers), 1)
	if st.Blocks > 0 {
		b.gap = st.Records/uint64(st.Blocks) + 1
	}
	if b.workers > 1 && spannedBlocks(ids, b.gap) < minParallelBlocks {
		b.workers = 1
	}
	b.avgRecord = 1
	if st.Records > 0 {
		b.avgRecord = int64(st.RawBytes/st.Records) + 1
	}
	return b
}

// recordBytes is the output length of a record: that of the records
// formatted so far, else the store's average (known false).
func (b *batcher) recordBytes() (n int64, known bool) {
	if r := b.records.Load(); r > 0 {
		return max(1, b.outBytes.Load()/r), true
	}
	return b.avgRecord, false
}

// next returns the next batch (false: none left). It is called on one
// goroutine at a time.
func (b *batcher) next() (idRange, bool) {
	ids := b.ids
	if b.lo == len(ids) {
		return idRange{}, false
	}
	per, known := b.recordBytes()
	most := int(max(1, printBatchBytes/per)) // the records of printBatchBytes
	if !known {
		most = min(most, minPrintBatch)
	}
	target := min(b.share, most)
	lo := b.lo
	hi := min(lo+target, len(ids))
	for ; hi < len(ids) && hi-lo < most && dist(ids[lo], ids[hi-1]) < minBatchBlocks*b.gap && dist(ids[hi-1], ids[hi]) <= b.gap; hi++ {
	}
	for end := min(hi+int(min(b.gap, uint64(most-(hi-lo)))), len(ids)); hi < end; hi++ {
		if dist(ids[hi-1], ids[hi]) > b.gap {
			break
		}
	}
	b.lo = hi
	return idRange{lo, hi}, true
}

// formatted counts the output of a batch, n records in size bytes, towards
// the size of the next batches. It is safe for concurrent use.
func (b *batcher) formatted(n, size int) {
	b.outBytes.Add(int64(size))
	b.records.Add(int64(n))
}

// bufSize is the capacity of a new output buffer for batch r: its records
// at recordBytes, and a quarter more.
func (b *batcher) bufSize(r idRange) int {
	per, _ := b.recordBytes()
	return int(min(per*int64(r.hi-r.lo)*5/4, 2*printBatchBytes))
}

// dist is |x - y|.
func dist(x, y uint32) uint64 {
	if x > y {
		return uint64(x - y)
	}
	return uint64(y - x)
}

// spannedBlocks estimates the store blocks ids span, gap records a block: a
// step between two ids counts its share of a block, at most one.
func spannedBlocks(ids []uint32, gap uint64) float64 {
	if len(ids) == 0 {
		return 0
	}
	n := 1.0
	for i := 1; i < len(ids); i++ {
		n += min(1, float64(dist(ids[i-1], ids[i]))/float64(gap))
	}
	return n
}
