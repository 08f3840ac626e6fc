package prx

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/codec/bitpack"
)

// Cursor reads the documents of one window frame in ascending ordinal order,
// lazily: Seek parses only the unit holding the document (its tf column, and its
// CRC; a ZSTD unit is inflated at its first position read, not before), Pos and
// Next decode only the 128-value blocks the caller walks through.
// A phrase verifier reads a document's term frequency before deciding whether it
// needs any position, and stops at the first match.
//
// A Cursor is reusable (Open resets it) and keeps its own buffers, so several
// cursors (one per term of a query) can be open at once on one Source. It is used
// by one goroutine at a time.
type Cursor struct {
	src     *Source
	frame   []byte
	withCRC bool
	err     error
	ver     Verified // OpenAt: the CRCs checked before (nil: none)
	at      int64    // OpenAt: the frame's offset in its file
	// multi-unit windows: the unit table, walked forward
	multi    bool
	units    int
	hdrPos   int // next unit entry in the header
	unitOff  int // offset of the next unit frame
	nextBase int // first document of the next unit
	docs     int // documents in the window
	// the current unit
	uBase, uDocs int
	tf, offs     []uint32
	br           blockReader
	fp           fpChain
	buf          []byte // inflated ZSTD payload
	zpay         []byte // a ZSTD unit's payload not inflated yet (nil: none)
	zplain       int    // its plain length
	codec        Codec
	// the current document
	doc    int // window ordinal (-1 before the first Seek)
	v, end int // next value index and end of the document's values
	acc    uint64
	inDoc  bool
	st     *Stats // the Source's stats (nil: not counting)
}

// Open makes c read the window frame (CRC form when withCRC, else the inline form)
// through s (its zstd decoder, limits and stats); docs is the document count the
// doc postings give for the window (checked against the frame). Open parses only a
// multi-unit header (and checks its CRC).
func (s *Source) Open(c *Cursor, frame []byte, withCRC bool, docs int) error {
	return s.OpenAt(c, frame, withCRC, docs, nil, 0)
}

// Verified records which checksummed regions of a file have had their CRC32C
// verified, by the offset of their first byte: a reader of a file that cannot
// change under it (mapped, immutable) checks each region once. Two regions
// never start at the same offset. It must be safe for concurrent use.
type Verified interface {
	// Verified reports whether the region at off was verified.
	Verified(off int64) bool
	// MarkVerified records that the region at off was.
	MarkVerified(off int64)
}

// OpenAt is Open for a frame lying at offset at of a file whose verified
// regions v records (nil: none): the CRC of a multi-unit header or a unit
// that v holds verified is not computed again, and one computed and found
// right is recorded in v (a multi-unit header once all its checks passed: a
// recorded one is read again only for its document total and its end). The
// frame must be the same bytes as when v recorded it (the file must not
// change).
func (s *Source) OpenAt(c *Cursor, frame []byte, withCRC bool, docs int, v Verified, at int64) error {
	c.src, c.frame, c.withCRC, c.err = s, frame, withCRC, nil
	c.ver, c.at = v, at
	c.doc, c.inDoc, c.uDocs, c.uBase = -1, false, 0, 0
	c.docs, c.st = docs, s.stats
	c.multi, c.zpay = false, nil
	if s.closed {
		return c.fail(fmt.Errorf("prx: decode after Close: %w", snii.ErrClosed))
	}
	if len(frame) == 0 {
		return c.fail(corruptf(CodecRaw, "empty frame"))
	}
	if s.stats != nil {
		s.stats.Windows++
	}
	if frame[0] != codecMulti {
		return nil
	}
	if !withCRC {
		return c.fail(corruptf(CodecRaw, "a window of several units has no inline form"))
	}
	nu, p, ok := bitpack.ReadUvarint32(frame, 1)
	if !ok || nu < 2 || int64(nu) > int64(s.limits.MaxDocs) || int64(nu)*2 > int64(len(frame)-p) {
		return c.fail(corruptf(CodecRaw, "multi-unit header: bad unit count"))
	}
	start := p
	if v != nil && v.Verified(at) {
		// Checked whole before (below: a header is marked verified only once
		// every check passed), on the same bytes: only its document total
		// (against docs) and its end are needed.
		total, end := headerDocs(frame, p, int(nu))
		if end+CRCSize > len(frame) || total != docs {
			return c.fail(corruptf(CodecRaw, "multi-unit header: %d docs, the doc window has %d", total, docs))
		}
		if s.stats != nil {
			s.stats.FrameBytes += int64(end + CRCSize)
		}
		c.multi, c.units, c.hdrPos, c.unitOff, c.nextBase = true, int(nu), start, end+CRCSize, 0
		return nil
	}
	total := 0
	for u := 0; u < int(nu); u++ {
		d, q, ok1 := bitpack.ReadUvarint32(frame, p)
		l, q2, ok2 := bitpack.ReadUvarint32(frame, q)
		if !ok1 || !ok2 || d == 0 || l == 0 {
			return c.fail(corruptf(CodecRaw, "multi-unit header: unit %d: bad entry", u))
		}
		total += int(d)
		if total > s.limits.MaxDocs {
			return c.fail(corruptf(CodecRaw, "multi-unit header: %d docs over the limit", total))
		}
		p = q2
	}
	if p+CRCSize > len(frame) {
		return c.fail(corruptf(CodecRaw, "multi-unit header truncated"))
	}
	if got, want := crc32c(frame[:p]), binary.LittleEndian.Uint32(frame[p:]); got != want {
		return c.fail(corruptf(CodecRaw, "multi-unit header crc32c %#08x, stored %#08x", got, want))
	}
	if s.stats != nil {
		s.stats.CheckedBytes += int64(p)
	}
	if total != docs {
		return c.fail(corruptf(CodecRaw, "%d docs, the doc window has %d", total, docs))
	}
	if v != nil {
		v.MarkVerified(at)
	}
	if s.stats != nil {
		s.stats.FrameBytes += int64(p + CRCSize)
	}
	c.multi, c.units, c.hdrPos, c.unitOff, c.nextBase = true, int(nu), start, p+CRCSize, 0
	return nil
}

