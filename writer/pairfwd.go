package writer

import (
	"encoding/binary"
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
// the documents in order (pairWriter.count), with no regrouping of the term-major
// postings by document.
//
// A document's slots are dense, one per position from 0 to its last (id+1,
// 0 for a position without a token: a skipped token), when that is at most
// twice its tokens plus 8; otherwise (several values, ValueGap apart)
// sparse: its n ids+1, then its n positions. The slots in memory stay
// within the index's limit together with its other arrays: when a document
// does not fit, the slots held so far are appended to a temp file (they are
// read back in order, document after document; fwdReader). The index is
// dropped (the tap then counts from the postings alone) at the first spill
// of the term buffers, when its starts alone pass the limit or its slots
// 2^32, when the temp file fails, or when an analyzer gives a document's
// positions out of strictly ascending order. On unix the slots in memory
// live in one anonymous mapping of the limit's size, reserved at the first
// document and faulted in as used (no growth by copying, outside the Go
// heap).
type pairFwd struct {
	slots  []uint32 // slots [inFile, inFile+len(slots)) (the ones before are in file)
	raw    []byte   // the mapping behind slots, if any
	limit  int64    // bytes the index may hold in memory
	starts []uint32 // starts[d]: document d's first slot; len = documents + 1
	sparse []uint64 // bit d: document d is sparse
	doc    []uint64 // the current document's tokens: position<<32 | id
	bad    bool     // positions out of order, or past the limit

	counts []uint32 // counts[id]: the tokens of term id in the documents stored

	file   *tempFile                 // the slots written out, or nil
	inFile uint64                    // slots in file
	create func() (*tempFile, error) // creates file

	// after mapOrds: ords[id+1] = tracked ordinal + 1 (0: not tracked;
	// ords[0] = 0), ids[ordinal] = id, and the buffer the ids are of
	ords    []uint32
	ids     []uint32
	tracked uint32 // terms tracked
	buf     *termBuffer
	cache   map[uint32]docList // docs read back, by ordinal
	cached  int64              // bytes in cache
	enc     []byte             // scratch: a doc list being encoded
}

// newPairFwd returns an empty forward index that holds at most limit bytes
// in memory and writes the slots past that to a temp file from create.
func newPairFwd(limit int64, create func() (*tempFile, error)) *pairFwd {
	return &pairFwd{starts: []uint32{0}, limit: limit, create: create}
}

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
		prev := int64(-1)
		for _, t := range toks { // (counts taken before an order error go with the dropped index)
			if int64(tokPos(t)) <= prev {
				f.bad = true
				return
			}
			prev = int64(tokPos(t))
			id := int(tokOrd(t))
			if id >= len(f.counts) {
				f.counts = append(f.counts, make([]uint32, id+1-len(f.counts))...)
			}
			f.counts[id]++
		}
		last := uint64(tokPos(toks[n-1]))
		dense := last+1 <= 2*n+8
		need := 2 * n
		if dense {
			need = last + 1
		}
		if !f.grow(need) {
			f.bad = true
			return
		}
		s := f.slots[len(f.slots)-int(need):]
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
	f.starts = append(f.starts, uint32(f.inFile+uint64(len(f.slots))))
	if cap(f.doc) > scratchLimit/8 {
		f.doc = nil
	}
}

// grow extends slots by need (zeroed or not) within the limit, writing the
// slots held so far to the file first when they would pass it.
func (f *pairFwd) grow(need uint64) bool {
	n := uint64(len(f.slots))
	most := min(uint64(max(f.limit, 0)/4), math.MaxInt/8) // the mapping's slots
	room := uint64(max(f.limit-f.overhead(), 0) / 4)
	if n+need > room && n > 0 {
		if f.flush() != nil {
			return false
		}
		n = 0
	}
	if n+need > min(room, most) || f.inFile+n+need > math.MaxUint32 {
		return false
	}
	if n+need > uint64(cap(f.slots)) && lazyMap && f.raw == nil {
		if raw, err := mapRaw(int(most) * 4); err == nil {
			f.raw = raw
			f.slots = unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(raw))), most)[:0]
		}
	}
	f.slots = slices.Grow(f.slots, int(need))[:n+need]
	return true
}

