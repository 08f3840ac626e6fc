package writer

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/snii-go/snii/analysis"
)

// termBuffer is the SPIMI buffer of one field: a hash table from term
// bytes to a term id, a state per term, and the postings of each term as a
// stream in the byte pool. A term's stream is a sequence of records, one per
// document, in document order:
//
//	uvarint docDelta | uvarint posCount | posCount × uvarint posDelta
//
// docDelta is the doc id itself for the term's first record in the buffer,
// otherwise doc - previous doc; the first position is absolute, later ones
// are deltas. Terms, slices and states are never freed one by one: reset
// returns everything at once after a spill.
type termBuffer struct {
	pool  bytePool
	pages []*[pageStates]termState // one pool block per page
	n     uint32                   // terms in use
	slots []uint64                 // open addressing: hash<<32 | id+1; 0 = empty (mapped memory, see mapSlots)
	raw   []byte                   // the mapping behind slots
	seed  hashSeed

	// per document scratch: the terms seen in the document (first-seen
	// order) and, per term, a chain of its positions in docPos.
	docTerms []uint32
	docPos   []posLink
	rec      []byte
}

// posLink is one position of the current document in a term's chain.
type posLink struct {
	pos  uint32
	next int32 // index in docPos of the term's next position, -1 at the end
}

type termState struct {
	s       stream
	term    uint32 // pool address of the term bytes (terms longer than inlineTerm)
	lastDoc uint32
	df      uint32 // records in the stream
	head    int32  // first position in the current document (docPos index), -1 if none
	tail    int32  // last position in the current document
	termLen uint32 // at most analysis.MaxMaxTokenBytes
	// pfx is the term's first inlineTerm bytes, zero-padded: lookup compares
	// it before the pool (a term of at most inlineTerm bytes is all there,
	// and takes no pool bytes).
	pfx [inlineTerm]byte
	n   uint32   // positions in the current document
	_   [12]byte // a state is one 64-byte cache line, a page a power of two of states
}

// inlineTerm is the longest term held in its state alone.
const inlineTerm = 8

const (
	stateSize    = int64(unsafe.Sizeof(termState{}))
	pageStates   = blockSize / uint32(stateSize) // states per page (one block)
	minSlots     = 1 << 10
	scratchLimit = 1 << 20 // per-document scratch above this is released after the document
)

// A state is one 64-byte cache line: state finds it with a shift and a mask,
// and a lookup touches one line.
var (
	_ [stateSize - 64]struct{}
	_ [64 - stateSize]struct{}
)

func newTermBuffer(cache *blockCache, seed maphash.Seed) *termBuffer {
	return &termBuffer{pool: bytePool{cache: cache}, seed: newHashSeed(seed)}
}

func (b *termBuffer) state(id uint32) *termState {
	return &b.pages[id/pageStates][id%pageStates]
}

func (b *termBuffer) termBytes(id uint32) []byte {
	st := b.state(id)
	if st.termLen <= inlineTerm {
		return st.pfx[:st.termLen:st.termLen]
	}
	return b.pool.span(st.term, st.termLen)
}

// termKey returns the first inlineTerm bytes of term, zero-padded, as a
// little-endian number (termState.pfx's).
func termKey(term []byte) uint64 {
	if len(term) >= inlineTerm {
		return binary.LittleEndian.Uint64(term)
	}
	if cap(term) >= inlineTerm { // one load (an analyzer's token buffer has room), the bytes past the term masked off
		return binary.LittleEndian.Uint64(term[:inlineTerm]) & (1<<(8*len(term)) - 1)
	}
	var k [inlineTerm]byte
	copy(k[:], term)
	return binary.LittleEndian.Uint64(k[:])
}

// memory returns the bytes the buffer holds: pool blocks in use, state pages,
// the hash table and the per-document scratch.
func (b *termBuffer) memory() int64 {
	return b.pool.size() + int64(len(b.pages))*blockSize + int64(len(b.slots))*8 +
		int64(cap(b.docPos))*8 + int64(cap(b.docTerms))*4 + int64(cap(b.rec))
}

// empty reports whether the buffer holds no postings.
func (b *termBuffer) empty() bool { return b.n == 0 }

// add records one token of the current document (positions ascending) and
// returns its term's id; h is the term's termHash. It returns false when the
// pool is full (4 GiB), the term is longer than a term may be, or the
// document has 2^31 tokens.
func (b *termBuffer) add(term []byte, h uint32, pos uint32) (uint32, bool) {
	id, st, ok := b.lookupHash(term, h)
	if !ok || len(b.docPos) == math.MaxInt32 {
		return 0, false
	}
	i := int32(len(b.docPos))
	b.docPos = append(b.docPos, posLink{pos: pos, next: -1})
	if st.head < 0 {
		st.head = i
		b.docTerms = append(b.docTerms, id)
	} else {
		b.docPos[st.tail].next = i
	}
	st.tail = i
	st.n++
	return id, true
}

