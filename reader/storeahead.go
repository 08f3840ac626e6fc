package reader

import "fmt"

// storeAhead is how many store blocks past the one being handed out a
// Records call over ascending ids decodes at once, each on a goroutine.
const storeAhead = 2

// aheadBlock is a store block decoding on a goroutine of its own.
type aheadBlock struct {
	b    int
	d    decodedBlock
	buf  []byte     // the decompression buffer it was given (nil: plain block)
	done chan error // the decode's result; nil once received
}

// recordsAhead is records for ids whose blocks ascend (order: the blocks, in
// order, at least two): while fn gets the records of one block, the next
// storeAhead blocks decode on goroutines of their own (reading the bytes,
// taking buffers and charging the budget stay on the caller's goroutine).
// At most storeAhead+1 decoded blocks are held at once; every goroutine has
// ended when it returns.
func (x *qctx) recordsAhead(ids []uint32, blocks, order []int, fn func(id uint32, rec []byte) error) error {
	s := x.s
	st := s.store
	pend := make([]aheadBlock, len(order))
	launched := 0
	defer func() {
		for j := range pend[:launched] {
			p := &pend[j]
			if p.done != nil {
				<-p.done
				p.done = nil
			}
			if p.buf != nil {
				x.storeFree = append(x.storeFree, p.buf)
				p.buf = nil
			}
		}
	}()
	launch := func(j int) error {
		b := order[j]
		var stored []byte // the block's own read buffer (ReaderAt)
		raw, err := x.readInto(st.offs[b], uint64(st.meta.Blocks[b].StoredLen), &stored)
		if err != nil {
			return s.wrap(sec("store"), fmt.Errorf("store block %d: %w", b, err))
		}
		p := &pend[j]
		p.b = b
		if p.buf, err = x.storeScratch(b); err != nil {
			return err
		}
		p.done = make(chan error, 1)
		go func() { p.done <- s.decodeAhead(p, raw) }()
		return nil
	}
	j := -1
	var cur *aheadBlock
	for i, id := range ids {
		if err := x.check(); err != nil {
			return err
		}
		if cur == nil || blocks[i] != cur.b {
			if cur != nil && cur.buf != nil {
				x.storeFree = append(x.storeFree, cur.buf)
				cur.buf = nil
			}
			j++
			for ; launched < len(order) && launched <= j+storeAhead; launched++ {
				if err := launch(launched); err != nil {
					return err
				}
			}
			cur = &pend[j]
			err := <-cur.done
			cur.done = nil
			if err != nil {
				return err
			}
		}
		k := int(id - st.first[cur.b])
		if err := fn(id, cur.d.plain[cur.d.ends[k]:cur.d.ends[k+1]]); err != nil {
			return err
		}
	}
	return nil
}

// decodeAhead decodes the stored bytes raw of p's block into p.d with a
// decoder of its own (a memory fault reading the mapping is an error).
func (s *Segment) decodeAhead(p *aheadBlock, raw []byte) (err error) {
	if s.guarding() {
		defer s.faultGuard(&err, nil, enableFaults())
	}
	z, err := s.dec.getStore()
	if err != nil {
		return err
	}
	defer s.dec.putStore(z)
	return s.decodeStored(z, p.b, raw, p.buf, &p.d)
}