// overhead returns the bytes the index holds besides its slots.
func (f *pairFwd) overhead() int64 {
	return 4*int64(cap(f.starts)+len(f.ords)+cap(f.counts)) + 8*int64(cap(f.sparse)+cap(f.doc))
}

// flush appends the slots in memory to the file (created on first use).
func (f *pairFwd) flush() error {
	if len(f.slots) == 0 {
		return nil
	}
	if f.file == nil {
		if f.create == nil {
			return errs.Limitf("pair counting: forward index past its memory and no temp file")
		}
		t, err := f.create()
		if err != nil {
			return err
		}
		f.file = t
	}
	if _, err := f.file.Write(u32Bytes(f.slots)); err != nil {
		return err
	}
	f.inFile += uint64(len(f.slots))
	f.slots = f.slots[:0]
	return nil
}

// spilled reports whether slots went to the file.
func (f *pairFwd) spilled() bool { return f.file != nil }

// u32Bytes returns the memory of v as bytes (machine order: the file is
// read back by the same process).
func u32Bytes(v []uint32) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 4*len(v))
}

// memory returns the bytes the index holds in memory (of a mapping, those in
// use).
func (f *pairFwd) memory() int64 {
	slots := cap(f.slots)
	if f.raw != nil {
		slots = len(f.slots)
	}
	return 4*int64(slots) + f.overhead()
}

// free releases the index's memory; the index is unusable after. Its file
// stays with the build's temp files.
func (f *pairFwd) free() {
	f.freeSlots()
	*f = pairFwd{bad: true}
}

// freeSlots releases the slots in memory (their mapping).
func (f *pairFwd) freeSlots() {
	if f.raw != nil {
		_ = unmapRaw(f.raw)
	}
	f.raw, f.slots = nil, nil
}

// toFile writes the slots still in memory to the file and releases their
// memory, when some are in the file already: the pair counting then reads
// every document from the file.
func (f *pairFwd) toFile() error {
	if f.file == nil {
		return nil
	}
	if err := f.flush(); err != nil {
		return err
	}
	f.freeSlots()
	return nil
}

// fwdReadSlots is the slots a fwdReader reads from the file at a time.
const fwdReadSlots = 256 << 10

// fwdReader returns the documents' slots in doc order: from memory, or read
// from the file in chunks.
type fwdReader struct {
	f      *pairFwd
	buf    []uint32
	lo, hi uint64 // the slots in buf
}

