package writer

import (
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/snii-go/snii/internal/errs"
)

// pairFwd is the forward index of one field for the pair counting of a build
// without spills: the term-buffer ids of each document's tokens by position,
// recorded as the documents are added (they arrive in doc order, so this is
// an append). At Close the ids are mapped to the ordinals of the terms the
// pair tap tracks (df >= the minimum pair df), and the pairs are read off
// the documents in order (countFwd), with no regrouping of the term-major
// postings by document.
//
// A document's slots are dense, one per position from 0 to its last (id+1,
// 0 for a position without a token: a skipped token), when that is at most
// twice its tokens plus 8; otherwise (several values, ValueGap apart)
// sparse: its n ids+1, then its n positions. The index is dropped (the tap
// then counts from the postings alone) at the first spill, when the indexes
// of all fields would pass MemoryLimit/4, or when an analyzer gives a
// document's positions out of strictly ascending order. On unix the slots
// live in one anonymous mapping of that size, reserved at the first
// document and faulted in as used (no growth by copying, outside the Go
// heap).
type pairFwd struct {
	slots  []uint32
	raw    []byte   // the mapping behind slots, if any
	limit  int64    // bytes the slots may take
	starts []uint32 // starts[d]: document d's first slot; len = documents + 1
	sparse []uint64 // bit d: document d is sparse
	doc    []uint64 // the current document's tokens: position<<32 | id
	bad    bool     // positions out of order, or past the limit

	// after mapOrds: ords[id+1] = tracked ordinal + 1 (0: not tracked;
	// ords[0] = 0), ids[ordinal] = id, and the buffer the ids are of
	ords    []uint32
	ids     []uint32
	tracked uint32 // terms tracked
	buf     *termBuffer
	cache   map[uint32][]uint32 // docs read back, by ordinal
	cached  int64               // values in cache
}

func newPairFwd(limit int64) *pairFwd { return &pairFwd{starts: []uint32{0}, limit: limit} }

// token records a token of the current document.
func (f *pairFwd) token(pos, id uint32) {
	f.doc = append(f.doc, uint64(pos)<<32|uint64(id))
}

// endDoc stores the current document (possibly without tokens).
func (f *pairFwd) endDoc() {
	toks := f.doc
	f.doc = toks[:0]
	if f.bad {
		return
	}
	d := len(f.starts) - 1
	if d%64 == 0 {
		f.sparse = append(f.sparse, 0)
	}
	if n := uint64(len(toks)); n > 0 {
		for i := 1; i < len(toks); i++ {
			if tokPos(toks[i]) <= tokPos(toks[i-1]) {
				f.bad = true
				return
			}
		}
		last := uint64(tokPos(toks[n-1]))
		dense := last+1 <= 2*n+8
		need := 2 * n
		if dense {
			need = last + 1
		}
		base := len(f.slots)
		if !f.grow(need) {
			f.bad = true
			return
		}
		s := f.slots[base : base+int(need)]
		if dense {
			clear(s)
			for _, t := range toks {
				s[tokPos(t)] = tokOrd(t) + 1
			}
		} else {
			f.sparse[d/64] |= 1 << (d % 64)
			for i, t := range toks {
				s[i], s[int(n)+i] = tokOrd(t)+1, tokPos(t)
			}
		}
	}
	f.starts = append(f.starts, uint32(len(f.slots)))
	if cap(f.doc) > scratchLimit/8 {
		f.doc = nil
	}
}

// grow extends slots by need (zeroed or not) within the limit.
func (f *pairFwd) grow(need uint64) bool {
	n := uint64(len(f.slots))
	most := min(uint64(max(f.limit, 0)/4), math.MaxUint32, math.MaxInt/8)
	if n+need > most {
		return false
	}
	if n+need > uint64(cap(f.slots)) && lazyMap && n == 0 {
		if raw, err := mapRaw(int(most) * 4); err == nil {
			f.raw = raw
			f.slots = unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(raw))), most)[:0]
		}
	}
	f.slots = slices.Grow(f.slots, int(need))[:n+need]
	return true
}

