package reader

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/objstore"
)

// Parallel decoding of the store blocks of one Records call.
//
// A call whose ids need minParBlocks or more compressed blocks, in a
// process with GOMAXPROCS above 1, decodes them on up to
// min(GOMAXPROCS, maxStoreBuffers) goroutines: the caller's and helpers
// started for the call and joined before it returns. The caller walks the ids in the order given, as the
// sequential walk does, and alone hands records to fn, reads stored bytes
// (prefetching a remote segment's blocks in one round first) and takes
// decode buffers (the query context and the decode budget are touched by it
// only). It queues the blocks in the order of their first id, each with its
// stored bytes and its buffer, at most maxStoreBuffers blocks from the one
// whose records it hands out (so that a warm call decodes into the buffers
// a pooled query context keeps), and decodes them (CRC, zstd, record
// offsets: decodeBlock, with a zstd decoder from the segment's pool) from
// the front of the queue, while the helpers take them from its back,
// leaving at least one to the caller. The caller waits for a helper only
// where they meet, for one block the helper began while the caller had
// another to decode, and a helper leaves once every block of the call is
// queued and none is left to take. So that a caller on a locked OS thread
// pays no thread hand-off where a helper is about to finish, the caller
// spins for a while (spinTurns) before it parks, both for a block and for
// the helpers to leave.
//
// Memory: the decoded blocks held at once are those the sequential walk
// holds (ascending ids: one; other orders: each block until its last id)
// and at most maxStoreBuffers-1 queued ahead. A block queued ahead of its
// turn gets an idle buffer of the query context, or a new one only when the
// decode budget grants it at once; otherwise queuing stops at that block,
// which is read and given its buffer in its turn as the sequential walk
// would (waiting for the budget then).
//
// Errors are the sequential walk's: the first in id order is returned (fn's,
// a block's, the context's), after the records before it were handed out.
// Then the helpers finish the block they decode, take no other and are
// joined. A memory fault of a mapped segment in a helper becomes that
// block's error; any other panic there is raised again on the caller when
// it reaches the block.

// minParBlocks is the fewest compressed blocks a call decodes in parallel:
// a helper starts some time after the call (a thread woken on another CPU),
// and its start, its waits for the queue and its join cost CPU time that
// only a long call repays (the CLI's print batches use the same bound).
const minParBlocks = 64

// spinTurns bounds the turns the caller spins, checking a flag, before it
// parks (a few tens of microseconds: about one block's decode).
const spinTurns = 1 << 14

// parBlock is a block of a parallel Records call.
type parBlock struct {
	b           int
	first, last int // indexes in ids of the block's first and last use
	queued      bool
	claimed     bool        // taken for decoding (under parWalk.mu)
	done        atomic.Bool // decoded: d (or err, or panicked) is set
	raw         []byte
	stored      []byte // read buffer (ReaderAt)
	scratch     []byte // decode buffer (compressed block)
	d           decodedBlock
	err         error
	panicked    any
}

// parWalk is the state of a parallel Records call, kept by the query
// context for its next call.
type parWalk struct {
	x      *qctx
	st     *storeIndex
	blocks []parBlock
	of     []int32  // the block (index in blocks) of each id
	depth  int      // blocks queued past the front, at most
	reads  [][]byte // read buffers of dropped blocks, for the call's next blocks
	ends   [][]int  // record offsets' room of dropped blocks, for the call's next blocks
	docs   int      // the most records of a block of the call

	mu     sync.Mutex
	cond   sync.Cond
	queued int // blocks queued: blocks[:queued]
	front  int // the block whose records the walk hands out (all before it are done)
	stop   bool
	wg     sync.WaitGroup
	alive  atomic.Int32 // helpers not yet left
}

// recordsPar is records on up to GOMAXPROCS goroutines; false when the
// call is not worth it (one CPU, or fewer than minParBlocks compressed
// blocks), and then nothing was done.
func (x *qctx) recordsPar(st *storeIndex, ids []uint32, fn func(id uint32, rec []byte) error) (bool, error) {
	procs := runtime.GOMAXPROCS(0)
	if procs < 2 || len(ids) < minParBlocks {
		return false, nil
	}
	if st.block(slices.Max(ids))-st.block(slices.Min(ids)) < minParBlocks-1 {
		return false, nil // the ids span fewer blocks
	}
	w := x.storePar
	if w == nil {
		w = &parWalk{x: x}
		w.cond.L = &w.mu
		x.storePar = w
	}
	if !w.plan(st, ids, minParBlocks) {
		w.reset()
		return false, nil
	}
	if x.s.remote() != nil {
		rs := make([]objstore.Range, len(w.blocks))
		for k := range w.blocks {
			b := w.blocks[k].b
			rs[k] = objstore.Range{Off: int64(st.offs[b]), Len: int64(st.offs[b+1] - st.offs[b])}
		}
		x.prefetch(rs)
	}
	w.depth = min(len(w.blocks), maxStoreBuffers)
	helpers := min(procs, w.depth) - 1
	defer w.end()
	w.alive.Store(int32(helpers))
	w.wg.Add(helpers)
	for range helpers {
		go w.helper()
	}
	return true, w.walk(ids, fn)
}