// slots returns document d's slots and whether the document is sparse; d
// must not descend from call to call.
func (r *fwdReader) slots(d uint64) ([]uint32, bool, error) {
	f := r.f
	s, e := uint64(f.starts[d]), uint64(f.starts[d+1])
	sparse := f.sparse[d/64]>>(d%64)&1 != 0
	if e <= f.inFile && f.file != nil {
		if e > r.hi || s < r.lo {
			if s < r.lo || s > r.hi {
				r.lo, r.hi = s, s
			}
			keep := copy(r.buf, r.buf[s-r.lo:r.hi-r.lo])
			want := max(fwdReadSlots, e-s)
			if uint64(cap(r.buf)) < want {
				nb := make([]uint32, want)
				copy(nb, r.buf[:keep])
				r.buf = nb
			}
			n := min(want, f.inFile-s)
			r.buf = r.buf[:n]
			if _, err := f.file.ReadAt(u32Bytes(r.buf[keep:n]), int64(4*(s+uint64(keep)))); err != nil {
				return nil, false, errs.Corruptf("pair counting: read forward index: %v", err)
			}
			r.lo, r.hi = s, s+n
		}
		return r.buf[s-r.lo : e-r.lo], sparse, nil
	}
	return f.slots[s-f.inFile : e-f.inFile], sparse, nil
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

// tap returns the pair tap of the index the forward index covers, made from
// its tracked terms (after mapOrds) and their token counts: the pairs are
// counted off the forward index beside the emitter, which reads the term
// buffer's postings without a tap.
func (f *pairFwd) tap(minDF, docs uint64) *pairTap {
	t := &pairTap{fwd: f, minDF: minDF, docs: docs, cur: -1}
	t.dfs, t.ends, t.tends = make([]uint64, 0, len(f.ids)), make([]uint32, 0, len(f.ids)), make([]uint64, 0, len(f.ids))
	for _, id := range f.ids {
		t.arena = append(t.arena, f.buf.termBytes(id)...)
		t.ends = append(t.ends, uint32(len(t.arena)))
		t.dfs = append(t.dfs, uint64(f.buf.state(id).df))
		if int(id) < len(f.counts) {
			t.ntok += uint64(f.counts[id])
		}
		t.tends = append(t.tends, t.ntok)
	}
	return t
}

// termDocs returns the docs of tracked term i in scratch, read back from
// the term buffer (which lives until the field is written) and kept for
// the next call, as varint gaps, while the kept lists stay within limit/4
// bytes.
func (f *pairFwd) termDocs(i uint32, scratch []uint32) ([]uint32, error) {
	if l, ok := f.cache[i]; ok {
		return l.decode(scratch[:0]), nil
	}
	docs, err := f.readDocs(i, scratch)
	if err != nil {
		return docs, err
	}
	f.enc = appendGaps(f.enc[:0], docs)
	if 4*(f.cached+int64(len(f.enc))) <= f.limit {
		if f.cache == nil {
			f.cache = make(map[uint32]docList)
		}
		f.cache[i] = docList{gaps: slices.Clone(f.enc), n: len(docs)}
		f.cached += int64(len(f.enc))
	}
	if cap(f.enc) > scratchLimit {
		f.enc = nil
	}
	return docs, nil
}

// docList is an ascending list of n doc ids as uvarint gaps (the first
// one from 0).
type docList struct {
	gaps []byte
	n    int
}

// appendGaps appends ascending docs to dst as uvarint gaps.
func appendGaps(dst []byte, docs []uint32) []byte {
	var prev uint32
	for _, d := range docs {
		dst = binary.AppendUvarint(dst, uint64(d-prev))
		prev = d
	}
	return dst
}

// probe appends to dst the doc ids of l whose bit is set in bm.
func (l docList) probe(bm []uint64, dst []uint32) []uint32 {
	var d uint32
	b := l.gaps
	for range l.n {
		if c := b[0]; c < 0x80 {
			d += uint32(c)
			b = b[1:]
		} else {
			v, n := binary.Uvarint(b)
			d += uint32(v)
			b = b[n:]
		}
		if bm[d>>6]>>(d&63)&1 != 0 {
			dst = append(dst, d)
		}
	}
	return dst
}

// decode appends the doc ids of l to dst.
func (l docList) decode(dst []uint32) []uint32 {
	at := len(dst)
	dst = slices.Grow(dst, l.n)[:at+l.n]
	out := dst[at:]
	var d uint32
	b := l.gaps
	for k := range out {
		if c := b[0]; c < 0x80 {
			d += uint32(c)
			b = b[1:]
		} else {
			v, n := binary.Uvarint(b)
			d += uint32(v)
			b = b[n:]
		}
		out[k] = d
	}
	return dst
}

// readDocs reads tracked term i's docs into scratch.
func (f *pairFwd) readDocs(i uint32, scratch []uint32) ([]uint32, error) {
	s := newMemSource(f.buf, f.ids[i:i+1])
	if _, _, ok, err := s.NextTerm(); !ok || err != nil {
		return nil, errs.Corruptf("pair counting: tracked term %d not in the term buffer: %v", i, err)
	}
	docs := scratch[:0]
	for {
		d, ok, err := s.d.nextDoc(&s.cr)
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
// position of document doc (its slots) followed by tracked term b (a pair
// that occurs several times in doc gives as many records; groups drops the
// repeats).
func (f *pairFwd) addPairs(doc uint32, slots []uint32, sparse bool, r *pairRecs) error {
	if !sparse {
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
	n := len(slots) / 2
	ids, ps := slots[:n], slots[n:]
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

// each calls fn with every document of the index with at least least
// slots, in doc order; it calls check every 16Ki documents.
func (f *pairFwd) each(least uint32, check func() error, fn func(d uint64, slots []uint32, sparse bool) error) error {
	r := &fwdReader{f: f}
	for d := uint64(0); d < f.docs(); d++ {
		if d&0x3fff == 0x3fff {
			if err := check(); err != nil {
				return err
			}
		}
		if f.starts[d+1]-f.starts[d] < max(least, 1) {
			continue
		}
		slots, sparse, err := r.slots(d)
		if err != nil {
			return err
		}
		if err := fn(d, slots, sparse); err != nil {
			return err
		}
	}
	return nil
}

// fwdBuckets holds the pairs read off a forward index as (b, doc) records
// bucketed by the pair's first term a: bucket a has room for a record per
// token of a and fills in doc order. groups sorts one bucket at a time by b.
// A record is b<<shift | doc, in 4 bytes when b and the doc fit 32 bits
// together, else in 8. Past that, while the doc has at most maxSplitBits
// more, a 4-byte record keeps the doc's low bits: a bucket fills in doc
// order, so its docs' high parts ascend along it, and the bucket keeps where
// each starts (hiStart). When the buckets of all terms pass the memory share,
// the first terms are cut into ranges whose buckets fit it (passes), and
// each range is filled by a pass over the forward index of its own.
type fwdBuckets struct {
	fwd   *pairFwd
	check func() error
	r64   []uint64
	r32   []uint32
	raw   []byte // the mapping behind the records, if any
	shift uint   // bits of the doc in a record
	// hiBits > 0: the bits of the doc past shift; hiStart[a<<hiBits|h] is
	// the room index of bucket a's first record whose doc's high part is at
	// least h (h >= 1), and hiCur[a] the high part of its last record.
	hiBits  uint
	hiStart []uint64
	hiCur   []uint8
	end     []uint64 // end[a]: the end of bucket a's room (the tap's tends)
	next    []uint64 // next[a]: the end of bucket a's records
	// passes[p] is the first term of pass p; the last is the number of terms
	passes []uint32
	filled int    // the pass whose records are in r32/r64 (-1: none)
	base   uint64 // the room of the terms before the filled pass's first
	fills  int    // passes filled
	// bms, by tracked ordinal: the bitmaps of the dense terms (fwdBitmaps)
	// whose bits the next fill sets, reading every document; nil after it
	bms [][]uint64

	// groups' scratch
	cnt, at []uint32 // per b: records in the bucket, then write cursor
	touched []uint32
	docs    []uint32
}

// maxSplitBits is the most bits of a doc a 4-byte bucket record may leave
// to its bucket's high-part starts (hiStart).
const maxSplitBits = 4

// maxPairPasses is the most passes over the forward index a bucketed pair
// counting makes; past that the pairs go through the record sorter.
const maxPairPasses = 8

// splitPasses cuts the terms whose rooms end at ends into ranges of at most
// most records (a term with more makes a range of its own); it returns the
// first term of each range, and the number of terms.
func splitPasses(ends []uint64, most uint64) []uint32 {
	passes := []uint32{0}
	var base uint64
	for a, e := range ends {
		if a > 0 && e-base > most {
			passes = append(passes, uint32(a))
			base = ends[a-1]
		}
	}
	return append(passes, uint32(len(ends)))
}

// newFwdBuckets returns the buckets of the forward index's pairs, with
// their records within budget bytes in at most maxPairPasses passes (nil
// when that takes more passes).
func (pw *pairWriter) newFwdBuckets(budget int64) *fwdBuckets {
	t, f := pw.tap, pw.tap.fwd
	terms := uint64(len(t.tends))
	fb := &fwdBuckets{fwd: f, check: pw.w.ctx.Err, end: t.tends, next: make([]uint64, terms),
		cnt: make([]uint32, terms), at: make([]uint32, terms), shift: 32, filled: -1}
	width := uint64(8)
	tb, db := bits.Len64(max(terms, 1)-1), bits.Len64(max(f.docs(), 1)-1)
	low := min(db, max(32-tb, 0)) // the doc's bits a 4-byte record keeps
	fl := pw.w.opts.faults
	if fl != nil && fl.pairSplit > 0 && low > 1 {
		low -= min(fl.pairSplit, low-1)
	}
	if hi := db - low; (hi == 0 || hi <= maxSplitBits && 8*(terms<<hi) <= uint64(max(budget, 0))/16) && (fl == nil || !fl.pairWide) {
		fb.shift, width = uint(low), 4
		if hi > 0 {
			fb.hiBits, fb.hiStart, fb.hiCur = uint(hi), make([]uint64, terms<<hi), make([]uint8, terms)
			fl.splitUsed()
		}
	}
	fb.passes = splitPasses(t.tends, max(uint64(max(budget, 0))/width, 1))
	if len(fb.passes)-1 > maxPairPasses {
		return nil
	}
	var most uint64 // records of the largest pass
	for p := 0; p+1 < len(fb.passes); p++ {
		most = max(most, fb.room(fb.passes[p+1])-fb.room(fb.passes[p]))
	}
	if lazyMap && most > 0 {
		// Outside the Go heap: no collection cycle for it, and it goes back
		// at once (free).
		if raw, err := mapRaw(int(width * most)); err == nil {
			fb.raw = raw
		}
	}
	switch {
	case width == 4 && fb.raw != nil:
		fb.r32 = unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(fb.raw))), most)
	case width == 4:
		fb.r32 = make([]uint32, most)
	case fb.raw != nil:
		fb.r64 = unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(fb.raw))), most)
	default:
		fb.r64 = make([]uint64, most)
	}
	return fb
}