// headerDocs returns the sum of the docs of the n entries of a multi-unit
// header that start at b[p], and the offset just past them. The header was
// checked before (OpenAt): its uvarints are well formed. An entry's docs is
// most often one byte; its frame length is passed over by its last byte
// (high bit clear).
func headerDocs(b []byte, p, n int) (total, end int) {
	for ; n > 0 && p < len(b); n-- {
		d, q, ok := bitpack.ReadUvarint32Byte(b, p)
		if !ok {
			d, q, _ = bitpack.ReadUvarint32Slow(b, p)
		}
		total += int(d)
		for p = q; p < len(b) && b[p] >= 0x80; p++ {
		}
		p++
	}
	return total, p
}

func (c *Cursor) fail(err error) error {
	c.err, c.uDocs = err, 0
	return err
}

// Err returns the first error the cursor met (Next and Pos report failure as
// false and keep the error here).
func (c *Cursor) Err() error { return c.err }

// Pending reports whether the current unit is a ZSTD unit not inflated yet: the
// next position read inflates it (a term frequency does not).
func (c *Cursor) Pending() bool { return c.zpay != nil }

// Seek moves to the document of window ordinal ord (ascending: at or after the
// current one) and returns its term frequency. Only the unit holding it is parsed.
func (c *Cursor) Seek(ord int) (int, error) {
	if tf := c.TF(ord); tf > 0 {
		return tf, nil
	}
	return c.seek(ord)
}

// TF is Seek's common case, small enough to inline in a caller's loop: when
// ordinal ord (at or after the current document) is in the unit already
// parsed, it moves there and returns its term frequency (>= 1); otherwise it
// returns 0 and does nothing (call Seek). A failed cursor always returns 0.
func (c *Cursor) TF(ord int) int {
	if j := ord - c.uBase; uint(j) < uint(c.uDocs) && ord >= c.doc {
		c.doc, c.inDoc = ord, false
		return int(c.tf[j]) + 1
	}
	return 0
}

func (c *Cursor) seek(ord int) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if ord < c.doc || ord >= c.docs {
		return 0, c.fail(corruptf(c.codec, "doc ordinal %d (after %d) in a window of %d docs", ord, c.doc, c.docs))
	}
	if ord >= c.uBase+c.uDocs {
		if c.multi {
			// Skip the units before the one holding ord without reading them.
			for c.units > 1 {
				d, q, _ := bitpack.ReadUvarint32(c.frame, c.hdrPos)
				if ord < c.nextBase+int(d) {
					break
				}
				l, q2, _ := bitpack.ReadUvarint32(c.frame, q)
				c.nextBase += int(d)
				c.unitOff += int(l)
				c.hdrPos = q2
				c.units--
			}
		}
		if err := c.timedNextUnit(); err != nil {
			return 0, err
		}
		if ord >= c.uBase+c.uDocs {
			return 0, c.fail(corruptf(c.codec, "doc ordinal %d past the window's units", ord))
		}
	}
	c.doc, c.inDoc = ord, false
	j := ord - c.uBase
	return int(c.tf[j]) + 1, nil
}