// discardDoc forgets the current document's tokens (a failed Add).
func (f *pairFwd) discardDoc() { f.doc = f.doc[:0] }

// memory returns the bytes the index holds (of a mapping, those in use).
func (f *pairFwd) memory() int64 {
	slots := cap(f.slots)
	if f.raw != nil {
		slots = len(f.slots)
	}
	return 4*int64(slots+cap(f.starts)+len(f.ords)) + 8*int64(cap(f.sparse)+cap(f.doc))
}

// free releases the index's memory; the index is unusable after.
func (f *pairFwd) free() {
	if f.raw != nil {
		_ = unmapRaw(f.raw)
	}
	*f = pairFwd{bad: true}
}

// mapOrds maps the ids of b, whose terms with postings are ids in byte
// order, to tracked ordinals: the k-th term of ids with df >= minDF gets
// k, as the pair tap numbers them.
func (f *pairFwd) mapOrds(b *termBuffer, ids []uint32, minDF uint64) {
	f.ords, f.ids, f.buf = make([]uint32, uint64(b.n)+1), nil, b
	for _, id := range ids {
		if uint64(b.state(id).df) >= minDF {
			f.ids = append(f.ids, id)
			f.ords[uint64(id)+1] = uint32(len(f.ids))
		}
	}
	f.tracked = uint32(len(f.ids))
}

// termDocs returns the docs of tracked term i in scratch, read back from
// the term buffer (which lives until the index is written) and kept for
// the next call while the kept lists stay within limit/4 bytes.
func (f *pairFwd) termDocs(i uint32, scratch []uint32) ([]uint32, error) {
	if docs, ok := f.cache[i]; ok {
		return append(scratch[:0], docs...), nil
	}
	docs, err := f.readDocs(i, scratch)
	if err == nil && 16*(f.cached+int64(len(docs))) <= f.limit {
		if f.cache == nil {
			f.cache = make(map[uint32][]uint32)
		}
		f.cache[i] = slices.Clone(docs)
		f.cached += int64(len(docs))
	}
	return docs, err
}

// readDocs reads tracked term i's docs into scratch.
func (f *pairFwd) readDocs(i uint32, scratch []uint32) ([]uint32, error) {
	s := newMemSource(f.buf, f.ids[i:i+1])
	if _, _, ok, err := s.NextTerm(); !ok || err != nil {
		return nil, errs.Corruptf("pair counting: tracked term %d not in the term buffer: %v", i, err)
	}
	docs := scratch[:0]
	for {
		d, _, ok, err := s.NextDoc()
		if err != nil {
			return nil, err
		}
		if !ok {
			return docs, nil
		}
		docs = append(docs, d)
	}
}

// docs returns the documents the index covers.
func (f *pairFwd) docs() uint64 { return uint64(len(f.starts) - 1) }

// addPairs adds to r a record (a<<32 | b, doc) for every tracked term a at a
// position of document doc followed by tracked term b (a pair that occurs
// several times in doc gives as many records; groups drops the repeats).
func (f *pairFwd) addPairs(doc uint32, r *pairRecs) error {
	s, e := uint64(f.starts[doc]), uint64(f.starts[doc+1])
	if e-s < 2 {
		return nil
	}
	if f.sparse[doc/64]>>(doc%64)&1 == 0 {
		slots := f.slots[s:e]
		if r.ext == nil && len(r.mem)+len(slots) <= r.limit { // in memory: the record directly
			mem, terms, lo := r.mem, r.terms, uint64(doc)
			prev := f.ords[slots[0]]
			for _, v := range slots[1:] {
				o := f.ords[v]
				if prev != 0 && o != 0 {
					mem = append(mem, (uint64(prev-1)*terms+uint64(o-1))<<32|lo)
				}
				prev = o
			}
			r.mem = mem
			return nil
		}
		prev := f.ords[slots[0]]
		for _, v := range slots[1:] {
			o := f.ords[v]
			if prev != 0 && o != 0 {
				if err := r.add(uint64(prev-1)<<32|uint64(o-1), doc); err != nil {
					return err
				}
			}
			prev = o
		}
		return nil
	}
	n := (e - s) / 2
	ids, ps := f.slots[s:s+n], f.slots[s+n:e]
	for k := 1; k < len(ids); k++ {
		if ps[k] != ps[k-1]+1 {
			continue
		}
		if a, b := f.ords[ids[k-1]], f.ords[ids[k]]; a != 0 && b != 0 {
			if err := r.add(uint64(a-1)<<32|uint64(b-1), doc); err != nil {
				return err
			}
		}
	}
	return nil
}

