package reader

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/zstdopt"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/objstore"
)

// StoreInfo describes a segment's store of records.
type StoreInfo struct {
	Format snii.RecordFormat
	// TextField is the field whose value a text record is (RecordText,
	// RecordMixed; "text" for the CLI).
	TextField string
	Records   uint64 // records stored (== documents of the segment)
	Blocks    int
	Bytes     uint64 // stored bytes of the store section (compressed, all structures)
	RawBytes  uint64 // sum of the record lengths
}

// store is a segment's open store: its header, checked at open, and the
// block index, decoded from the header on first use (a query that reads no
// records does not decode it).
type store struct {
	head           format.StoreMeta // the header without its block index (Blocks nil)
	blocks         int              // the blocks the index holds
	hdr            []byte           // the header's bytes (CRC checked)
	docCount       uint64
	hdrOff, hdrLen uint64
	blocksOff      uint64
	bytes          uint64 // the blocks and the header

	once sync.Once
	idx  *storeIndex
	err  error
}

// storeIndex is a store's decoded block index.
type storeIndex struct {
	blocks []format.StoreBlock
	first  []uint32 // first doc of each block, and the doc count at the end
	offs   []uint64 // absolute offset of each block, and the blocks' end
}

// openStore checks the store header located by the directory (its CRC and
// the fields before the block index).
func (s *Segment) openStore(dir *format.Directory, hb []byte) error {
	p := sec("store")
	if err := format.VerifyChecksum(hb, dir.StoreCRC, "directory"); err != nil {
		return s.wrap(p, err)
	}
	m, n, err := format.DecodeStoreHead(hb, dir.DocCount)
	if err != nil {
		return s.wrap(p, err)
	}
	if m.BlocksOff < format.HeaderSize || m.BlocksOff > dir.StoreOff {
		return s.corrupt(p, "blocks at %d, outside [%d, %d]", m.BlocksOff, format.HeaderSize, dir.StoreOff)
	}
	if s.data == nil {
		hb = slices.Clone(hb) // read into a buffer the next read reuses
	}
	s.store = &store{head: m, blocks: n, hdr: hb, docCount: dir.DocCount, hdrOff: dir.StoreOff, hdrLen: dir.StoreLen,
		blocksOff: m.BlocksOff, bytes: dir.StoreOff - m.BlocksOff + dir.StoreLen}
	return nil
}

// storeIndex returns the store's block index, decoding it on the first call.
func (s *Segment) storeIndex() (*storeIndex, error) {
	st := s.store
	st.once.Do(func() { st.idx, st.err = s.decodeStoreIndex() })
	return st.idx, st.err
}

// decodeStoreIndex decodes and checks the store's block index.
func (s *Segment) decodeStoreIndex() (*storeIndex, error) {
	st := s.store
	p := sec("store")
	m, err := format.DecodeStoreMeta(st.hdr, st.docCount)
	if err != nil {
		return nil, s.wrap(p, err)
	}
	if m.BlocksOff+m.BlocksLen() != st.hdrOff {
		return nil, s.corrupt(p, "blocks at [%d, +%d) do not end where the header starts (%d)", m.BlocksOff, m.BlocksLen(), st.hdrOff)
	}
	ix := &storeIndex{blocks: m.Blocks, first: make([]uint32, len(m.Blocks)+1), offs: make([]uint64, len(m.Blocks)+1)}
	doc, off := uint64(0), m.BlocksOff
	for i, b := range m.Blocks {
		ix.first[i], ix.offs[i] = uint32(doc), off
		doc += uint64(b.Docs)
		off += uint64(b.StoredLen)
	}
	ix.first[len(m.Blocks)], ix.offs[len(m.Blocks)] = uint32(doc), off
	return ix, nil
}

// block returns the block holding doc (doc < the record count).
func (ix *storeIndex) block(doc uint32) int {
	return sort.Search(len(ix.blocks), func(i int) bool { return ix.first[i+1] > doc })
}

