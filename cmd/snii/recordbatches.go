package main

import (
	"runtime"

	"github.com/snii-go/snii/reader"
)

// idRange is the batch ids[lo:hi] of the records to print.
type idRange struct{ lo, hi int }

// Batches of printed records: a batch is one Segment.Records call (its
// store blocks decoded once), read and formatted on one goroutine. A store
// block split between two batches is decoded by both, so the batches hold
// at least minPrintBatch records and end, when one is within a block's
// average record count past their size, where the next id is more than that
// count away (most likely in another block).
const (
	minPrintBatch = 16
	maxPrintBatch = 1024
)

// recordBatches returns how many goroutines print ids (one per CPU, one
// when there are too few records to share) and the batches, in order.
func recordBatches(ids []uint32, st reader.StoreInfo) (workers int, next func() (idRange, bool)) {
	workers = max(1, runtime.GOMAXPROCS(0))
	// about four batches per goroutine, so that one slow batch does not
	// leave the others idle
	target := min(max(len(ids)/(4*workers), minPrintBatch), maxPrintBatch)
	if len(ids) < 2*minPrintBatch {
		workers = 1
	}
	gap := uint64(1)
	if st.Blocks > 0 {
		gap = st.Records/uint64(st.Blocks) + 1
	}
	lo := 0
	return workers, func() (idRange, bool) {
		if lo == len(ids) {
			return idRange{}, false
		}
		hi := min(lo+target, len(ids))
		for end := min(hi+int(min(gap, uint64(target))), len(ids)); hi < end; hi++ {
			if a, b := uint64(ids[hi-1]), uint64(ids[hi]); b > a+gap || a > b+gap {
				break
			}
		}
		r := idRange{lo, hi}
		lo = hi
		return r, true
	}
}
