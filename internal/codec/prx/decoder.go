package prx

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/codec/zstdopt"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/limits"
)

// Source decodes window frames. It owns one zstd decoder (concurrency 1, created at
// the first ZSTD unit) and grow-only buffers that are reused, never cleared, so
// decoding allocates nothing in steady state. A Source is used by one goroutine at a
// time; take one per query per segment from a SourcePool and return it when done.
type Source struct {
	limits limits.Limits
	dec    *zstd.Decoder
	buf    []byte   // zstd output
	zbuf   []byte   // a shared-table frame rewritten for the decoder (zstdopt.Unshare)
	tf     []uint32 // tf-1 of the current unit's documents
	offs   []uint32 // cumulative position counts of the current unit (len docs+1)
	blk    []uint32 // the values of one decoded block
	stats  *Stats
	mem    Memory // called before each ZSTD unit is inflated (nil: none)
	pool   *SourcePool
	docs   int // document count of the window last decoded successfully
	closed bool
	// the unit being decoded
	unitCodec Codec
	unitDocs  int
	units     []Unit // the units read by the last successful decode
}

// Units returns the units read by the last successful Decode or DecodeSelected (all
// units for Decode): their codec, documents, positions, plain length (the RAW
// positions payload length, stored by RAW and ZSTD units; 0 for a PFOR unit, which
// does not store it) and stored frame length (without CRC in the inline form). The
// other fields are zero. The slice is valid until the next decode.
func (s *Source) Units() []Unit { return s.units }

// NewSource returns a Source that rejects frames over limits. Zero fields are the
// defaults; a field that is negative or above its default is replaced by the default
// (limits are never raised; use Limits.Validate to reject such values).
func NewSource(limits limits.Limits) *Source {
	return &Source{limits: clampedLimits(limits), blk: make([]uint32, bitpack.BlockLen)}
}

// Limits returns the limits the Source applies.
func (s *Source) Limits() limits.Limits { return s.limits }

// WindowDocs returns the document count of the window of the last successful Decode
// or DecodeSelected (0 after a failure), so that a reader can check it against the
// doc-postings window after a selective decode, whose dst holds only the selected docs.
func (s *Source) WindowDocs() int { return s.docs }

// SetStats makes the Source add what it decodes to st; nil disables statistics
// (and every clock read).
func (s *Source) SetStats(st *Stats) { s.stats = st }

// Decode decodes the whole window frame at the start of frame (CRC form when
// withCRC, else the inline form) into dst, reusing dst's capacity, and returns the
// frame's length. Bytes after the frame are ignored. Every header is checked against
// the limits before anything is allocated and every CRC before its bytes are
// decoded. Errors wrap snii.ErrCorrupt (naming the codec and, where it applies, the
// document ordinal) or snii.ErrClosed; on error dst is reset to no documents and the
// stats are unchanged.
func (s *Source) Decode(frame []byte, withCRC bool, dst *Window) (n int, err error) {
	return s.run(frame, withCRC, nil, true, dst)
}

// DecodeSelected decodes only the documents of the frame whose ordinals (positions in
// the window, strictly ascending) are listed: dst receives their positions in CSR form
// (len(ordinals)+1 offsets). Only the units holding a selected document are read (and
// their CRCs checked), and in them only the 128-value blocks holding the selected
// documents' positions are decoded; a ZSTD unit is inflated whole. Ordinals out of
// order or repeated are an snii.ErrInvalidArgument error; an ordinal at or above the
// window's document count is snii.ErrCorrupt (the doc postings and the frame disagree).
// Otherwise as Decode.
func (s *Source) DecodeSelected(frame []byte, withCRC bool, ordinals []uint32, dst *Window) (n int, err error) {
	for i := 1; i < len(ordinals); i++ {
		if ordinals[i] <= ordinals[i-1] {
			dst.Reset()
			s.docs = 0
			return 0, errs.Invalidf("prx: selected ordinals not strictly ascending at index %d (%d after %d)", i, ordinals[i], ordinals[i-1])
		}
	}
	return s.run(frame, withCRC, ordinals, false, dst)
}

// run decodes the frame (all documents, or the selected ordinals) and keeps the
// stats: nothing is recorded for a failed decode, and the clock is read only when
// stats are on.
func (s *Source) run(frame []byte, withCRC bool, ordinals []uint32, full bool, dst *Window) (int, error) {
	var t0 time.Time
	if s.stats != nil {
		t0 = time.Now()
	}
	var info decodeInfo
	if err := s.decode(frame, withCRC, ordinals, full, dst, &info); err != nil {
		dst.Reset()
		s.docs = 0
		return 0, err
	}
	s.docs = info.docs
	if s.stats != nil {
		s.stats.record(&info, int64(time.Since(t0)))
	}
	return info.frameLen, nil
}