// Store describes the segment's store of records; false when the segment
// keeps none (built with --no-store or writer.Options.NoStore, or a segment
// of format 7 or older).
func (s *Segment) Store() (StoreInfo, bool) {
	st := s.store
	if st == nil {
		return StoreInfo{}, false
	}
	return StoreInfo{Format: st.head.Format, TextField: st.head.TextField, Records: st.head.Records,
		Blocks: st.blocks, Bytes: st.bytes, RawBytes: st.head.RawBytes}, true
}

// Record returns a copy of document id's stored record, byte for byte as it
// was added. A segment without a store gives an error wrapping
// snii.ErrNotFound, an id past the documents snii.ErrInvalidArgument, a
// damaged block snii.ErrCorrupt naming it.
func (s *Segment) Record(ctx context.Context, id uint32) ([]byte, error) {
	var out []byte
	err := s.Records(ctx, []uint32{id}, func(_ uint32, rec []byte) error {
		out = append(make([]byte, 0, len(rec)), rec...)
		return nil
	})
	return out, err
}

// Records calls fn for each id in ids, in the order given, decoding each block
// at most once per call; rec is valid only during the call. The ids of a
// Docs result (ascending) read each block once and hold one decoded block at
// a time; ids in any other order hold each decoded block until its last id,
// within the segment's DecodeBudget. A call needing 64 or more compressed
// blocks, with GOMAXPROCS above 1, decodes them on up to GOMAXPROCS
// goroutines, joined before it returns, and holds at most seven blocks
// decoded ahead of the one it hands out (storepar.go); fn is still called
// on the calling goroutine, in order. A remote segment fetches
// every block needed in one round. An error from fn stops the walk and is
// returned. Errors are those of Record.
func (s *Segment) Records(ctx context.Context, ids []uint32, fn func(id uint32, rec []byte) error) (err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := s.acquire(); err != nil {
		return err
	}
	defer s.release()
	if s.store == nil {
		return s.noStore()
	}
	for _, id := range ids {
		if id >= s.docCount {
			return errs.Invalidf("reader: %s: record %d of %d documents", s.name, id, s.docCount)
		}
	}
	x := s.getCtx(ctx, false)
	defer s.putCtx(x)
	if s.guarding() {
		defer s.faultGuard(&err, x, enableFaults())
	}
	return x.records(ids, fn)
}

// noStore is the error of reading records from a segment without a store.
func (s *Segment) noStore() error {
	return s.at(sec("store"), errs.NotFoundf("segment keeps no records; rebuild without --no-store"))
}

// decodedBlock is a decoded store block held by one Records call.
type decodedBlock struct {
	plain []byte
	ends  []int
	buf   []byte // the decompression buffer (nil: plain aliases the stored bytes)
	last  int    // index in ids of the block's last use
	ready bool
}

// records is Records on a query context: ascending ids (a Docs result) walk
// the blocks in order holding one decoded block, other orders go through
// recordsAnyOrder.
func (x *qctx) records(ids []uint32, fn func(id uint32, rec []byte) error) error {
	st, err := x.s.storeIndex()
	if err != nil {
		return err
	}
	if par, err := x.recordsPar(st, ids, fn); par {
		return err
	}
	if !slices.IsSorted(ids) {
		return x.recordsAnyOrder(st, ids, fn)
	}
	if x.s.remote() != nil {
		x.prefetch(storeRanges(st, ids))
	}
	z, err := x.s.dec.getStore()
	if err != nil {
		return err
	}
	defer x.s.dec.putStore(z)
	d := decodedBlock{ends: x.storeEnds}
	defer x.dropBlock(&d)
	var stored []byte // read buffer (ReaderAt)
	b := -1
	for _, id := range ids {
		if err := x.check(); err != nil {
			return err
		}
		if b < 0 || id >= st.first[b+1] {
			x.dropBlock(&d)
			b = st.block(id)
			if err := x.decodeStoreBlock(z, st, b, &d, &stored); err != nil {
				return err
			}
		}
		k := int(id - st.first[b])
		if err := fn(id, d.plain[d.ends[k]:d.ends[k+1]]); err != nil {
			return err
		}
	}
	return nil
}

