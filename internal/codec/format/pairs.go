package format

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/snii-go/snii/internal/errs"
)

// The pair section of a field (format 5): docs-only postings of
// adjacent term pairs, in (a, b) order (a's bytes, then b's):
//
//	entries: n × { uvarint len(a) | a | uvarint len(b) | b | uvarint df |
//	               uvarint co | uvarint docLen | doc window (base 0, no CRC) |
//	               u32 crc32c(the entry's bytes before it) }
//	table:   n × u32 offset of entry i (from the section start; the first 0)
//	trailer: u32 crc32c(table)
//
// co 0: the list form, the doc window holds the pair's df documents. co >= df:
// the complement form, co is |A ∩ B| (the documents holding both terms) and
// the doc window holds the co - df of them without the pair (no window when
// co == df: every document holding both terms holds the pair).
//
// n is the metadata's PairCount; the table starts at len - 4 - 4n.

// PairEntryOverhead is the bytes of a pair beyond its entry: its table slot.
const PairEntryOverhead = 4

// AppendPairEntry appends the list-form entry of pair (a, b) holding docs
// (ascending, non-empty), using enc's scratch, and returns the extended slice.
func AppendPairEntry(dst []byte, enc *DocWindowEncoder, a, b []byte, docs []uint32) []byte {
	return appendPairEntry(dst, enc, a, b, uint64(len(docs)), 0, docs)
}

// AppendPairComplement appends the complement-form entry of pair (a, b): df
// documents hold the pair, co >= df hold both terms, and exc (ascending,
// co - df of them) are those that hold both terms but not the pair.
func AppendPairComplement(dst []byte, enc *DocWindowEncoder, a, b []byte, df, co uint64, exc []uint32) []byte {
	return appendPairEntry(dst, enc, a, b, df, co, exc)
}

// PairComplementMinLen returns a lower bound of the bytes of the complement
// entry AppendPairComplement writes for pair (a, b) of lenA and lenB bytes in
// df documents, its terms together in co, whatever the co - df exceptions.
func PairComplementMinLen(lenA, lenB int, df, co uint64) int {
	n := uvarintLen(uint64(lenA)) + lenA + uvarintLen(uint64(lenB)) + lenB + uvarintLen(df) + uvarintLen(co) + 4
	if co == df {
		return n + 1
	}
	w := DocWindowMinLen(int(min(co-df, math.MaxInt32)))
	return n + uvarintLen(uint64(w)) + w
}