func (s *Source) decode(frame []byte, withCRC bool, ords []uint32, full bool, dst *Window, info *decodeInfo) error {
	if s.closed {
		return fmt.Errorf("prx: decode after Close: %w", errs.Closed)
	}
	if len(frame) == 0 {
		return corruptf(CodecRaw, "empty frame")
	}
	dst.Offsets = append(dst.Offsets[:0], 0)
	dst.Positions = dst.Positions[:0]
	s.units = s.units[:0]
	if frame[0] != codecMulti {
		n, err := s.decodeUnit(frame, withCRC, 0, ords, full, dst, info, -1)
		if err != nil {
			return err
		}
		info.docs, info.frameLen = s.unitDocs, n
		if !full && len(ords) > 0 && int(ords[len(ords)-1]) >= s.unitDocs {
			return corruptf(s.unitCodec, "selected doc ordinal %d but the window has %d docs", ords[len(ords)-1], s.unitDocs)
		}
		return nil
	}
	if !withCRC {
		return corruptf(CodecRaw, "a window of several units has no inline form")
	}
	// Multi-unit header: unit count, (docs, frame length) per unit, CRC.
	nu, p, ok := bitpack.ReadUvarint32(frame, 1)
	if !ok || nu < 2 || int64(nu) > int64(s.limits.MaxDocs) || int64(nu)*2 > int64(len(frame)-p) {
		return corruptf(CodecRaw, "multi-unit header: bad unit count")
	}
	hdrStart := p
	total, body := 0, 0
	for u := 0; u < int(nu); u++ {
		d, q, ok1 := bitpack.ReadUvarint32(frame, p)
		l, q2, ok2 := bitpack.ReadUvarint32(frame, q)
		if !ok1 || !ok2 || d == 0 || l == 0 {
			return corruptf(CodecRaw, "multi-unit header: unit %d: bad entry", u)
		}
		total += int(d)
		body += int(l)
		if total > s.limits.MaxDocs || body > len(frame) {
			return corruptf(CodecRaw, "multi-unit header: unit %d: %d docs, %d bytes over the limits or the frame", u, total, body)
		}
		p = q2
	}
	if p+CRCSize > len(frame) {
		return corruptf(CodecRaw, "multi-unit header truncated")
	}
	if got, want := crc32c(frame[:p]), binary.LittleEndian.Uint32(frame[p:]); got != want {
		return corruptf(CodecRaw, "multi-unit header crc32c %#08x, stored %#08x", got, want)
	}
	p += CRCSize
	if body > len(frame)-p {
		return corruptf(CodecRaw, "truncated: %d bytes of units, %d left", body, len(frame)-p)
	}
	info.docs, info.frameLen = total, p+body
	info.read += p
	if !full && len(ords) > 0 && int(ords[len(ords)-1]) >= total {
		return corruptf(CodecRaw, "selected doc ordinal %d but the window has %d docs", ords[len(ords)-1], total)
	}
	// Walk the units again, decoding those that hold a selected document.
	q := hdrStart
	base, off, k := 0, p, 0
	for u := 0; u < int(nu); u++ {
		// The header was checked above; its bytes are read again here, so a
		// mapped file rewritten in between must not send a slice out of range.
		d, q1, ok1 := bitpack.ReadUvarint32(frame, q)
		l, q2, ok2 := bitpack.ReadUvarint32(frame, q1)
		if !ok1 || !ok2 || int64(l) > int64(len(frame)-off) {
			return corruptf(CodecRaw, "unit %d: the multi-unit header changed while it was read", u)
		}
		q = q2
		e := k
		if !full {
			for e < len(ords) && int(ords[e]) < base+int(d) {
				e++
			}
		}
		if full || e > k {
			n, err := s.decodeUnit(frame[off:off+int(l)], true, base, ords[k:e], full, dst, info, int(d))
			if err != nil {
				return fmt.Errorf("unit %d: %w", u, err)
			}
			if n != int(l) {
				return corruptf(s.unitCodec, "unit %d: %d bytes, the header says %d", u, n, l)
			}
		}
		k = e
		base += int(d)
		off += int(l)
	}
	return nil
}

