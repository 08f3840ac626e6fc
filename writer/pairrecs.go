package writer

import "math/bits"

// pairRecs holds the (pair, doc) records of the pair counting. While the
// tracked terms number at most 2^16 and the records fit its memory share, a
// record is one uint64, key<<32 | doc with key = a·terms + b (the pairs'
// order), sorted by a stable radix sort of the key alone (docs arrive
// ascending). Otherwise the records go to an external sorter (k = a<<32 | b,
// v = doc) that spills sorted runs. Both give the same groups.
type pairRecs struct {
	mem    []uint64
	terms  uint64 // the key's base (0: the external sorter from the start)
	limit  int    // records in memory
	ext    *extSorter
	newExt func() *extSorter
	// scratch, when at least as long as mem, is the sort's scratch
	scratch []uint64
}

func newPairRecs(terms int, limitBytes int64, newExt func() *extSorter) *pairRecs {
	// 8 bytes a record, and as much again for the sort's scratch.
	r := &pairRecs{limit: int(max(limitBytes/16, 1024)), newExt: newExt}
	if terms <= 1<<16 {
		r.terms = uint64(max(terms, 1))
	} else {
		r.ext = newExt()
	}
	return r
}

// reserve sizes the in-memory records for n up front (at most the limit).
func (r *pairRecs) reserve(n uint64) {
	if r.ext == nil && cap(r.mem) == 0 && n > 0 {
		r.mem = make([]uint64, 0, min(n, uint64(r.limit)))
	}
}

// add adds the record (pair a<<32 | b, doc); docs must not descend.
func (r *pairRecs) add(id uint64, doc uint32) error {
	if r.ext != nil {
		return r.ext.add(id, doc)
	}
	if len(r.mem) >= r.limit {
		r.ext = r.newExt()
		for _, x := range r.mem {
			k := x >> 32
			if err := r.ext.add((k/r.terms)<<32|k%r.terms, uint32(x)); err != nil {
				return err
			}
		}
		r.mem = nil
		return r.ext.add(id, doc)
	}
	if len(r.mem) == cap(r.mem) { // grow by doubling, never past the limit
		nm := make([]uint64, len(r.mem), min(max(2*cap(r.mem), 1024), r.limit))
		copy(nm, r.mem)
		r.mem = nm
	}
	r.mem = append(r.mem, ((id>>32)*r.terms+uint64(uint32(id)))<<32|uint64(doc))
	return nil
}

// pairID returns the pair a<<32 | b of an in-memory record.
func (r *pairRecs) pairID(x uint64) uint64 {
	k := x >> 32
	return (k/r.terms)<<32 | k%r.terms
}

// sortMem sorts the in-memory records by key, keeping the docs' order within
// a key: LSD radix with digits of at most 11 bits over the key's bits.
func (r *pairRecs) sortMem() {
	n := len(r.mem)
	if n < 2 {
		return
	}
	keyBits := bits.Len64(r.terms*r.terms - 1)
	passes := (keyBits + 10) / 11
	if passes == 0 {
		return
	}
	digit := uint((keyBits + passes - 1) / passes)
	dst := r.scratch
	if cap(dst) < n {
		dst = make([]uint64, n)
	}
	src, dst := r.mem, dst[:n]
	r.scratch = nil
	mask := uint64(1)<<digit - 1
	var counts [3][1 << 11]int // one histogram per digit (at most 3: keys < 2^32), in one pass
	for _, x := range src {
		k := x >> 32
		counts[0][k&mask]++
		counts[1][k>>digit&mask]++
		counts[2][k>>(2*digit)&mask]++
	}
	for p := 0; p < passes; p++ {
		shift := 32 + uint(p)*digit
		count := &counts[p]
		sum := 0
		for i := range count[:mask+1] {
			count[i], sum = sum, sum+count[i]
		}
		for _, x := range src {
			d := x >> shift & mask
			dst[count[d]] = x
			count[d]++
		}
		src, dst = dst, src
	}
	r.mem = src
}
