package reader

import (
	"bytes"
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/snii-go/snii/internal/codec/format"
)

// cachedBlock is a decoded dictionary block kept by the segment.
type cachedBlock struct {
	b    format.Block
	size int64 // bytes it holds (its plain bytes when they are not the mapping)
	f    *field
	i    int
	ref  atomic.Bool // clock bit
}

// blockCache bounds the decoded dict blocks of a segment. Lookups are lock-free
// (an atomic slot per block); insertion and eviction (clock) take a mutex.
type blockCache struct {
	max  int64 // < 0: disabled
	mu   sync.Mutex
	used int64
	ring []*cachedBlock
	hand int
}

func newBlockCache(max int64) *blockCache { return &blockCache{max: max} }

// add caches cb (unless disabled or too large) and returns the cached block for
// the slot (an earlier one when another query got there first).
func (c *blockCache) add(cb *cachedBlock) *cachedBlock {
	if c.max < 0 || cb.size > c.max {
		return cb
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	slot := &cb.f.slots[cb.i]
	if p := slot.Load(); p != nil {
		return p
	}
	for c.used+cb.size > c.max && len(c.ring) > 0 {
		if c.hand >= len(c.ring) {
			c.hand = 0
		}
		v := c.ring[c.hand]
		if v.ref.Load() {
			v.ref.Store(false)
			c.hand++
			continue
		}
		v.f.slots[v.i].Store(nil)
		c.used -= v.size
		last := len(c.ring) - 1
		c.ring[c.hand] = c.ring[last]
		c.ring[last] = nil
		c.ring = c.ring[:last]
	}
	c.ring = append(c.ring, cb)
	c.used += cb.size
	slot.Store(cb)
	return cb
}

// bytesOf views a string as bytes without copying; the result must not be
// modified.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// decompress decodes a zstd dict block with a pooled single-threaded decoder.
func (s *Segment) decompress(dst, src []byte) ([]byte, error) {
	d, err := s.dec.getDict()
	if err != nil {
		return nil, err
	}
	out, err := d.DecodeAll(src, dst)
	s.dec.putDict(d)
	return out, err
}

// blockName names dict block i of a field in errors.
func (f *field) blockName(i int) place {
	return place{section: fmt.Sprintf("dict block %d", i), index: f.meta.Name, window: -1}
}

// block returns dict block i, from the cache or decoded (and cached).
func (f *field) block(x *qctx, i int) (*format.Block, error) {
	if p := f.slots[i].Load(); p != nil {
		if !p.ref.Load() {
			p.ref.Store(true)
		}
		return &p.b, nil
	}
	cb, err := f.decodeBlock(x, i)
	if err != nil {
		return nil, err
	}
	return &f.seg.blocks.add(cb).b, nil
}

// decodeBlock reads, verifies and decodes dict block i (no cache).
func (f *field) decodeBlock(x *qctx, i int) (*cachedBlock, error) {
	s := f.seg
	info := f.meta.Blocks[i]
	if info.Offset > f.meta.DictLen || uint64(info.StoredLen) > f.meta.DictLen-info.Offset {
		return nil, s.corrupt(f.blockName(i), "[%d, +%d) outside the dict region of %d bytes", info.Offset, info.StoredLen, f.meta.DictLen)
	}
	var stored []byte
	var err error
	var own []byte // a fresh buffer: a plain block read through ReaderAt aliases it
	buf := &x.blockBuf
	if s.data == nil && info.Flags == 0 {
		buf = &own
	}
	if r := s.remote(); r != nil {
		stored, err = x.readRemote(r, f.meta.DictOff+info.Offset, uint64(info.StoredLen), buf)
	} else {
		stored, err = s.readAt(f.meta.DictOff+info.Offset, uint64(info.StoredLen), buf)
	}
	if err != nil {
		return nil, s.wrap(f.blockName(i), err)
	}
	x.count.bytesRead += int64(info.StoredLen)
	x.count.ranges++
	x.count.dictBlocks++
	cb := &cachedBlock{f: f, i: i, size: 256}
	if info.Flags != 0 || s.data == nil {
		cb.size += int64(info.PlainLen)
	}
	cb.b, err = format.DecodeBlock(stored, info, s.decompress, nil)
	if err != nil {
		return nil, s.wrap(f.blockName(i), err)
	}
	first, err := cb.b.FirstTerm()
	if err != nil {
		return nil, s.wrap(f.blockName(i), err)
	}
	if !bytes.Equal(first, f.meta.FirstTerms[i]) {
		return nil, s.corrupt(f.blockName(i), "starts with %q, the sampled index says %q", first, f.meta.FirstTerms[i])
	}
	return cb, nil
}

// findBlock returns the last block whose first term is <= term, or -1.
func (f *field) findBlock(term []byte) int {
	ft := f.meta.FirstTerms
	lo, hi := 0, len(ft)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bytes.Compare(ft[m], term) <= 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

// lookup finds a term's dict entry. Inline parts of e alias the block.
func (f *field) lookup(x *qctx, term []byte, e *format.Entry) (bool, error) {
	bi := f.findBlock(term)
	if bi < 0 {
		return false, nil
	}
	b, err := f.block(x, bi)
	if err != nil {
		return false, err
	}
	found, err := b.Seek(term, e)
	if err != nil {
		return false, f.seg.wrap(f.blockName(bi), err)
	}
	return found, nil
}

// scanPrefix calls fn for each term starting with prefix, in byte order, at most
// max terms (max <= 0: all), until fn returns false. term is valid during fn.
func (f *field) scanPrefix(x *qctx, prefix []byte, max int, fn func(term []byte, e *format.Entry) (bool, error)) error {
	return f.scanRange(x, prefix, nil, nil, max, fn)
}

// scanRange walks the terms starting with prefix in byte order, calling fn
// for those keep accepts (nil: all), at most max of them (max <= 0: all),
// until fn returns false; a block after the first is not decoded when skip
// (if set) says no term of it is wanted, and when keep rejects a term with a
// key to go to (no term before it is wanted), the walk seeks there. term is
// valid during fn.
func (f *field) scanRange(x *qctx, prefix []byte, skip func(bi int) bool, keep func(term []byte) (bool, []byte), max int, fn func(term []byte, e *format.Entry) (bool, error)) error {
	start := max0(f.findBlock(prefix))
	n := 0
	var e format.Entry
	var seek []byte // where to start in the next block read (nil: its first term)
	for bi := start; bi < len(f.meta.Blocks); bi++ {
		if bi > start && !bytes.HasPrefix(f.meta.FirstTerms[bi], prefix) {
			return nil // every later term sorts after the prefix range
		}
		if bi > start && skip != nil && skip(bi) {
			seek = nil
			continue
		}
		if err := x.check(); err != nil {
			return err
		}
		b, err := f.block(x, bi)
		if err != nil {
			return err
		}
		var it format.BlockIter
		if bi == start || seek != nil {
			from := prefix
			if seek != nil {
				from, seek = seek, nil
			}
			if it, err = b.SeekGE(from); err != nil {
				return f.seg.wrap(f.blockName(bi), err)
			}
		} else {
			it = b.Iter()
		}
	terms:
		for {
			term, ok, err := it.Next(&e)
			if err != nil {
				return f.seg.wrap(f.blockName(bi), err)
			}
			if !ok {
				break
			}
			if !bytes.HasPrefix(term, prefix) {
				return nil
			}
			x.count.dictTerms++
			if keep != nil {
				ok, to := keep(term)
				switch {
				case ok:
				case to == nil:
					continue
				case !bytes.HasPrefix(to, prefix):
					return nil // past the range
				case f.findBlock(to) == bi:
					if it, err = b.SeekGE(to); err != nil {
						return f.seg.wrap(f.blockName(bi), err)
					}
					continue
				default:
					seek, bi = to, f.findBlock(to)-1
					break terms
				}
			}
			if max > 0 && n == max {
				return nil
			}
			n++
			more, err := fn(term, &e)
			if err != nil || !more {
				return err
			}
		}
	}
	return nil
}

func max0(i int) int {
	if i < 0 {
		return 0
	}
	return i
}