// unitHead is the parsed head of a unit frame.
type unitHead struct {
	codec    Codec
	docs     int
	payload  []byte // stored payload (RAW, PFOR, or the zstd frame)
	plainLen int    // RAW and ZSTD: the RAW payload length; PFOR: the payload length
	frameLen int
}

// parseUnit parses the head of the unit frame at the start of b (and its tf column
// into s.tf and s.offs), checks its CRC when withCRC (unless trusted: the caller
// knows it verified, Source.OpenAt), and returns it. wantDocs >= 0 is the
// document count the multi-unit header gives.
func (s *Source) parseUnit(b []byte, withCRC, trusted bool, wantDocs int) (unitHead, error) {
	var h unitHead
	if len(b) == 0 {
		return h, corruptf(CodecRaw, "empty unit frame")
	}
	h.codec = Codec(b[0])
	if h.codec >= NumCodecs {
		return h, corruptf(h.codec, "unknown codec %d", b[0])
	}
	c := h.codec
	k, p, ok := bitpack.ReadUvarint32(b, 1)
	if !ok || k == 0 || int64(k) > int64(s.limits.MaxDocs) {
		return h, corruptf(c, "doc count: bad uvarint, 0 or over the limit %d", s.limits.MaxDocs)
	}
	if wantDocs >= 0 && int(k) != wantDocs {
		return h, corruptf(c, "%d docs, the window header says %d", k, wantDocs)
	}
	h.docs = int(k)
	// Every tf block holds at most bitpack.BlockLen values per byte.
	if int64(k) > int64(len(b)-p)*bitpack.BlockLen {
		return h, corruptf(c, "%d docs but only %d bytes left", k, len(b)-p)
	}
	s.tf = growU32(s.tf, h.docs)
	if c == CodecRaw {
		for i := range s.tf {
			v, q, ok := bitpack.ReadUvarint32(b, p)
			if !ok {
				return h, corruptf(c, "doc %d: tf: bad uvarint", i)
			}
			s.tf[i], p = v, q
		}
	} else {
		for i := 0; i < h.docs; i += bitpack.BlockLen {
			q, ok := bitpack.Unpack(b, p, s.tf[i:min(i+bitpack.BlockLen, h.docs)])
			if !ok {
				return h, corruptf(c, "tf block %d: malformed", i/bitpack.BlockLen)
			}
			p = q
		}
	}
	s.offs = growU32(s.offs, h.docs+1)
	s.offs[0] = 0
	// The prefix sums first, the limit after (t cannot wrap: at most MaxDocs
	// values below 2^32 each); past the limit, the first document over it is
	// named.
	t := bitpack.RunningSums(s.offs[1:len(s.tf)+1], s.tf, 0)
	if t > uint64(s.limits.MaxPositions) {
		t = 0
		for i, v := range s.tf {
			if t += uint64(v) + 1; t > uint64(s.limits.MaxPositions) {
				return h, corruptf(c, "doc %d: %d positions, over the limit %d", i, t, s.limits.MaxPositions)
			}
		}
	}
	l, p, ok := bitpack.ReadUvarint32(b, p)
	if !ok || int64(l) > int64(s.limits.MaxBytes) {
		return h, corruptf(c, "length: bad uvarint or over the limit %d", s.limits.MaxBytes)
	}
	h.plainLen = int(l)
	pl := int(l)
	if c == CodecZstd {
		var cl uint32
		if cl, p, ok = bitpack.ReadUvarint32(b, p); !ok {
			return h, corruptf(c, "compressed length: bad uvarint")
		}
		pl = int(cl)
	}
	if pl > len(b)-p {
		return h, corruptf(c, "truncated: payload of %d bytes, %d left", pl, len(b)-p)
	}
	h.payload = b[p : p+pl]
	h.frameLen = p + pl
	if withCRC {
		if h.frameLen+CRCSize > len(b) {
			return h, corruptf(c, "truncated: no room for the crc")
		}
		if !trusted {
			if got, want := crc32c(b[:h.frameLen]), binary.LittleEndian.Uint32(b[h.frameLen:]); got != want {
				return h, corruptf(c, "crc32c %#08x, stored %#08x", got, want)
			}
		}
		h.frameLen += CRCSize
	}
	// A RAW payload of n values in nb blocks holds nb-1 directory entries of two
	// bytes (a full block takes 128..640 bytes) and n uvarints of one to five bytes:
	// its length is within [n + 2(nb-1), 5n + 2(nb-1)]. Checked before a ZSTD unit
	// allocates its declared length.
	if n := int64(s.offs[h.docs]); c != CodecPFOR {
		dir := 2 * ((n+bitpack.BlockLen-1)/bitpack.BlockLen - 1)
		if u := int64(h.plainLen); u < n+dir || u > 5*n+dir {
			return h, corruptf(c, "%d positions in a payload of %d bytes", n, h.plainLen)
		}
	}
	return h, nil
}