// dropBlock gives d's decode buffer back to x.storeFree and keeps its offsets
// buffer in x.storeEnds for the next block.
func (x *qctx) dropBlock(d *decodedBlock) {
	if d.buf != nil {
		x.storeFree = append(x.storeFree, d.buf)
	}
	x.storeEnds = d.ends[:0]
	*d = decodedBlock{ends: x.storeEnds}
}

// storeRanges returns the byte ranges of the blocks holding the ascending ids.
func storeRanges(st *storeIndex, ids []uint32) []objstore.Range {
	var rs []objstore.Range
	b := -1
	for _, id := range ids {
		if b < 0 || id >= st.first[b+1] {
			b = st.block(id)
			rs = append(rs, objstore.Range{Off: int64(st.offs[b]), Len: int64(st.offs[b+1] - st.offs[b])})
		}
	}
	return rs
}

// recordsAnyOrder is records for ids in any order: each decoded block is held
// until its last id.
func (x *qctx) recordsAnyOrder(st *storeIndex, ids []uint32, fn func(id uint32, rec []byte) error) error {
	s := x.s
	blocks := make([]int, len(ids))
	held := make(map[int]*decodedBlock)
	var rs []objstore.Range
	for i, id := range ids {
		b := st.block(id)
		blocks[i] = b
		d := held[b]
		if d == nil {
			d = &decodedBlock{}
			held[b] = d
			rs = append(rs, objstore.Range{Off: int64(st.offs[b]), Len: int64(st.offs[b+1] - st.offs[b])})
		}
		d.last = i
	}
	x.prefetch(rs)
	z, err := s.dec.getStore()
	if err != nil {
		return err
	}
	defer s.dec.putStore(z)
	var stored []byte // read buffer (ReaderAt)
	for i, id := range ids {
		if err := x.check(); err != nil {
			return err
		}
		b := blocks[i]
		d := held[b]
		if !d.ready {
			if err := x.decodeStoreBlock(z, st, b, d, &stored); err != nil {
				return err
			}
		}
		k := int(id - st.first[b])
		if err := fn(id, d.plain[d.ends[k]:d.ends[k+1]]); err != nil {
			return err
		}
		if d.last == i {
			if d.buf != nil {
				x.storeFree = append(x.storeFree, d.buf)
			}
			*d = decodedBlock{last: -1}
		}
	}
	return nil
}

// decodeStoreBlock reads, checks and decodes store block b into d, taking a
// buffer from x.storeFree when one is large enough and charging a new one to
// the segment's decode budget.
func (x *qctx) decodeStoreBlock(z *zstd.Decoder, st *storeIndex, b int, d *decodedBlock, stored *[]byte) error {
	info := st.blocks[b]
	raw, err := x.readInto(st.offs[b], uint64(info.StoredLen), stored)
	if err != nil {
		return x.s.wrap(sec("store"), fmt.Errorf("block %d: %w", b, err))
	}
	var scratch []byte
	if info.Flags != 0 {
		if scratch, err = x.storeScratch(info, b, false); err != nil {
			return err
		}
	}
	return x.s.decodeBlock(z, st, b, raw, scratch, d)
}