func appendPairEntry(dst []byte, enc *DocWindowEncoder, a, b []byte, df, co uint64, docs []uint32) []byte {
	start := len(dst)
	dst = binary.AppendUvarint(dst, uint64(len(a)))
	dst = append(dst, a...)
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	dst = append(dst, b...)
	dst = binary.AppendUvarint(dst, df)
	dst = binary.AppendUvarint(dst, co)
	if len(docs) == 0 {
		dst = append(dst, 0)
		return binary.LittleEndian.AppendUint32(dst, Checksum(dst[start:]))
	}
	// The doc window's length comes before it: encode, then insert the length.
	mark := len(dst)
	dst = enc.Append(dst, docs, 0, false)
	n := len(dst) - mark
	var lb [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(lb[:], uint64(n))
	dst = append(dst, lb[:k]...)
	copy(dst[mark+k:], dst[mark:mark+n])
	copy(dst[mark:], lb[:k])
	return binary.LittleEndian.AppendUint32(dst, Checksum(dst[start:]))
}

// AppendPairTrailer appends the table of entry offsets and its CRC.
func AppendPairTrailer(dst []byte, offs []uint32) []byte {
	start := len(dst)
	for _, o := range offs {
		dst = binary.LittleEndian.AppendUint32(dst, o)
	}
	return binary.LittleEndian.AppendUint32(dst, Checksum(dst[start:]))
}

// PairTable reads a pair section in place (it aliases the section's bytes,
// which must stay valid and unchanged while it is used). A lookup is a binary
// search over the entries' keys (they ascend by (a, b)) until the table has
// served pairIndexAfter of them; then a resident index of the keys' hashes
// (about 14 bytes per pair) is built once and serves every later lookup. A process
// that runs one query does not pay for the index; a long-lived one gets it
// after its first queries. It is immutable (but for the index, built once) and
// safe for concurrent use.
type PairTable struct {
	b     []byte // entries
	table []byte // n × u32
	n     int
	docs  uint64 // documents in the segment: bound on a pair's df

	searches atomic.Int64 // binary searches so far (until the index is built)
	once     sync.Once
	index    atomic.Pointer[pairIndex] // nil until built (or when a key does not decode)
}

// pairIndexAfter is the number of binary searches after which a table builds
// its hash index: building it reads and hashes every key, which only a
// process that looks up many pairs pays back (docs/bench/startup.md).
const pairIndexAfter = 64

// pairIndex is a table's resident index of its keys' hashes.
type pairIndex struct {
	seed   uint64
	hashes []uint64 // hash of each key, ascending
	order  []uint32 // the entry of hashes[i]
	filter []uint64 // one bit per key hash's top bits: most missing pairs stop here
	fshift uint     // 64 - log2(bits of filter)
}

// pairFilterBits is the filter's size per pair (rounded up to a power of
// two): with one bit per key, about 1 in 16 missing pairs passes it.
const pairFilterBits = 16

// hash is the index's hash of len(a), a, b (never stored), 8 bytes per step.
func (ix *pairIndex) hash(a, b []byte) uint64 {
	h := ix.seed ^ uint64(len(a))*pairMul
	h = hashBytes(h, a)
	return hashBytes(h, b)
}

const pairMul = 0x9e3779b97f4a7c15

func hashBytes(h uint64, p []byte) uint64 {
	for len(p) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(p)) * pairMul
		h ^= h >> 29
		p = p[8:]
	}
	var v uint64
	for i, c := range p {
		v |= uint64(c) << (8 * i)
	}
	h = (h ^ v ^ uint64(len(p))<<59) * pairMul
	return h ^ h>>32
}

// OpenPairTable checks a pair section of n entries of a segment of docCount
// documents: its length, the table's CRC and that the offsets ascend
// strictly inside the entries area (the first at 0). Keys are checked when a
// lookup reads them, entries when read. Errors wrap snii.ErrCorrupt.
func OpenPairTable(sec []byte, n uint64, docCount uint64) (*PairTable, error) {
	if n == 0 {
		if len(sec) != 0 {
			return nil, errs.Corruptf("pair section: %d bytes for 0 pairs", len(sec))
		}
		return &PairTable{}, nil
	}
	if n > uint64(len(sec))/8 { // every pair takes at least 4 table bytes + more than 4 entry bytes
		return nil, errs.Corruptf("pair section: %d pairs in %d bytes", n, len(sec))
	}
	tEnd := len(sec) - 4
	tStart := tEnd - 4*int(n)
	if err := VerifyChecksum(sec[tStart:tEnd], binary.LittleEndian.Uint32(sec[tEnd:]), "pair table"); err != nil {
		return nil, err
	}
	t := &PairTable{b: sec[:tStart], table: sec[tStart:tEnd], n: int(n), docs: docCount}
	prev := -1
	for i := 0; i < t.n; i++ {
		o := int(binary.LittleEndian.Uint32(t.table[4*i:]))
		if (i == 0 && o != 0) || o <= prev || o >= tStart {
			return nil, errs.Corruptf("pair section: entry %d at offset %d (previous %d, entries end at %d)", i, o, prev, tStart)
		}
		prev = o
	}
	return t, nil
}