// plan lists the blocks of ids in the order of their first use; false when
// fewer than least of them are compressed.
func (w *parWalk) plan(st *storeIndex, ids []uint32, least int) bool {
	w.st = st
	w.of = slices.Grow(w.of[:0], len(ids))
	var index map[int]int32 // block → index in w.blocks (ids not ascending)
	sorted := slices.IsSorted(ids)
	if !sorted {
		index = make(map[int]int32)
	}
	compressed := 0
	for i, id := range ids {
		k := int32(len(w.blocks)) - 1
		switch {
		case sorted && k >= 0 && id < st.first[w.blocks[k].b+1]:
		case sorted:
			k = -1
		default:
			if j, ok := index[st.block(id)]; ok {
				k = j
			} else {
				k = -1
			}
		}
		if k < 0 {
			b := st.block(id)
			k = int32(len(w.blocks))
			w.blocks = append(w.blocks, parBlock{b: b, first: i})
			if index != nil {
				index[b] = k
			}
			if st.blocks[b].Flags != 0 {
				compressed++
			}
			w.docs = max(w.docs, int(st.blocks[b].Docs))
		}
		w.blocks[k].last = i
		w.of = append(w.of, k)
	}
	return compressed >= least
}

// walk hands the records of ids to fn in order, decoding their blocks in
// parallel.
func (w *parWalk) walk(ids []uint32, fn func(id uint32, rec []byte) error) error {
	x := w.x
	for i, id := range ids {
		if err := x.check(); err != nil {
			return err
		}
		k := int(w.of[i])
		pb := &w.blocks[k]
		if i == pb.first {
			if err := w.reach(k); err != nil {
				return err
			}
		}
		r := int(id - w.st.first[pb.b])
		if err := fn(id, pb.d.plain[pb.d.ends[r]:pb.d.ends[r+1]]); err != nil {
			return err
		}
		if i == pb.last {
			w.drop(pb)
		}
	}
	return nil
}

// reach makes block k, whose first id the walk reached, ready: it queues it
// when it is not yet (then waiting for the budget if need be), queues the
// blocks after it up to the queue's depth, and decodes queued blocks until k is
// decoded.
func (w *parWalk) reach(k int) error {
	x := w.x
	if err := x.ctx.Err(); err != nil {
		return err
	}
	if !w.blocks[k].queued {
		if err := w.prepare(k, false); err != nil {
			return err
		}
		w.push()
	}
	for w.queued < min(k+w.depth, len(w.blocks)) {
		if err := w.prepare(w.queued, true); err != nil || !w.blocks[w.queued].queued {
			break // decoded in its turn, which reports the error
		}
		w.push()
	}
	pb := &w.blocks[k]
	var z *zstd.Decoder
	defer func() {
		if z != nil {
			x.s.dec.putStore(z)
		}
	}()
	w.mu.Lock()
	w.front = k
	for !pb.done.Load() {
		j := k
		for j < w.queued && w.blocks[j].claimed {
			j++
		}
		if j == w.queued { // every queued block from k on is being decoded
			w.mu.Unlock()
			w.await(pb)
			w.mu.Lock()
			continue
		}
		w.blocks[j].claimed = true
		w.mu.Unlock()
		if z == nil {
			var err error
			if z, err = x.s.dec.getStore(); err != nil {
				w.mu.Lock()
				w.blocks[j].err = err
				w.blocks[j].done.Store(true)
				continue
			}
		}
		w.decode(z, j)
		w.mu.Lock()
	}
	w.mu.Unlock()
	if pb.panicked != nil {
		if x.s.guarding() {
			return x.s.fault(pb.panicked, nil) // a fault, or raised again
		}
		panic(pb.panicked)
	}
	return pb.err
}

// prepare reads block k's stored bytes and takes its decode buffer; ahead:
// the block is prepared before its turn, and only when a buffer is at hand
// (queued stays false otherwise).
func (w *parWalk) prepare(k int, ahead bool) error {
	x := w.x
	pb := &w.blocks[k]
	info := w.st.blocks[pb.b]
	if pb.stored == nil && len(w.reads) > 0 {
		pb.stored = w.reads[len(w.reads)-1]
		w.reads = w.reads[:len(w.reads)-1]
	}
	raw, err := x.readInto(w.st.offs[pb.b], uint64(info.StoredLen), &pb.stored)
	if err != nil {
		return x.s.wrap(sec("store"), fmt.Errorf("block %d: %w", pb.b, err))
	}
	if info.Flags != 0 {
		scratch, err := x.storeScratch(info, pb.b, ahead)
		if err != nil || scratch == nil {
			return err
		}
		pb.scratch = scratch
	}
	pb.raw = raw
	switch {
	case pb.d.ends != nil:
	case len(w.ends) > 0:
		pb.d.ends = w.ends[len(w.ends)-1]
		w.ends = w.ends[:len(w.ends)-1]
	default:
		pb.d.ends = x.carveEnds(w.docs + 1) // (room for any block of the call)
	}
	pb.queued = true
	return nil
}