// storeScratch returns a decode buffer for compressed block b: the smallest
// of x.storeFree that holds it, or a new one charged to the segment's decode
// budget for the rest of the call. A block decoded ahead of its turn gets a
// new buffer only when the budget grants it at once (nil, nil otherwise).
func (x *qctx) storeScratch(info format.StoreBlock, b int, ahead bool) ([]byte, error) {
	s := x.s
	need := int(info.PlainLen) + zstdopt.DecodeSlack
	if scratch := x.takeStoreBuffer(need); scratch != nil {
		return scratch, nil
	}
	size, credit := int64(storeBufferSize(uint32(need))), int64(0)
	switch {
	case ahead:
		if !s.budget.tryAcquire(x.held, size) {
			return nil, nil
		}
		x.held += size
	default:
		if x.held+size > s.budget.limit {
			// the idle buffers this call charged are all too small for
			// the block: they are dropped and their charge goes to it
			credit = x.dropOwnStoreBuffers()
			if x.held-credit+size > s.budget.limit {
				size = int64(need) // the size class would not fit the budget: the exact size may
			}
		}
		if size > credit {
			if err := x.chargeStore(size - credit); err != nil {
				return nil, s.wrap(sec("store"), fmt.Errorf("block %d: %w", b, err))
			}
		}
	}
	scratch := make([]byte, 0, size)
	x.storeOwn = append(x.storeOwn, scratch)
	return scratch, nil
}

// decodeBlock checks and decodes store block b from its stored bytes raw
// into d, decompressing into scratch (a compressed block's buffer) with z.
// It reads nothing but its arguments and the segment's immutable state, so
// it is safe for concurrent use.
func (s *Segment) decodeBlock(z *zstd.Decoder, st *storeIndex, b int, raw, scratch []byte, d *decodedBlock) error {
	info := st.blocks[b]
	p := sec("store") // the format's errors name the block
	plain, err := format.DecodeStoreBlock(raw, b, info, func(dst, src []byte) ([]byte, error) { return z.DecodeAll(src, dst) }, scratch)
	if err != nil {
		return s.wrap(p, err)
	}
	if info.Flags == 0 && s.data == nil {
		// a plain block read through the ReaderAt: keep it past the next read
		plain = slices.Clone(plain)
	}
	ends, err := format.SplitStoreBlock(plain, b, int(info.Docs), d.ends)
	if err != nil {
		return s.wrap(p, err)
	}
	d.plain, d.ends, d.ready = plain, ends, true
	if info.Flags != 0 {
		d.buf = scratch
	}
	return nil
}

// storeBufferSize is the capacity of a new decode buffer of n bytes (a
// block's plain bytes and the decoder's slack): the power of two at or
// above n, at least StoreBlockTarget,
// so that the buffers of a query's earlier blocks fit the later ones (a
// process that prints many records then decodes them into the same few
// buffers instead of new memory). Blocks near MaxStoreBlockPlain get their
// exact size.
func storeBufferSize(n uint32) int {
	switch {
	case n <= format.StoreBlockTarget:
		return format.StoreBlockTarget
	case n > format.MaxStoreBlockPlain/2:
		return int(n)
	}
	return 1 << bits.Len32(n-1)
}

// chargeStore charges n bytes of decode buffers to the segment's budget for
// the rest of the call.
func (x *qctx) chargeStore(n int64) error {
	if err := x.s.budget.acquire(x.ctx, x.held, n); err != nil {
		return err
	}
	x.held += n
	return nil
}

// verifyStore checks that the store's blocks and header tile the bytes from
// next and decodes every block; it returns where the store ends.
func (x *qctx) verifyStore(next uint64) (uint64, error) {
	s := x.s
	st := s.store
	if st.blocksOff != next {
		return 0, s.corrupt(sec("store"), "blocks start at %d, the previous section ends at %d", st.blocksOff, next)
	}
	ix, err := s.storeIndex()
	if err != nil {
		return 0, err
	}
	z, err := s.dec.getStore()
	if err != nil {
		return 0, err
	}
	defer s.dec.putStore(z)
	var raw uint64
	var stored []byte
	for b := range ix.blocks {
		if err := x.check(); err != nil {
			return 0, err
		}
		var d decodedBlock
		if err := x.decodeStoreBlock(z, ix, b, &d, &stored); err != nil {
			return 0, err
		}
		raw += uint64(d.ends[len(d.ends)-1] - d.ends[0])
		if d.buf != nil {
			x.storeFree = append(x.storeFree, d.buf)
		}
	}
	if raw != st.head.RawBytes {
		return 0, s.corrupt(sec("store"), "records of %d bytes, header says %d", raw, st.head.RawBytes)
	}
	return st.hdrOff + st.hdrLen, nil
}