// buildIndex builds the resident hash index: a lookup is then a bit test of
// the filter, a binary search over 8-byte hashes and one key comparison. It
// returns nil when a key does not decode or the keys do not ascend strictly
// (lookups stay binary searches, which report a key that does not decode
// when they read it): the index answers every lookup as the binary search
// does.
func (t *PairTable) buildIndex() *pairIndex {
	ix := &pairIndex{seed: uint64(t.n) * pairMul} // any value: the hashes stay in memory
	lg := bits.Len(uint(t.n*pairFilterBits - 1))
	ix.filter, ix.fshift = make([]uint64, max((1<<lg)/64, 1)), uint(64-lg)
	keys := make([]pairHash, t.n)
	var pa, pb []byte
	for i := range keys {
		a, b, err := t.Key(i)
		if err != nil {
			return nil
		}
		if i > 0 {
			c := bytes.Compare(pa, a)
			if c == 0 {
				c = bytes.Compare(pb, b)
			}
			if c >= 0 {
				return nil
			}
		}
		pa, pb = a, b
		h := ix.hash(a, b)
		keys[i] = pairHash{h, uint32(i)}
		f := h >> ix.fshift
		ix.filter[f>>6] |= 1 << (f & 63)
	}
	slices.SortFunc(keys, func(x, y pairHash) int {
		if c := cmp.Compare(x.h, y.h); c != 0 {
			return c
		}
		return cmp.Compare(x.i, y.i)
	})
	ix.hashes, ix.order = make([]uint64, t.n), make([]uint32, t.n)
	for j, k := range keys {
		ix.hashes[j], ix.order[j] = k.h, k.i
	}
	return ix
}

// pairHash is one key's hash and its entry, the unit the hash index is
// sorted by (hash, then entry).
type pairHash struct {
	h uint64
	i uint32
}

// Len returns the number of pairs.
func (t *PairTable) Len() int { return t.n }

// Bytes returns the section's size.
func (t *PairTable) Bytes() int {
	if t.n == 0 {
		return 0
	}
	return len(t.b) + len(t.table) + 4
}

// entry returns the bytes of entry i.
func (t *PairTable) entry(i int) []byte {
	lo := binary.LittleEndian.Uint32(t.table[4*i:])
	hi := uint32(len(t.b))
	if i+1 < t.n {
		hi = binary.LittleEndian.Uint32(t.table[4*i+4:])
	}
	return t.b[lo:hi]
}

// Key returns the pair of entry i without checking its CRC (a damaged key
// can only make a lookup miss, or find an entry whose CRC then fails).
func (t *PairTable) Key(i int) (a, b []byte, err error) {
	r := reader{b: t.entry(i)}
	a = r.bytes(r.uvarint())
	b = r.bytes(r.uvarint())
	if !r.ok() {
		return nil, nil, errs.Corruptf("pair %d: key truncated", i)
	}
	return a, b, nil
}

// Find returns the index of pair (a, b), or -1 when the section lacks it:
// a binary search over the keys, or, once the table has built its hash
// index, a search of the resident key hashes and a comparison of the keys
// with that hash. A damaged key can only make a lookup miss or fail with
// snii.ErrCorrupt.
func (t *PairTable) Find(a, b []byte) (int, error) {
	if t.n == 0 {
		return -1, nil
	}
	ix := t.index.Load()
	if ix == nil && t.searches.Load() >= pairIndexAfter {
		t.once.Do(func() {
			if ix := t.buildIndex(); ix != nil {
				t.index.Store(ix)
			}
		})
		ix = t.index.Load()
	}
	if ix == nil {
		t.searches.Add(1)
		return t.search(a, b)
	}
	h := ix.hash(a, b)
	if f := h >> ix.fshift; ix.filter[f>>6]>>(f&63)&1 == 0 {
		return -1, nil
	}
	hs := ix.hashes
	lo, _ := slices.BinarySearch(hs, h) // the first of its equal hashes
	for ; lo < len(hs) && hs[lo] == h; lo++ {
		i := int(ix.order[lo])
		ka, kb, err := t.Key(i)
		if err != nil {
			return -1, err
		}
		if bytes.Equal(ka, a) && bytes.Equal(kb, b) {
			return i, nil
		}
	}
	return -1, nil
}