// room returns the records' room of the terms before a.
func (fb *fwdBuckets) room(a uint32) uint64 {
	if a == 0 {
		return 0
	}
	return fb.end[a-1]
}

// fill reads the pairs of pass p's first terms off the forward index into
// their buckets (one pass over the documents; the writes go to one place
// per tracked term).
func (fb *fwdBuckets) fill(p int) error {
	a0, a1 := fb.passes[p], fb.passes[p+1]
	fb.filled, fb.base, fb.fills = -1, fb.room(a0), fb.fills+1
	for a := a0; a < a1; a++ {
		fb.next[a] = fb.room(a)
		if fb.hiBits > 0 {
			fb.hiCur[a] = 0
		}
	}
	f, span := fb.fwd, a1-a0
	// 4-byte records without high parts: the dense documents' loop writes
	// them itself
	plain, r32, next, end, base, shift := fb.r32 != nil && fb.hiBits == 0, fb.r32, fb.next, fb.end, fb.base, fb.shift
	pairs := func(d uint64, slots []uint32, sparse bool) error {
		if !sparse {
			prev := f.ords[slots[0]]
			for _, v := range slots[1:] {
				o := f.ords[v]
				// prev-1-a0 < span: prev is a term of the pass (prev 0 wraps past it)
				if a := prev - 1; a-a0 < span && o != 0 {
					if i := next[a]; plain && i < end[a] { // add's common case, inline
						r32[i-base] = (o-1)<<shift | uint32(d)
						next[a] = i + 1
					} else if !fb.add(a, o-1, d) {
						return errs.Corruptf("pair counting: term %d has more pairs than tokens", a)
					}
				}
				prev = o
			}
			return nil
		}
		n := len(slots) / 2
		ids, ps := slots[:n], slots[n:]
		for k := 1; k < len(ids); k++ {
			if ps[k] != ps[k-1]+1 {
				continue
			}
			if a, b := f.ords[ids[k-1]], f.ords[ids[k]]; a-1-a0 < span && b != 0 && !fb.add(a-1, b-1, d) {
				return errs.Corruptf("pair counting: term %d has more pairs than tokens", a-1)
			}
		}
		return nil
	}
	var err error
	if bms := fb.bms; bms != nil {
		// Every document with a token (one is enough) sets its terms' bits.
		err = f.each(1, fb.check, func(d uint64, slots []uint32, sparse bool) error {
			ids := slots
			if sparse {
				ids = slots[:len(slots)/2]
			}
			setBits(f.ords, bms, d, ids)
			return pairs(d, slots, sparse)
		})
	} else {
		err = f.each(2, fb.check, pairs)
	}
	if err != nil {
		return err
	}
	fb.bms = nil
	if fb.hiBits > 0 { // the high parts past a bucket's last record start at its end
		for a := a0; a < a1; a++ {
			fb.setHi(a, 1<<fb.hiBits-1, fb.next[a])
			fb.hiCur[a] = 0
		}
	}
	fb.filled = p
	return nil
}