// decodeUnit decodes the unit frame at the start of b: all its documents (full), or
// those whose window ordinals (base + unit ordinal) are listed, appended to dst. It
// returns the unit frame's length.
func (s *Source) decodeUnit(b []byte, withCRC bool, base int, ords []uint32, full bool, dst *Window, info *decodeInfo, wantDocs int) (int, error) {
	h, err := s.parseUnit(b, withCRC, false, wantDocs)
	if err != nil {
		return 0, err
	}
	s.unitCodec, s.unitDocs = h.codec, h.docs
	c := h.codec
	un := Unit{Codec: c, Lo: base, Hi: base + h.docs, Positions: int(s.offs[h.docs]), Len: h.frameLen}
	if c != CodecPFOR {
		un.PlainLen = h.plainLen // a PFOR unit does not record its RAW length
	}
	s.units = append(s.units, un)
	info.units[c]++
	info.read += h.frameLen
	info.positions += int(s.offs[h.docs])
	if info.positions > s.limits.MaxPositions { // the units read, together
		return 0, corruptf(c, "%d positions in the window, over the limit %d", info.positions, s.limits.MaxPositions)
	}
	src := h.payload
	if c == CodecZstd {
		if src, err = s.inflate(h.payload, h.plainLen); err != nil {
			return 0, err
		}
	}
	if c != CodecPFOR {
		info.plain += len(src)
	}
	br := blockReader{src: src, packed: c == CodecPFOR, total: int(s.offs[h.docs]), cur: -1, pb: -1}
	if !br.packed {
		if err := br.initRaw(); err != nil {
			return 0, corruptf(c, "%v", err)
		}
	}
	n := h.docs
	if !full {
		n = len(ords)
	}
	fp := fpChain{doc: -1, block: -1}
	for k := 0; k < n; k++ {
		j := k
		if !full {
			j = int(ords[k]) - base
			if j >= h.docs {
				return 0, corruptf(c, "selected doc ordinal %d but the unit holds %d docs from %d", ords[k], h.docs, base)
			}
		}
		if err := s.appendDoc(&br, &fp, j, dst); err != nil {
			return 0, corruptf(c, "doc %d: %v", base+j, err)
		}
		info.selDocs++
		info.selPositions += int(s.offs[j+1] - s.offs[j])
	}
	if full {
		if err := br.checkEnd(); err != nil {
			return 0, corruptf(c, "%v", err)
		}
	}
	info.blocks += br.decoded
	info.decoded += br.values
	return h.frameLen, nil
}

// fpChain caches the base of the block last read: its first document starting
// in it and that document's (absolute) first position.
type fpChain struct {
	doc   int    // the block's first document (-1: none)
	block int    // the block (-1: none)
	first uint32 // that document's first position
}