// fwdBuckets holds the pairs read off a forward index as (b, doc) records
// bucketed by the pair's first term a: bucket a has room for a record per
// token of a and fills in doc order. groups sorts one bucket at a time by b.
// A record is b<<shift | doc, in 4 bytes when b and the doc fit 32 bits
// together, else in 8.
type fwdBuckets struct {
	r64   []uint64
	r32   []uint32
	raw   []byte   // the mapping behind the records, if any
	shift uint     // bits of the doc
	end   []uint64 // end[a]: the end of bucket a's room (the tap's tends)
	next  []uint64 // next[a]: the end of bucket a's records

	// groups' scratch
	cnt, at []uint32 // per b: records in the bucket, then write cursor
	touched []uint32
	docs    []uint32
}

// bucketFwd reads the pairs off the forward index into buckets by first
// term (one pass over the documents; the writes go to one place per
// tracked term).
func (pw *pairWriter) bucketFwd() error {
	t, f := pw.tap, pw.tap.fwd
	terms := uint64(len(t.tends))
	fb := &fwdBuckets{end: t.tends, next: make([]uint64, terms),
		cnt: make([]uint32, terms), at: make([]uint32, terms), shift: 32}
	pw.fb = fb
	width := uint64(8)
	db := bits.Len64(max(f.docs(), 1) - 1)
	if fl := pw.w.opts.faults; bits.Len64(max(terms, 1)-1)+db <= 32 && (fl == nil || !fl.pairWide) {
		fb.shift, width = uint(db), 4
	}
	if lazyMap && t.ntok > 0 {
		// Outside the Go heap: no collection cycle for it, and it goes back
		// at once (free).
		if raw, err := mapRaw(int(width * t.ntok)); err == nil {
			fb.raw = raw
		}
	}
	switch {
	case width == 4 && fb.raw != nil:
		fb.r32 = unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(fb.raw))), t.ntok)
	case width == 4:
		fb.r32 = make([]uint32, t.ntok)
	case fb.raw != nil:
		fb.r64 = unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(fb.raw))), t.ntok)
	default:
		fb.r64 = make([]uint64, t.ntok)
	}
	for a := uint64(1); a < terms; a++ {
		fb.next[a] = fb.end[a-1]
	}
	for d := uint64(0); d < f.docs(); d++ {
		if d&0x3fff == 0x3fff {
			if err := pw.w.ctx.Err(); err != nil {
				return err
			}
		}
		s, e := uint64(f.starts[d]), uint64(f.starts[d+1])
		if e-s < 2 {
			continue
		}
		if f.sparse[d/64]>>(d%64)&1 == 0 {
			slots := f.slots[s:e]
			prev := f.ords[slots[0]]
			for _, v := range slots[1:] {
				o := f.ords[v]
				if prev != 0 && o != 0 && !fb.add(prev-1, o-1, d) {
					return errs.Corruptf("pair counting: term %d has more pairs than tokens", prev-1)
				}
				prev = o
			}
			continue
		}
		n := (e - s) / 2
		ids, ps := f.slots[s:s+n], f.slots[s+n:e]
		for k := 1; k < len(ids); k++ {
			if ps[k] != ps[k-1]+1 {
				continue
			}
			if a, b := f.ords[ids[k-1]], f.ords[ids[k]]; a != 0 && b != 0 && !fb.add(a-1, b-1, d) {
				return errs.Corruptf("pair counting: term %d has more pairs than tokens", a-1)
			}
		}
	}
	return nil
}