// timedNextUnit is nextUnit, its time added to Stats.DecodeNanos when the
// Source counts.
func (c *Cursor) timedNextUnit() error {
	st := c.st
	if st == nil {
		return c.nextUnit()
	}
	t0 := time.Now()
	err := c.nextUnit()
	st.DecodeNanos += int64(time.Since(t0))
	return err
}

// nextUnit parses the next unit of the window.
func (c *Cursor) nextUnit() error {
	s := c.src
	var b []byte
	want := -1
	at := c.at // the unit's offset in the file (OpenAt)
	if !c.multi {
		if c.uDocs > 0 {
			return c.fail(corruptf(c.codec, "doc ordinal past the window's %d docs", c.uDocs))
		}
		b = c.frame
	} else {
		if c.hdrPos < 0 {
			return c.fail(corruptf(c.codec, "doc ordinal past the window's units"))
		}
		d, q, _ := bitpack.ReadUvarint32(c.frame, c.hdrPos)
		l, q2, _ := bitpack.ReadUvarint32(c.frame, q)
		if int(l) > len(c.frame)-c.unitOff {
			return c.fail(corruptf(CodecRaw, "unit truncated: %d bytes, %d left", l, len(c.frame)-c.unitOff))
		}
		b = c.frame[c.unitOff : c.unitOff+int(l)]
		at += int64(c.unitOff)
		want = int(d)
		c.uBase = c.nextBase
		c.nextBase += int(d)
		c.unitOff += int(l)
		c.hdrPos = q2
		if c.units--; c.units == 0 {
			c.hdrPos = -1
		}
	}
	// parseUnit fills the Source's tf/offs scratch: swap the cursor's in.
	s.tf, c.tf = c.tf, s.tf
	s.offs, c.offs = c.offs, s.offs
	trusted := c.withCRC && c.ver != nil && c.ver.Verified(at)
	h, err := s.parseUnit(b, c.withCRC, trusted, want)
	s.tf, c.tf = c.tf, s.tf
	s.offs, c.offs = c.offs, s.offs
	if err != nil {
		return c.fail(err)
	}
	if c.withCRC && !trusted {
		if c.ver != nil {
			c.ver.MarkVerified(at)
		}
		if st := s.stats; st != nil {
			st.CheckedBytes += int64(h.frameLen - CRCSize)
		}
	}
	if c.multi && h.frameLen != len(b) {
		return c.fail(corruptf(h.codec, "unit of %d bytes, the header says %d", h.frameLen, len(b)))
	}
	if !c.multi && h.docs != c.docs {
		return c.fail(corruptf(h.codec, "%d docs, the doc window has %d", h.docs, c.docs))
	}
	c.codec, c.uDocs = h.codec, h.docs
	c.br.reset(h.payload, h.codec == CodecPFOR, int(c.offs[h.docs]))
	c.fp = fpChain{doc: -1, block: -1}
	c.zpay = nil
	if st := s.stats; st != nil {
		st.Frames[h.codec]++
		st.FrameBytes += int64(h.frameLen)
		st.TotalDocs += int64(h.docs)
		st.TotalPositions += int64(c.offs[h.docs])
		if h.codec == CodecRaw {
			st.PlainBytes += int64(len(h.payload))
		}
	}
	if h.codec == CodecZstd {
		// Inflated at the first position read: a verifier that needs only
		// the tf column (a chain of pairs) never pays for it.
		c.br.src, c.zpay, c.zplain = nil, h.payload, h.plainLen
		return nil
	}
	if !c.br.packed {
		if err := c.br.initRaw(); err != nil {
			return c.fail(corruptf(h.codec, "%v", err))
		}
	}
	return nil
}

// inflateUnit inflates the current ZSTD unit into the cursor's own buffer
// (the Source's is shared) and reads its block directory.
func (c *Cursor) inflateUnit() error {
	s := c.src
	s.buf, c.buf = c.buf, s.buf
	src, err := s.inflate(c.zpay, c.zplain)
	s.buf, c.buf = c.buf, s.buf
	c.zpay = nil
	if err != nil {
		return c.fail(err)
	}
	c.br.src = src
	if err := c.br.initRaw(); err != nil {
		return c.fail(corruptf(CodecZstd, "%v", err))
	}
	if st := s.stats; st != nil {
		st.PlainBytes += int64(len(src))
		st.Inflated++
	}
	return nil
}