// blockFirstDoc returns the first document (of 0..j, offs ascending) whose
// values start in block b; document j starts in b.
func blockFirstDoc(offs []uint32, j, b int) int {
	lo, hi := 0, j
	start := uint32(b * bitpack.BlockLen)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if offs[m] >= start {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// appendDoc appends the positions of unit document j to dst.
func (s *Source) appendDoc(br *blockReader, fp *fpChain, j int, dst *Window) error {
	o := int(s.offs[j])
	b := o / bitpack.BlockLen
	vals, err := br.block(b)
	if err != nil {
		return err
	}
	// The first position: the block's base (the first value of its first
	// document, cached per block) plus this document's zigzag delta to it.
	if fp.block != b { // (block -1: none cached)
		i0 := blockFirstDoc(s.offs, j, b)
		fp.doc, fp.block, fp.first = i0, b, vals[int(s.offs[i0])-b*bitpack.BlockLen]
	}
	first := int64(fp.first)
	if j != fp.doc {
		first += unzigzag(vals[o-b*bitpack.BlockLen])
		if first < 0 || first > maxUint32 {
			return fmt.Errorf("first position out of range")
		}
	}
	acc := uint64(first)
	dst.Positions = append(dst.Positions, uint32(acc))
	end := int(s.offs[j+1])
	for v := o + 1; v < end; {
		bb := v / bitpack.BlockLen
		if vals, err = br.block(bb); err != nil {
			return err
		}
		hi := min(end, (bb+1)*bitpack.BlockLen)
		for _, d := range vals[v-bb*bitpack.BlockLen : hi-bb*bitpack.BlockLen] {
			acc += uint64(d)
			dst.Positions = append(dst.Positions, uint32(acc))
		}
		v = hi
	}
	if acc > maxUint32 {
		return fmt.Errorf("positions overflow uint32")
	}
	dst.Offsets = append(dst.Offsets, uint32(len(dst.Positions)))
	return nil
}

// blockReader decodes the 128-value blocks of one unit's positions payload on
// demand, keeping the last one.
type blockReader struct {
	src    []byte
	packed bool
	total  int // values in the payload
	// RAW: the block byte lengths directory (nb-1 uvarints) ends at dataStart;
	// dirPos/dirBlock/dirOff walk it: block dirBlock starts at dataStart+dirOff.
	dataStart, dirPos, dirBlock, dirOff int
	// PFOR: block walkBlock starts at walkOff.
	walkBlock, walkOff int
	cur                int // the block in vals (-1: none)
	vals               [bitpack.BlockLen]uint32
	// PFOR random access (Cursor): block pb is located; its width, packed
	// bits and exceptions.
	pb, pdata, pnx int
	preads         int // values read from block pb since it was located
	pw             uint
	pmask          uint64
	pexIdx         [bitpack.MaxExceptions]int
	pexm           [bitpack.BlockLen / 64]uint64 // bit i set: value i has an exception
	pexHi          [bitpack.MaxExceptions]uint32
	decoded        int // blocks decoded
	values         int // values decoded
	lastEnd        int // end of the last block decoded (full decodes check the payload ends there)
}

// reset points r at a new payload of total values. It sets every field but
// the buffers (vals, read only for block cur; the exceptions, set by locate):
// assigning a fresh blockReader would clear those 700 bytes for every unit a
// cursor opens.
func (r *blockReader) reset(src []byte, packed bool, total int) {
	r.src, r.packed, r.total = src, packed, total
	r.dataStart, r.dirPos, r.dirBlock, r.dirOff = 0, 0, 0, 0
	r.walkBlock, r.walkOff = 0, 0
	r.cur, r.pb = -1, -1
	r.pdata, r.pnx, r.preads, r.pw, r.pmask = 0, 0, 0, 0, 0
	r.decoded, r.values, r.lastEnd = 0, 0, 0
}

func (r *blockReader) blocks() int { return (r.total + bitpack.BlockLen - 1) / bitpack.BlockLen }

// onesBytes widens bs into out (same length) and reports whether every byte
// is below 0x80, that is a one-byte uvarint.
func onesBytes(bs []byte, out []uint32) bool {
	out = out[:len(bs)]
	var or byte
	for i, x := range bs {
		out[i] = uint32(x)
		or |= x
	}
	return or < 0x80
}

// decodeShort decodes uvarints of one or two bytes (canonical: a two-byte
// value's second byte is not 0) from src[p:] into out until out is full or the
// next value is another kind, or would end src (the checked decoder takes
// those). It returns the values decoded and the index after them. The
// vector decoder (varintvec.go) takes eight bytes at a time where it can. Not
// inlined: in the block decoder's loop it would share registers with the
// call to the checked decoder and spill on every value.
//
//go:noinline
func decodeShort(src []byte, p int, out []uint32) (int, int) {
	i := 0
	for i < len(out) {
		if haveAVX2 && len(out)-i >= 8 && len(src)-p >= 16 {
			n, used := decodeShortVec(src[p:], out[i:])
			if i, p = i+n, p+used; i == len(out) {
				break
			}
		}
		// One value the scalar way, then the vector decoder again.
		k, q := decodeShortScalar(src, p, out[i:i+1])
		if k == 0 {
			break
		}
		i, p = i+1, q
	}
	return i, p
}

// decodeShortScalar is decodeShort without the vector decoder.
func decodeShortScalar(src []byte, p int, out []uint32) (int, int) {
	s := src[p:]
	for i := range out {
		if len(s) < 2 {
			return i, len(src) - len(s)
		}
		b0 := s[0]
		if b0 < 0x80 {
			out[i] = uint32(b0)
			s = s[1:]
			continue
		}
		b1 := s[1]
		if b1 >= 0x80 || b1 == 0 {
			return i, len(src) - len(s)
		}
		out[i] = uint32(b0&0x7f) | uint32(b1)<<7
		s = s[2:]
	}
	return len(out), len(src) - len(s)
}

// initRaw skips the RAW directory.
func (r *blockReader) initRaw() error {
	p := 0
	for b := 0; b < r.blocks()-1; b++ {
		_, q, ok := bitpack.ReadUvarint32(r.src, p)
		if !ok {
			return fmt.Errorf("block directory: bad uvarint")
		}
		p = q
	}
	r.dataStart = p
	return nil
}

// block returns the values of block b.
func (r *blockReader) block(b int) ([]uint32, error) {
	if b == r.cur {
		return r.vals[:r.count(b)], nil
	}
	c := r.count(b)
	if c <= 0 {
		return nil, fmt.Errorf("block %d of %d", b, r.blocks())
	}
	out := r.vals[:c]
	var start int
	if r.packed {
		if b < r.walkBlock {
			r.walkBlock, r.walkOff = 0, 0
		}
		for r.walkBlock < b {
			q, ok := bitpack.Skip(r.src, r.walkOff, bitpack.BlockLen)
			if !ok {
				return nil, fmt.Errorf("block %d: malformed", r.walkBlock)
			}
			r.walkBlock, r.walkOff = r.walkBlock+1, q
		}
		start = r.walkOff
		q, ok := bitpack.Unpack(r.src, start, out)
		if !ok {
			return nil, fmt.Errorf("block %d: malformed", b)
		}
		r.walkBlock, r.walkOff = b+1, q
		r.lastEnd = q
	} else {
		if b < r.dirBlock {
			r.dirPos, r.dirBlock, r.dirOff = 0, 0, 0
		}
		for r.dirBlock < b {
			l, q, _ := bitpack.ReadUvarint32(r.src, r.dirPos)
			r.dirPos, r.dirBlock, r.dirOff = q, r.dirBlock+1, r.dirOff+int(l)
		}
		start = r.dataStart + r.dirOff
		if start > len(r.src) {
			return nil, fmt.Errorf("block %d starts past the payload", b)
		}
		src := r.src // a local copy: out aliases r, so r.src would be reloaded after every store
		// The block's byte length: from the directory, or the rest of the
		// payload for the last block.
		l := len(src) - start
		last := b >= r.blocks()-1
		if !last {
			v, _, _ := bitpack.ReadUvarint32(src, r.dirPos)
			l = int(v)
		}
		p := start
		if l == c && c <= len(src)-start && onesBytes(src[start:start+c], out) {
			// As many bytes as values, none with the high bit: every value
			// is one byte (what the loop below decodes, without its checks).
			p += c
		} else {
			for i := 0; i < len(out); i++ {
				// One- and two-byte values in a loop of their own (no call in
				// it, so nothing is spilled); a longer one, or one at the end
				// of src, takes the checked decoder.
				k, q := decodeShort(src, p, out[i:])
				if i, p = i+k, q; i == len(out) {
					break
				}
				v, q, ok := bitpack.ReadUvarint32(src, p)
				if !ok {
					return nil, fmt.Errorf("block %d: value %d: bad uvarint", b, i)
				}
				out[i], p = v, q
			}
		}
		if !last && p-start != l {
			return nil, fmt.Errorf("block %d: %d bytes, the directory says %d", b, p-start, l)
		}
		r.lastEnd = p
	}
	r.cur = b
	r.decoded++
	r.values += c
	return out, nil
}

// locate finds packed block b (walking the headers before it) and parses its
// header and exceptions, so that Cursor.value reads its values directly.
func (r *blockReader) locate(b int) error {
	c := r.count(b)
	if c <= 0 {
		return fmt.Errorf("block %d of %d", b, r.blocks())
	}
	if b < r.walkBlock {
		r.walkBlock, r.walkOff = 0, 0
	}
	for r.walkBlock < b {
		q, ok := bitpack.Skip(r.src, r.walkOff, bitpack.BlockLen)
		if !ok {
			return fmt.Errorf("block %d: malformed", r.walkBlock)
		}
		r.walkBlock, r.walkOff = r.walkBlock+1, q
	}
	p := r.walkOff
	if p >= len(r.src) {
		return fmt.Errorf("block %d: truncated", b)
	}
	w, nx, p, ok := bitpack.ReadToken(r.src, p)
	if !ok {
		return fmt.Errorf("block %d: bad token %#02x", b, r.src[p])
	}
	nbytes := (c*int(w) + 7) / 8
	if nbytes > len(r.src)-p {
		return fmt.Errorf("block %d: truncated", b)
	}
	r.pdata, r.pw, r.pnx = p, w, nx
	r.pmask = uint64(1)<<w - 1
	r.pexm = [bitpack.BlockLen / 64]uint64{}
	p += nbytes
	last := -1
	if nx > 0 && w == 32 {
		return fmt.Errorf("block %d: malformed exception", b)
	}
	src, maxHi := r.src, uint32(maxUint32>>w)
	for i := 0; i < nx; i++ {
		if p >= len(src) {
			return fmt.Errorf("block %d: exceptions truncated", b)
		}
		idx := int(src[p])
		hi, q, ok := bitpack.ReadUvarint32Byte(src, p+1)
		if !ok {
			hi, q, ok = bitpack.ReadUvarint32Slow(src, p+1)
		}
		if !ok || idx <= last || idx >= c || hi == 0 || hi > maxHi {
			return fmt.Errorf("block %d: malformed exception", b)
		}
		r.pexIdx[i], r.pexHi[i] = idx, hi<<w
		r.pexm[idx>>6] |= 1 << (idx & 63)
		last, p = idx, q
	}
	r.walkBlock, r.walkOff = b+1, p
	r.pb, r.preads = b, 0
	r.decoded++
	return nil
}

// unpackLocated unpacks the located block pb into vals (then block pb is the
// decoded block cur): a cursor reading many values of one block reads them
// from there, each a load, instead of extracting each from the packed bits.
func (r *blockReader) unpackLocated() {
	b := r.pb
	c := r.count(b)
	out := r.vals[:c]
	bitpack.UnpackBits(r.src[r.pdata:], r.pw, out)
	for k := 0; k < r.pnx; k++ {
		out[r.pexIdx[k]] |= r.pexHi[k]
	}
	r.cur = b
}

// packedTail reads a packed field that starts in the last 8 bytes of the
// payload (a width of 0 has a mask of 0).
func (r *blockReader) packedTail(at int, bit uint) uint32 {
	var v uint64
	for k := 0; k < 8 && at+k < len(r.src); k++ {
		v |= uint64(r.src[at+k]) << (8 * k)
	}
	return uint32(v >> (bit & 7) & r.pmask)
}

// excHigh returns the high bits of value i's exception.
func (r *blockReader) excHigh(i int) uint32 {
	for k := 0; k < r.pnx; k++ {
		if r.pexIdx[k] == i {
			return r.pexHi[k]
		}
	}
	return 0
}

// count returns the number of values of block b.
func (r *blockReader) count(b int) int {
	return min(bitpack.BlockLen, r.total-b*bitpack.BlockLen)
}

// checkEnd checks, after a full decode, that the payload ends after its last block.
func (r *blockReader) checkEnd() error {
	if r.total == 0 {
		return nil
	}
	if r.lastEnd != len(r.src) {
		return fmt.Errorf("%d trailing payload bytes", len(r.src)-r.lastEnd)
	}
	return nil
}

// inflate decompresses a ZSTD payload into the Source's buffer; the output must be
// exactly plainLen bytes (already checked against the limit by the header parser).
// The frame may name one of the shared literal tables (zstdopt.Tables) as its
// dictionary, no other; such a frame is decoded through zstdopt.Unshare.
func (s *Source) inflate(payload []byte, plainLen int) ([]byte, error) {
	// The zstd frame must declare the same content size before anything is allocated
	// (snii writes single-segment frames, which always declare it).
	var zh zstd.Header
	if err := zh.Decode(payload); err != nil {
		return nil, corruptf(CodecZstd, "zstd header: %v", err)
	}
	if zh.Skippable || !zh.HasFCS || zh.FrameContentSize != uint64(plainLen) || zh.DictionaryID > zstdopt.NumTables {
		return nil, corruptf(CodecZstd, "zstd header declares %d bytes (known %v, dictionary %d of %d shared literal tables), the frame says %d",
			zh.FrameContentSize, zh.HasFCS, zh.DictionaryID, zstdopt.NumTables, plainLen)
	}
	if err := checkZstdBlocks(payload, zh.HeaderSize, zh.HasCheckSum, plainLen); err != nil {
		return nil, err
	}
	if s.dec == nil {
		d, err := zstdopt.NewDecoder(s.limits.MaxBytes)
		if err != nil {
			return nil, fmt.Errorf("prx: %w", err)
		}
		s.dec = d
	}
	need := plainLen + zstdopt.DecodeSlack
	alloc, allocZ := growSize(cap(s.buf), need), 0
	// A frame naming a shared literal table is first rewritten with its
	// literals raw (zstdopt.Unshare: the decoder holds no dictionary and keeps
	// its assembly sequence decoder); that frame is at most the payload plus
	// its literals, which are at most plainLen bytes, and a few header bytes.
	needZ := 0
	if zh.DictionaryID != 0 {
		needZ = len(payload) + plainLen + zstdopt.UnshareGrowth
		allocZ = growSize(cap(s.zbuf), needZ)
	}
	if s.mem != nil {
		if err := s.mem.Reserve(plainLen, alloc+allocZ); err != nil {
			return nil, fmt.Errorf("prx: %s unit of %d bytes: %w", CodecZstd, plainLen, err)
		}
	}
	if alloc > 0 {
		s.buf = make([]byte, alloc)
	}
	if allocZ > 0 {
		s.zbuf = make([]byte, allocZ)
	}
	frame := payload
	if needZ > 0 {
		var err error
		if frame, err = zstdopt.Unshare(payload, s.zbuf[:0:needZ], plainLen); err != nil {
			return nil, corruptf(CodecZstd, "%v", err)
		}
	}
	// The capacity bounds the output (WithDecodeAllCapLimit): the declared content
	// size fits it, and klauspost fails a frame whose blocks produce more than declared.
	out, err := s.dec.DecodeAll(frame, s.buf[:0:need])
	if err != nil {
		return nil, corruptf(CodecZstd, "zstd: %v", err)
	}
	if len(out) != plainLen {
		return nil, corruptf(CodecZstd, "zstd produced %d bytes, the header says %d", len(out), plainLen)
	}
	return out, nil
}

// growSize is the capacity to allocate for a buffer of capacity have that must
// hold need bytes (0: it does): doubling while the buffer stays poolable, a
// larger one to fit (it is dropped when the query ends).
func growSize(have, need int) int {
	if have >= need {
		return 0
	}
	return max(need, min(2*have, maxPooledBuffer))
}

// zstdMaxBlock is the most bytes one zstd block regenerates (Block_Maximum_Size).
const zstdMaxBlock = 128 << 10

// checkZstdBlocks walks the block headers of the zstd frame at the start of payload
// (its frame header is hdr bytes) and checks that the frame ends exactly at the end
// of payload (a ZSTD payload is one zstd frame, nothing after it) and that its
// blocks can regenerate plainLen bytes, before that much is allocated: a raw or RLE
// block regenerates its size, a compressed block at most zstdMaxBlock bytes.
func checkZstdBlocks(payload []byte, hdr int, checksum bool, plainLen int) error {
	p := hdr
	most := 0
	for {
		if p+3 > len(payload) {
			return corruptf(CodecZstd, "zstd block header truncated at byte %d", p)
		}
		bh := int(payload[p]) | int(payload[p+1])<<8 | int(payload[p+2])<<16
		p += 3
		switch size := bh >> 3; bh >> 1 & 3 {
		case 0: // raw
			p += size
			most += size
		case 2: // compressed
			p += size
			most += zstdMaxBlock
		case 1: // RLE: one byte repeated
			p++
			most += size
		default:
			return corruptf(CodecZstd, "zstd reserved block type")
		}
		if p > len(payload) {
			return corruptf(CodecZstd, "zstd block truncated")
		}
		if bh&1 != 0 { // last block
			break
		}
	}
	if checksum {
		p += 4
	}
	if p != len(payload) {
		return corruptf(CodecZstd, "zstd frame of %d bytes in a payload of %d", p, len(payload))
	}
	if plainLen > most {
		return corruptf(CodecZstd, "zstd blocks regenerate at most %d bytes, the frame says %d", most, plainLen)
	}
	return nil
}

// Close releases the zstd decoder and the buffers. A closed Source returns errors
// wrapping snii.ErrClosed; Close is idempotent.
func (s *Source) Close() {
	if s.dec != nil {
		s.dec.Close()
		s.dec = nil
	}
	s.buf, s.tf, s.offs = nil, nil, nil
	s.stats, s.mem = nil, nil
	s.closed = true
}