// hashSeed keys a term buffer's hash: a maphash seed for the terms longer
// than inlineTerm, and two keys drawn from it for the others.
type hashSeed struct {
	seed   maphash.Seed
	k0, k1 uint64
}

func newHashSeed(seed maphash.Seed) hashSeed {
	return hashSeed{seed: seed, k0: maphash.String(seed, "k0"), k1: maphash.String(seed, "k1")}
}

// termHash is the hash a term buffer of seed files term under: a term of at
// most inlineTerm bytes (most tokens) hashes by its termKey (keyHash), a
// longer one by maphash.
func termHash(seed *hashSeed, term []byte) uint32 {
	if len(term) > inlineTerm {
		return longTermHash(seed, term)
	}
	return keyHash(seed, termKey(term), len(term))
}

// keyHash is termHash of a term of n <= inlineTerm bytes and termKey k: k
// and n mixed by one keyed 64×64→128-bit multiply, its halves folded (as
// wyhash mixes short inputs).
func keyHash(seed *hashSeed, k uint64, n int) uint32 {
	hi, lo := bits.Mul64(k^seed.k0, k^seed.k1^uint64(n))
	x := hi ^ lo
	return uint32(x ^ x>>32)
}

// longTermHash is termHash of a term longer than inlineTerm bytes.
func longTermHash(seed *hashSeed, term []byte) uint32 {
	h := maphash.Bytes(seed.seed, term)
	return uint32(h) ^ uint32(h>>32)
}

// lookup returns the id of term, inserting it when new.
func (b *termBuffer) lookup(term []byte) (uint32, bool) {
	id, _, ok := b.lookupHash(term, termHash(&b.seed, term))
	return id, ok
}

// lookupHash is lookup of a term whose termHash is h32; it also returns the
// term's state.
func (b *termBuffer) lookupHash(term []byte, h32 uint32) (uint32, *termState, bool) {
	if len(term) > analysis.MaxMaxTokenBytes {
		return 0, nil, false
	}
	if len(b.slots) == 0 && !b.mapSlots(minSlots) {
		return 0, nil, false
	}
	key, n := termKey(term), uint32(len(term))
	mask := uint32(len(b.slots) - 1)
	for i := h32 & mask; ; i = (i + 1) & mask {
		s := b.slots[i]
		if s == 0 {
			id, ok := b.newTerm(term, key)
			if !ok {
				return 0, nil, false
			}
			b.slots[i] = uint64(h32)<<32 | uint64(id+1)
			if 4*(b.n+1) > 3*uint32(len(b.slots)) && !b.grow() {
				return 0, nil, false
			}
			return id, b.state(id), true
		}
		if uint32(s>>32) == h32 {
			id := uint32(s) - 1
			st := b.state(id)
			if st.termLen == n && binary.LittleEndian.Uint64(st.pfx[:]) == key &&
				(n <= inlineTerm || bytes.Equal(b.pool.span(st.term+inlineTerm, n-inlineTerm), term[inlineTerm:])) {
				return id, st, true
			}
		}
	}
}

func (b *termBuffer) newTerm(term []byte, key uint64) (uint32, bool) {
	id := b.n
	if int(id/pageStates) == len(b.pages) {
		blk := b.pool.cache.get()
		if blk == nil {
			b.pool.full = true
			return 0, false
		}
		b.pages = append(b.pages, (*[pageStates]termState)(unsafe.Pointer(unsafe.SliceData(blk))))
	}
	st := b.state(id)
	*st = termState{termLen: uint32(len(term)), head: -1, tail: -1}
	binary.LittleEndian.PutUint64(st.pfx[:], key)
	if len(term) > inlineTerm {
		a, ok := b.pool.alloc(uint32(len(term)))
		if !ok {
			return 0, false
		}
		copy(b.pool.span(a, uint32(len(term))), term)
		st.term = a
	}
	if !b.pool.newStream(&st.s) {
		return 0, false
	}
	b.n++
	return id, true
}

// mapSlots replaces the hash table by an empty one of n slots, in mapped
// memory (outside the Go heap, like the pool).
func (b *termBuffer) mapSlots(n int) bool {
	raw, err := mapRaw(8 * n)
	if err != nil {
		if b.pool.cache.err == nil {
			b.pool.cache.err = err
		}
		b.pool.full = true
		return false
	}
	b.freeSlots()
	clear(raw) // a fresh mapping is zeroed; the fallback allocation too
	b.raw, b.slots = raw, unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(raw))), n)
	return true
}

func (b *termBuffer) freeSlots() {
	if b.raw != nil {
		_ = unmapRaw(b.raw)
	}
	b.raw, b.slots = nil, nil
}