// Pos starts reading the positions of the current document and returns the first.
func (c *Cursor) Pos() (uint32, bool) {
	// (fail empties the unit, and Open sets doc to -1 before any unit: both
	// fail this one test.)
	j := c.doc - c.uBase
	if uint(j) >= uint(c.uDocs) {
		return 0, false
	}
	offs := c.offs[j : j+2]
	o := int(offs[0])
	b := o >> bitpack.BlockShift
	// The first position: the block's base (the absolute first value of the
	// first document starting in block b, cached per block) plus this
	// document's zigzag delta to it.
	fp := &c.fp
	if fp.block != b {
		i0 := blockFirstDoc(c.offs, j, b)
		v, ok := c.value(int(c.offs[i0]))
		if !ok {
			return 0, false
		}
		fp.doc, fp.block, fp.first = i0, b, v
	}
	first := int64(fp.first)
	if j != fp.doc {
		v, ok := c.loaded(o)
		if !ok {
			if v, ok = c.value(o); !ok {
				return 0, false
			}
		}
		if first += unzigzag(v); uint64(first) > maxUint32 {
			c.fail(corruptf(c.codec, "doc %d: first position out of range", c.doc))
			return 0, false
		}
	}
	c.acc = uint64(first)
	c.v, c.end = o+1, int(offs[1])
	c.inDoc = true
	if c.st != nil {
		c.st.SelectedDocs++
		c.st.SelectedPositions++
	}
	return uint32(first), true
}

// Next returns the next position of the current document (after Pos), or false
// at its end or on an error (see Err).
func (c *Cursor) Next() (uint32, bool) {
	if c.v >= c.end || !c.inDoc {
		return 0, false
	}
	d, ok := c.loaded(c.v)
	if !ok {
		if d, ok = c.value(c.v); !ok {
			return 0, false
		}
	}
	c.v++
	c.acc += uint64(d)
	if c.acc > maxUint32 {
		c.fail(corruptf(c.codec, "doc %d: positions overflow uint32", c.doc))
		return 0, false
	}
	if c.st != nil {
		c.st.SelectedPositions++
	}
	return uint32(c.acc), true
}

// NextAtLeast passes the current document's next positions (after Pos) that
// are below want and returns the first that is not, or false when none is
// left or on an error (see Err): Next in a loop, with the walk's state in
// registers. The positions passed count as read (Stats.SelectedPositions).
func (c *Cursor) NextAtLeast(want uint32) (uint32, bool) {
	if !c.inDoc {
		return 0, false
	}
	v, end, acc := c.v, c.end, c.acc
	n := 0 // positions read
	found := false
	r := &c.br
	for v < end {
		if v>>bitpack.BlockShift == r.cur {
			// The block is decoded: walk it in a tight loop (loaded's case).
			i0 := v & (bitpack.BlockLen - 1)
			stop := min(end-(v-i0), bitpack.BlockLen)
			i := i0
			for i < stop {
				acc += uint64(r.vals[i])
				i++
				if acc >= uint64(want) {
					found = true
					break
				}
			}
			n += i - i0
			v += i - i0
			if r.packed && c.st != nil {
				c.st.DecodedPositions += int64(i - i0)
			}
			if found {
				break
			}
			continue
		}
		d, ok := c.value(v)
		if !ok {
			return 0, false
		}
		v++
		n++
		if acc += uint64(d); acc >= uint64(want) {
			found = true
			break
		}
	}
	c.v, c.acc = v, acc
	if c.st != nil {
		c.st.SelectedPositions += int64(n)
	}
	if acc > maxUint32 {
		c.fail(corruptf(c.codec, "doc %d: positions overflow uint32", c.doc))
		return 0, false
	}
	return uint32(acc), found
}

// AppendPositions appends all positions of the current document to dst.
func (c *Cursor) AppendPositions(dst []uint32) ([]uint32, error) {
	p, ok := c.Pos()
	if !ok {
		return dst, c.errOr()
	}
	dst = append(dst, p)
	for {
		p, ok := c.Next()
		if !ok {
			break
		}
		dst = append(dst, p)
	}
	return dst, c.err
}

func (c *Cursor) errOr() error {
	if c.err != nil {
		return c.err
	}
	return c.fail(corruptf(c.codec, "no current document"))
}