// search is Find by a binary search over the entries' keys, which ascend by
// a's bytes, then b's.
func (t *PairTable) search(a, b []byte) (int, error) {
	lo, hi := 0, t.n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		ka, kb, err := t.Key(m)
		if err != nil {
			return -1, err
		}
		c := bytes.Compare(ka, a)
		if c == 0 {
			c = bytes.Compare(kb, b)
		}
		switch {
		case c == 0:
			return m, nil
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return -1, nil
}

// Entry is one decoded pair: its key, df, co (0 in the list form) and
// encoded doc window.
type PairEntry struct {
	A, B   []byte
	DF     uint64
	CO     uint64
	window []byte
}

// Entry checks entry i's CRC and decodes its header. The doc window is
// decoded by Docs or Exceptions.
func (t *PairTable) Entry(i int) (PairEntry, error) {
	if i < 0 || i >= t.n {
		return PairEntry{}, errs.Corruptf("pair %d of %d", i, t.n)
	}
	e := t.entry(i)
	if len(e) < 4 {
		return PairEntry{}, errs.Corruptf("pair %d: %d bytes", i, len(e))
	}
	body := e[:len(e)-4]
	if err := VerifyChecksum(body, binary.LittleEndian.Uint32(e[len(e)-4:]), "pair entry"); err != nil {
		return PairEntry{}, err
	}
	r := reader{b: body}
	var p PairEntry
	p.A = r.bytes(r.uvarint())
	p.B = r.bytes(r.uvarint())
	p.DF = r.uvarintMax(math.MaxUint32)
	p.CO = r.uvarintMax(math.MaxUint32)
	p.window = r.bytes(r.uvarint())
	switch {
	case !r.ok():
		return PairEntry{}, errs.Corruptf("pair %d: truncated", i)
	case r.remaining() != 0:
		return PairEntry{}, errs.Corruptf("pair %d: %d trailing bytes", i, r.remaining())
	case p.DF == 0 || p.DF > t.docs:
		return PairEntry{}, errs.Corruptf("pair %d: df %d (%d documents)", i, p.DF, t.docs)
	case p.CO == 0 && len(p.window) == 0:
		return PairEntry{}, errs.Corruptf("pair %d: df %d without a doc window", i, p.DF)
	case p.CO != 0 && (p.CO < p.DF || p.CO > t.docs || (p.CO == p.DF) != (len(p.window) == 0)):
		return PairEntry{}, errs.Corruptf("pair %d: df %d, co %d (%d documents), %d-byte window of the others", i, p.DF, p.CO, t.docs, len(p.window))
	}
	return p, nil
}

// Complement reports whether the entry is in the complement form: its docs
// are those holding both terms, but for Exceptions.
func (p *PairEntry) Complement() bool { return p.CO != 0 }

// Listed appends the docs the entry's window lists to dst: the pair's DF docs
// (list form) or its CO - DF exceptions (complement form), ascending.
func (p *PairEntry) Listed(dst []uint32) ([]uint32, error) {
	n := p.DF
	if p.Complement() {
		n = p.CO - p.DF
	}
	if n == 0 {
		return dst, nil
	}
	return DecodeDocWindow(p.window, int(n), 0, false, dst)
}

// Docs appends the docs of a list-form pair to dst (exactly DF ascending ids).
func (p *PairEntry) Docs(dst []uint32) ([]uint32, error) {
	if p.Complement() {
		return dst, errs.Corruptf("pair %q %q: the complement form has no doc list", p.A, p.B)
	}
	return p.Listed(dst)
}

// Exceptions appends the docs of a complement-form pair that hold both terms
// but not the pair to dst (exactly CO - DF ascending ids).
func (p *PairEntry) Exceptions(dst []uint32) ([]uint32, error) {
	if !p.Complement() {
		return dst, errs.Corruptf("pair %q %q: the list form has no exceptions", p.A, p.B)
	}
	return p.Listed(dst)
}