// grow doubles the hash table (lookup grows it past 3/4 full: linear probes
// stay short, and the table stays small enough to stay in cache).
func (b *termBuffer) grow() bool {
	old, oldRaw := b.slots, b.raw
	b.raw, b.slots = nil, nil // keep the old table mapped while rehashing
	if !b.mapSlots(2 * len(old)) {
		b.raw, b.slots = oldRaw, old
		return false
	}
	mask := uint32(len(b.slots) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := uint32(s>>32) & mask
		for b.slots[i] != 0 {
			i = (i + 1) & mask
		}
		b.slots[i] = s
	}
	_ = unmapRaw(oldRaw)
	return true
}

// finishDoc appends the current document's records (one per distinct term)
// to the terms' streams and returns the number of tokens it held.
func (b *termBuffer) finishDoc(doc uint32) (tokens int, ok bool) {
	for _, id := range b.docTerms {
		st := b.state(id)
		n := int(st.n)
		delta := doc
		if st.df > 0 {
			delta = doc - st.lastDoc
		}
		most := 2*binary.MaxVarintLen32 + uint64(n)*binary.MaxVarintLen32 // the record's bytes at most
		if room := st.s.end - st.s.tail; uint64(room) >= most {
			// The record fits the stream's current slice: encoded in place.
			st.s.tail += uint32(b.putRecord(b.pool.span(st.s.tail, room), st, delta))
		} else {
			if uint64(cap(b.rec)) < most {
				b.rec = make([]byte, most)
			}
			rec := b.rec[:b.putRecord(b.rec[:most], st, delta)]
			if !b.pool.write(&st.s, rec) {
				return 0, false
			}
		}
		st.head, st.tail, st.n = -1, -1, 0
		st.df++
		st.lastDoc = doc
	}
	tokens = len(b.docPos)
	b.discardDoc()
	return tokens, true
}

// putRecord writes the record of st's positions in the current document
// (st.n of them) under doc delta delta at the start of dst, which has room
// for 5·(2 + st.n) bytes, and returns its length.
func (b *termBuffer) putRecord(dst []byte, st *termState, delta uint32) int {
	k := putUvarint32(dst, 0, delta)
	k = putUvarint32(dst, k, st.n)
	var prev uint32
	for i := st.head; i >= 0; {
		l := b.docPos[i]
		if v := l.pos - prev; v < 0x80 {
			dst[k] = byte(v)
			k++
		} else {
			k = putUvarint32(dst, k, v)
		}
		prev, i = l.pos, l.next
	}
	return k
}

// putUvarint32 writes v as a uvarint at dst[k:] and returns the index past it.
func putUvarint32(dst []byte, k int, v uint32) int {
	for v >= 0x80 {
		dst[k] = byte(v) | 0x80
		v >>= 7
		k++
	}
	dst[k] = byte(v)
	return k + 1
}

// discardDoc forgets the current document's tokens (terms it created stay,
// with df 0, and are skipped by sortedIDs).
func (b *termBuffer) discardDoc() {
	for _, id := range b.docTerms {
		st := b.state(id)
		st.head, st.tail, st.n = -1, -1, 0
	}
	b.docTerms, b.docPos = b.docTerms[:0], b.docPos[:0]
	if cap(b.docPos) > scratchLimit/8 {
		b.docPos, b.docTerms = nil, nil
	}
	if cap(b.rec) > scratchLimit {
		b.rec = nil
	}
}

// sortedIDs returns the ids of the terms with postings, in term byte order.
// It sorts (8-byte big-endian prefix, id) keys, so most comparisons touch
// neither the term states nor the pool; equal prefixes compare the terms.
func (b *termBuffer) sortedIDs(dst []uint32) []uint32 {
	keys := make([]sortKey, 0, b.n)
	for id := uint32(0); id < b.n; id++ {
		if st := b.state(id); st.df > 0 {
			keys = append(keys, sortKey{pfx: binary.BigEndian.Uint64(st.pfx[:]), id: id})
		}
	}
	slices.SortFunc(keys, func(x, y sortKey) int {
		if c := cmp.Compare(x.pfx, y.pfx); c != 0 {
			return c
		}
		return bytes.Compare(b.termBytes(x.id), b.termBytes(y.id))
	})
	dst = dst[:0]
	for _, k := range keys {
		dst = append(dst, k.id)
	}
	return dst
}

type sortKey struct {
	pfx uint64
	id  uint32
}

// reset empties the buffer after a spill: pool blocks and state pages go
// back to the shared cache (the next documents reuse them), the hash table
// is unmapped and starts small again. Only memory in use is accounted, so
// the next run gets the whole limit.
func (b *termBuffer) reset() {
	b.pool.reset()
	b.releasePages()
	b.freeSlots()
	b.n = 0
}

func (b *termBuffer) releasePages() {
	for i, p := range b.pages {
		b.pool.cache.put(unsafe.Slice((*byte)(unsafe.Pointer(p)), blockSize))
		b.pages[i] = nil
	}
	b.pages = b.pages[:0]
}

// release returns every block to the cache and drops the rest (after the
// buffer's index has been written).
func (b *termBuffer) release() {
	b.reset()
	b.pages, b.docTerms, b.docPos, b.rec = nil, nil, nil, nil
}