// value returns value v of the current unit's stream: a PFOR unit reads it
// straight from its packed block until the block has been read unpackAfter
// times, then from the block unpacked whole; a RAW or inflated ZSTD unit from
// its decoded block. The common case, a value of the block already located or
// decoded, takes no call: this is the verifier's innermost step.
func (c *Cursor) value(v int) (uint32, bool) {
	if x, ok := c.loaded(v); ok { // RAW, ZSTD, or a PFOR block read often (below)
		return x, true
	}
	r := &c.br
	b := v >> bitpack.BlockShift
	if r.packed && b == r.pb {
		if r.preads++; r.preads == unpackAfter {
			r.unpackLocated()
			return c.value(v)
		}
		i := v & (bitpack.BlockLen - 1)
		bit := uint(i) * r.pw
		at := r.pdata + int(bit>>3)
		var x uint32
		if at+8 <= len(r.src) {
			x = uint32(binary.LittleEndian.Uint64(r.src[at:]) >> (bit & 7) & r.pmask)
		} else {
			x = r.packedTail(at, bit)
		}
		if r.pexm[(i>>6)&1]>>(i&63)&1 != 0 { // an exception: add its high bits
			x |= r.excHigh(i)
		}
		if c.st != nil {
			c.st.DecodedPositions++
		}
		return x, true
	}
	return c.valueSlow(v)
}

// loaded is value's first case, small enough to inline in Pos and Next: value
// v when its block is the one decoded (RAW, ZSTD, or a PFOR block unpacked).
func (c *Cursor) loaded(v int) (uint32, bool) {
	r := &c.br
	if v>>bitpack.BlockShift != r.cur {
		return 0, false
	}
	if r.packed && c.st != nil {
		c.st.DecodedPositions++
	}
	return r.vals[v&(bitpack.BlockLen-1)], true
}

// unpackAfter is the number of values a cursor reads from one located PFOR
// block before it unpacks the whole block: extracting a value from the packed
// bits costs several times a load from an unpacked block. The generated
// unpacker costs about as much as a handful of extractions (8); the vector
// one about one, so with it a block is unpacked at its first read (counted in
// executed instructions on the phrase sets; docs/BENCHMARKS-HISTORY.md). Fixed at
// start.
var unpackAfter = unpackAfterFor(haveAVX2)

func unpackAfterFor(vector bool) int {
	if vector {
		return 1
	}
	return 8
}

// valueSlow is blockValue, its time added to Stats.DecodeNanos when the
// Source counts.
func (c *Cursor) valueSlow(v int) (uint32, bool) {
	st := c.st
	if st == nil {
		return c.blockValue(v)
	}
	t0 := time.Now()
	x, ok := c.blockValue(v)
	st.DecodeNanos += int64(time.Since(t0))
	return x, ok
}

// blockValue decodes (RAW, ZSTD; PFOR when unpackAfter is 1) or locates
// (PFOR) the block of value v, then reads it.
func (c *Cursor) blockValue(v int) (uint32, bool) {
	b := v >> bitpack.BlockShift
	if !c.br.packed {
		if c.zpay != nil {
			if err := c.inflateUnit(); err != nil {
				return 0, false
			}
		}
		vals, err := c.block(b)
		if err != nil {
			return 0, false
		}
		return vals[v&(bitpack.BlockLen-1)], true
	}
	var err error
	if unpackAfter == 1 {
		// Unpacked at the first read: one pass over the block's fields and
		// exceptions, none of locate's bookkeeping for single reads.
		_, err = c.br.block(b)
	} else {
		err = c.br.locate(b)
	}
	if err != nil {
		c.fail(corruptf(c.codec, "doc %d: %v", c.doc, err))
		return 0, false
	}
	if c.st != nil {
		c.st.Blocks++
	}
	return c.value(v)
}

// block decodes block b of the current unit, counting it.
func (c *Cursor) block(b int) ([]uint32, error) {
	n := c.br.decoded
	vals, err := c.br.block(b)
	if err != nil {
		return nil, c.fail(corruptf(c.codec, "doc %d: %v", c.doc, err))
	}
	if st := c.src.stats; st != nil && c.br.decoded != n {
		st.Blocks++
		st.DecodedPositions += int64(len(vals))
	}
	return vals, nil
}

// IsMulti reports whether frame is a window of several units (which has no
// inline form).
func IsMulti(frame []byte) bool { return len(frame) > 0 && frame[0] == codecMulti }
