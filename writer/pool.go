package writer

import "encoding/binary"

// The SPIMI term buffer stores every term's postings in a byte pool made of
// fixed-size blocks. A term's postings form a chain of slices of growing size
// (sliceSizes); the last 4 bytes of each slice are reserved for the address of
// the next slice, so a stream grows without ever being copied. An address is a
// uint32: block index << blockShift | offset in the block.

const (
	blockShift = 16
	blockSize  = 1 << blockShift
	// maxBlocks bounds one pool to 4 GiB (the reach of a uint32 address).
	maxBlocks = 1 << (32 - blockShift)
	// fwdSize is the size of the forward pointer at the end of each slice.
	fwdSize = 4
)

// sliceSizes are the sizes (forward pointer included) of the slices of one
// term's stream: the first slice is small (most terms occur in one document),
// later ones double up to 32 KiB.
var sliceSizes = [...]uint32{16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768}

const maxLevel = uint8(len(sliceSizes) - 1)

// chunkBlocks is the number of blocks mapped at once.
const chunkBlocks = 16

// blockCache hands out the blocks of the term buffers (pool blocks and term
// state pages) of one writer. Blocks come from chunks mapped outside the Go
// heap (see mapRaw); blocks freed by a spill go to a free list and are reused
// by the next documents, so the buffer's memory is mapped once and never
// seen by the garbage collector. close unmaps everything: no block may be
// used afterwards.
type blockCache struct {
	chunks    [][]byte
	free      [][]byte
	allocated int64 // bytes of blocks mapped (all retained until close)
	err       error // the first mapping failure
}

// get returns a zeroed-or-reused block, or nil when mapping fails (see err).
func (c *blockCache) get() []byte {
	if len(c.free) == 0 {
		chunk, err := mapRaw(chunkBlocks * blockSize)
		if err != nil {
			if c.err == nil {
				c.err = err
			}
			return nil
		}
		c.chunks = append(c.chunks, chunk)
		c.allocated += chunkBlocks * blockSize
		for i := chunkBlocks - 1; i >= 0; i-- {
			c.free = append(c.free, chunk[i*blockSize:(i+1)*blockSize:(i+1)*blockSize])
		}
	}
	n := len(c.free)
	b := c.free[n-1]
	c.free[n-1] = nil
	c.free = c.free[:n-1]
	return b
}

func (c *blockCache) put(b []byte) { c.free = append(c.free, b) }

// dropFree gives the free blocks' pages back to the system (they stay in the
// free list, mapped, and read zero when handed out again).
func (c *blockCache) dropFree() {
	for _, b := range c.free {
		dropPages(b)
	}
}

// close unmaps every chunk.
func (c *blockCache) close() error {
	var first error
	for _, ch := range c.chunks {
		if err := unmapRaw(ch); err != nil && first == nil {
			first = err
		}
	}
	c.chunks, c.free, c.allocated = nil, nil, 0
	return first
}

// bytePool is an append-only arena of blocks. Allocations never cross a block.
type bytePool struct {
	cache  *blockCache
	blocks [][]byte
	used   uint32 // bytes used in the last block
	full   bool   // an allocation failed: the pool reached maxBlocks, or mapping failed
}

// alloc returns the address of n (<= blockSize) fresh contiguous bytes, or
// ok=false when the pool is full.
func (p *bytePool) alloc(n uint32) (addr uint32, ok bool) {
	if len(p.blocks) == 0 || p.used+n > blockSize {
		var b []byte
		if len(p.blocks) < maxBlocks {
			b = p.cache.get()
		}
		if b == nil {
			p.full = true
			return 0, false
		}
		p.blocks = append(p.blocks, b)
		p.used = 0
	}
	addr = uint32(len(p.blocks)-1)<<blockShift | p.used
	p.used += n
	return addr, true
}

// span returns the n bytes at addr (they never cross a block).
func (p *bytePool) span(addr, n uint32) []byte {
	off := addr & (blockSize - 1)
	return p.blocks[addr>>blockShift][off : off+n : off+n]
}

func (p *bytePool) u32(addr uint32) uint32 { return binary.LittleEndian.Uint32(p.span(addr, 4)) }

// size returns the bytes held by the pool's blocks.
func (p *bytePool) size() int64 { return int64(len(p.blocks)) * blockSize }

// reset returns every block to the cache.
func (p *bytePool) reset() {
	for i, b := range p.blocks {
		p.cache.put(b)
		p.blocks[i] = nil
	}
	p.blocks = p.blocks[:0]
	p.used = 0
	p.full = false
}

// stream is the write cursor of one term's slice chain.
type stream struct {
	head  uint32 // first slice
	tail  uint32 // next byte to write
	end   uint32 // end of the current slice's data (where its forward pointer goes)
	level uint8  // level of the current slice
}

// newStream allocates the first slice of a stream.
func (p *bytePool) newStream(s *stream) bool {
	a, ok := p.alloc(sliceSizes[0])
	if !ok {
		return false
	}
	*s = stream{head: a, tail: a, end: a + sliceSizes[0] - fwdSize}
	return true
}

// write appends b to the stream, chaining new slices as needed.
func (p *bytePool) write(s *stream, b []byte) bool {
	for len(b) > 0 {
		if s.tail == s.end {
			lvl := s.level
			if lvl < maxLevel {
				lvl++
			}
			a, ok := p.alloc(sliceSizes[lvl])
			if !ok {
				return false
			}
			binary.LittleEndian.PutUint32(p.span(s.end, fwdSize), a)
			s.tail, s.end, s.level = a, a+sliceSizes[lvl]-fwdSize, lvl
		}
		n := copy(p.span(s.tail, s.end-s.tail), b)
		s.tail += uint32(n)
		b = b[n:]
	}
	return true
}

// streamReader reads a stream back from its head.
type streamReader struct {
	p     *bytePool
	cur   uint32 // next byte to read
	end   uint32 // end of the current slice's data
	tail  uint32 // end of the stream
	level uint8
}

func (p *bytePool) reader(s *stream) streamReader {
	return streamReader{p: p, cur: s.head, end: s.head + sliceSizes[0] - fwdSize, tail: s.tail}
}

// chunk returns the next contiguous run of bytes of the stream (empty at the end).
func (r *streamReader) chunk() []byte {
	if r.cur == r.tail {
		return nil
	}
	if r.cur == r.end {
		next := r.p.u32(r.end)
		if r.level < maxLevel {
			r.level++
		}
		r.cur, r.end = next, next+sliceSizes[r.level]-fwdSize
	}
	stop := r.end
	if r.tail >= r.cur && r.tail < stop {
		// The tail is in this slice: slices are disjoint address ranges, so
		// an address inside [cur, end) belongs to the current slice.
		stop = r.tail
	}
	b := r.p.span(r.cur, stop-r.cur)
	r.cur = stop
	return b
}