// free releases the records' mapping; fb is unusable after.
func (fb *fwdBuckets) free() {
	if fb.raw != nil {
		_ = unmapRaw(fb.raw)
	}
	*fb = fwdBuckets{}
}

// add adds the record (b, doc) to bucket a; false when the bucket is full.
func (fb *fwdBuckets) add(a, b uint32, doc uint64) bool {
	i := fb.next[a]
	if i >= fb.end[a] {
		return false
	}
	if fb.r32 != nil {
		fb.r32[i] = b<<fb.shift | uint32(doc)
	} else {
		fb.r64[i] = uint64(b)<<32 | doc
	}
	fb.next[a] = i + 1
	return true
}

// groups calls fn, in pair order, for each pair (a, b) in at least minDF
// documents, with its documents ascending; with only (pair ids, ascending)
// set, for those pairs only.
func (fb *fwdBuckets) groups(minDF uint64, only []uint64, check func() error, fn func(id uint64, docs []uint32) error) error {
	k := 0 // only[k:] are the pairs not yet passed
	for a := range fb.next {
		lo := uint64(0)
		if a > 0 {
			lo = fb.end[a-1]
		}
		hi := fb.next[a]
		if hi-lo < minDF {
			continue
		}
		if only != nil {
			for k < len(only) && only[k]>>32 < uint64(a) {
				k++
			}
			if k == len(only) {
				return nil
			}
			if only[k]>>32 != uint64(a) {
				continue
			}
		}
		if a&0xff == 0xff {
			if err := check(); err != nil {
				return err
			}
		}
		var err error
		if fb.r32 != nil {
			err = sortBucket(fb, uint32(a), fb.r32[lo:hi], minDF, fn)
		} else {
			err = sortBucket(fb, uint32(a), fb.r64[lo:hi], minDF, fn)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// sortBucket sorts bucket a's records with at least minDF of the same b by
// b (a counting sort; docs stay ascending) and passes each such pair on.
func sortBucket[R uint32 | uint64](fb *fwdBuckets, a uint32, bucket []R, minDF uint64, fn func(id uint64, docs []uint32) error) error {
	shift, mask := fb.shift, uint64(1)<<fb.shift-1
	touched := fb.touched[:0]
	for _, x := range bucket {
		b := uint32(uint64(x) >> shift)
		if fb.cnt[b] == 0 {
			touched = append(touched, b)
		}
		fb.cnt[b]++
	}
	elig := touched[:0:0]
	var total uint32
	for _, b := range touched {
		if uint64(fb.cnt[b]) >= minDF {
			elig = append(elig, b)
		}
	}
	var err error
	if len(elig) > 0 {
		slices.Sort(elig)
		for _, b := range elig {
			fb.at[b] = total
			total += fb.cnt[b]
		}
		if cap(fb.docs) < int(total) {
			fb.docs = make([]uint32, total)
		}
		docs := fb.docs[:total]
		for _, x := range bucket {
			if b := uint32(uint64(x) >> shift); uint64(fb.cnt[b]) >= minDF {
				docs[fb.at[b]] = uint32(uint64(x) & mask)
				fb.at[b]++
			}
		}
		lo := uint32(0)
		for _, b := range elig {
			ds := docs[lo:fb.at[b]]
			lo = fb.at[b]
			n := 1 // drop repeats (a pair twice in a document)
			for _, d := range ds[1:] {
				if d != ds[n-1] {
					ds[n] = d
					n++
				}
			}
			if uint64(n) >= minDF {
				if err = fn(uint64(a)<<32|uint64(b), ds[:n]); err != nil {
					break
				}
			}
		}
	}
	for _, b := range touched {
		fb.cnt[b] = 0
	}
	fb.touched = touched[:0]
	return err
}