// hitRecords fills the hits' records in one batch, into one buffer.
func (x *qctx) hitRecords(hits []Hit) error {
	if x.s.store == nil {
		return x.s.noStore()
	}
	ids := make([]uint32, len(hits))
	for i, h := range hits {
		ids[i] = h.Doc
	}
	buf := make([]byte, 0, 64*len(hits))
	ends := make([]int, len(hits))
	k := 0
	err := x.records(ids, func(_ uint32, rec []byte) error {
		buf = append(buf, rec...)
		ends[k] = len(buf)
		k++
		return nil
	})
	if err != nil {
		return err
	}
	start := 0
	for i := range hits {
		hits[i].Record = buf[start:ends[i]:ends[i]]
		start = ends[i]
	}
	return nil
}

// Store-block buffers a pooled query context keeps: a few (as many as a
// parallel Records call queues), of the size classes of storeBufferSize up
// to 1 MiB (a block of 1 MiB less the decoder's slack), 4 MiB in all.
const (
	maxStoreBuffers     = 8
	maxStoreBufferBytes = 1 << 20
	maxStoreBufferTotal = 4 << 20
)

// keepStoreBuffers keeps a few store-block buffers (and a small offsets
// buffer) for the next query on this context and drops the others: the
// largest up to maxStoreBufferBytes, which serve any smaller block too,
// within maxStoreBufferTotal.
func (x *qctx) keepStoreBuffers() {
	slices.SortFunc(x.storeFree, func(a, b []byte) int { return cap(b) - cap(a) })
	kept := x.storeFree[:0]
	total := 0
	for _, b := range x.storeFree {
		if cap(b) <= maxStoreBufferBytes && len(kept) < maxStoreBuffers && total+cap(b) <= maxStoreBufferTotal {
			kept = append(kept, b)
			total += cap(b)
		}
	}
	clear(x.storeFree[len(kept):])
	x.storeFree = kept
	clear(x.storeOwn)
	x.storeOwn = x.storeOwn[:0]
	if cap(x.storeEnds) > maxStoreBufferBytes/8 {
		x.storeEnds = nil
	}
}

// takeStoreBuffer takes from x.storeFree the smallest buffer of n bytes or
// more (nil: none is that large).
func (x *qctx) takeStoreBuffer(n int) []byte {
	free := x.storeFree
	j := -1
	for i, f := range free {
		if cap(f) >= n && (j < 0 || cap(f) < cap(free[j])) {
			j = i
		}
	}
	if j < 0 {
		return nil
	}
	b := free[j]
	free[j] = free[len(free)-1]
	free[len(free)-1] = nil
	x.storeFree = free[:len(free)-1]
	return b
}

// dropOwnStoreBuffers drops from x.storeFree the buffers this call charged
// to the budget (x.storeOwn) and returns their bytes, which x.held still
// counts.
func (x *qctx) dropOwnStoreBuffers() int64 {
	var n int64
	kept := x.storeFree[:0]
	for _, f := range x.storeFree {
		if i := slices.IndexFunc(x.storeOwn, func(o []byte) bool { return &o[:1][0] == &f[:1][0] }); i >= 0 {
			n += int64(cap(f))
			x.storeOwn = slices.Delete(x.storeOwn, i, i+1)
			continue
		}
		kept = append(kept, f)
	}
	clear(x.storeFree[len(kept):])
	x.storeFree = kept
	return n
}