// setHi records that bucket a's records from room index i on have docs of
// high part h (ascending along the bucket).
func (fb *fwdBuckets) setHi(a uint32, h uint8, i uint64) {
	row := fb.hiStart[uint64(a)<<fb.hiBits:]
	for k := fb.hiCur[a] + 1; k <= h; k++ {
		row[k] = i
	}
	fb.hiCur[a] = h
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
		if fb.hiBits > 0 {
			if h := uint8(doc >> fb.shift); h != fb.hiCur[a] {
				fb.setHi(a, h, i)
			}
			doc &= 1<<fb.shift - 1
		}
		fb.r32[i-fb.base] = b<<fb.shift | uint32(doc)
	} else {
		fb.r64[i-fb.base] = uint64(b)<<32 | doc
	}
	fb.next[a] = i + 1
	return true
}

// groups calls fn, in pair order, for each pair (a, b) in at least minDF
// documents, with its documents ascending; with only (pair ids, ascending)
// set, for those pairs only. It fills each pass's buckets in turn (a pass
// without a pair of only is passed by).
func (fb *fwdBuckets) groups(minDF uint64, only []uint64, fn func(id uint64, docs []uint32) error) error {
	k := 0 // only[k:] are the pairs not yet passed
	for p := 0; p+1 < len(fb.passes); p++ {
		a0, a1 := fb.passes[p], fb.passes[p+1]
		if only != nil {
			for k < len(only) && only[k]>>32 < uint64(a0) {
				k++
			}
			if k == len(only) {
				return nil
			}
			if only[k]>>32 >= uint64(a1) {
				continue
			}
		}
		if fb.filled != p {
			if err := fb.fill(p); err != nil {
				return err
			}
		}
		for a := a0; a < a1; a++ {
			lo, hi := fb.room(a), fb.next[a]
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
				if err := fb.check(); err != nil {
					return err
				}
			}
			var err error
			if fb.r32 != nil {
				err = sortBucket(fb, a, lo, fb.r32[lo-fb.base:hi-fb.base], minDF, fn)
			} else {
				err = sortBucket(fb, a, lo, fb.r64[lo-fb.base:hi-fb.base], minDF, fn)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// sortBucket sorts bucket a's records (from room index first) with at
// least minDF of the same b by b (a counting sort; docs stay ascending) and
// passes each such pair on.
func sortBucket[R uint32 | uint64](fb *fwdBuckets, a uint32, first uint64, bucket []R, minDF uint64, fn func(id uint64, docs []uint32) error) error {
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
		if fb.hiBits == 0 {
			for _, x := range bucket {
				if b := uint32(uint64(x) >> shift); uint64(fb.cnt[b]) >= minDF {
					docs[fb.at[b]] = uint32(uint64(x) & mask)
					fb.at[b]++
				}
			}
		} else {
			row := fb.hiStart[uint64(a)<<fb.hiBits : uint64(a+1)<<fb.hiBits]
			var high uint32 // the docs' high part from record k on, until next
			next := row[1] - first
			for k, x := range bucket {
				for uint64(k) >= next {
					high++
					next = math.MaxUint64
					if int(high)+1 < len(row) {
						next = row[high+1] - first
					}
				}
				if b := uint32(uint64(x) >> shift); uint64(fb.cnt[b]) >= minDF {
					docs[fb.at[b]] = high<<shift | uint32(uint64(x)&mask)
					fb.at[b]++
				}
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