// push makes the next prepared block available to the decoding goroutines.
func (w *parWalk) push() {
	w.mu.Lock()
	w.queued++
	w.cond.Broadcast()
	w.mu.Unlock()
}

// helper decodes queued blocks until the walk ends.
func (w *parWalk) helper() {
	defer w.wg.Done()
	s := w.x.s
	if s.guarding() {
		enableFaults() // the goroutine ends with the call
	}
	var z *zstd.Decoder
	w.mu.Lock()
	for !w.stop {
		j := w.queued - 1 // the last queued block not taken, when another is left to the caller
		for j >= w.front && w.blocks[j].claimed {
			j--
		}
		first := w.front
		for first < j && w.blocks[first].claimed {
			first++
		}
		if first >= j {
			if w.queued == len(w.blocks) {
				break // every block is queued and taken
			}
			w.cond.Wait()
			continue
		}
		w.blocks[j].claimed = true
		w.mu.Unlock()
		var err error
		if z == nil {
			z, err = s.dec.getStore()
		}
		if err != nil {
			w.mu.Lock()
			w.blocks[j].err = err
			w.blocks[j].done.Store(true)
			w.cond.Broadcast()
			break
		}
		w.decode(z, j)
		w.mu.Lock()
	}
	w.mu.Unlock()
	if z != nil {
		s.dec.putStore(z)
	}
	w.alive.Add(-1)
}

// decode decodes queued block j and marks it done (w.mu not held).
func (w *parWalk) decode(z *zstd.Decoder, j int) {
	pb := &w.blocks[j]
	defer func() {
		pb.panicked = recover()
		w.mu.Lock()
		pb.done.Store(true)
		w.cond.Broadcast()
		w.mu.Unlock()
	}()
	pb.err = w.x.s.decodeBlock(z, w.st, pb.b, pb.raw, pb.scratch, &pb.d)
}

// await waits until a helper has decoded block pb: spinning first, then
// parked.
func (w *parWalk) await(pb *parBlock) {
	for i := 0; i < spinTurns && !pb.done.Load(); i++ {
	}
	w.mu.Lock()
	for !pb.done.Load() {
		w.cond.Wait()
	}
	w.mu.Unlock()
}

// drop gives block pb's decode buffer back to the query context, and its
// read buffer and record offsets' room to the call's next blocks, once its last record was handed
// out (or the walk ended).
func (w *parWalk) drop(pb *parBlock) {
	if pb.scratch != nil {
		w.x.storeFree = append(w.x.storeFree, pb.scratch)
	}
	if pb.stored != nil {
		w.reads = append(w.reads, pb.stored)
	}
	if pb.d.ends != nil {
		w.ends = append(w.ends, pb.d.ends[:0])
	}
	pb.scratch, pb.raw, pb.stored, pb.d = nil, nil, nil, decodedBlock{}
}

// end stops and joins the helpers, gives the buffers of the blocks still
// held back to the query context and resets the walk for the next call.
func (w *parWalk) end() {
	w.mu.Lock()
	w.stop = true
	w.cond.Broadcast()
	w.mu.Unlock()
	for i := 0; i < spinTurns && w.alive.Load() > 0; i++ {
	}
	w.wg.Wait()
	for k := range w.blocks {
		w.drop(&w.blocks[k])
	}
	w.reset()
}

// reset empties the walk for the next call, keeping its slices.
func (w *parWalk) reset() {
	clear(w.blocks)
	w.blocks = w.blocks[:0]
	w.of = w.of[:0]
	clear(w.reads)
	w.reads = w.reads[:0]
	clear(w.ends)
	w.ends = w.ends[:0]
	w.st = nil
	w.queued, w.front, w.stop = 0, 0, false
	w.depth, w.docs = 0, 0
	w.x.storeEnds = w.x.storeEnds[:0]
}

// carveEnds returns room for n record offsets from x.storeEnds, which a
// parallel Records call shares out among its blocks.
func (x *qctx) carveEnds(n int) []int {
	e := x.storeEnds
	if cap(e)-len(e) < n {
		e = make([]int, 0, max(2*cap(e), n, 256))
	}
	x.storeEnds = e[:len(e)+n]
	return e[len(e) : len(e) : len(e)+n]
}
