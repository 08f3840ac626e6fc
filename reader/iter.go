package reader

import (
	"context"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
)

// TermIter walks every term of one field in byte order, pull style,
// and gives the postings of the current term without a dictionary lookup. It
// is what a k-way merge of segments (compaction) reads: one iterator per
// source, advanced term by term.
//
// The iterator decodes one dict block at a time (blocks already in the
// segment's cache are used, others are decoded without entering it, so a
// full scan does not evict the blocks of running queries) and owns one query
// context: at most one block, one doc window and one .prx window are held at
// a time. A TermIter keeps the segment open until Close and is used by one
// goroutine.
type TermIter struct {
	s    *Segment
	f    *field
	x    *qctx
	bi   int           // index of the current block; -1 before the first
	blk  *format.Block // the current block
	it   format.BlockIter
	e    format.Entry
	term []byte // the current term (aliases the block iterator's key)
	t    *termRef
	p    Postings
	err  error
	done bool
}

// TermIter returns an iterator over every term of the named field;
// an unknown field is an snii.ErrNotFound error. Once ctx is done, Next
// returns false and Err returns ctx's error (checked at each dict block and,
// through its Postings, at each doc window). Close it when done.
func (s *Segment) TermIter(ctx context.Context, name string) (*TermIter, error) {
	f, err := s.field(name)
	if err != nil {
		return nil, err
	}
	if err := s.acquire(); err != nil {
		return nil, err
	}
	return &TermIter{s: s, f: f, x: s.getCtx(ctx, false), bi: -1}, nil
}

// Next moves to the next term; false at the end or on error (see Err).
func (it *TermIter) Next() (ok bool) {
	if it.done {
		return false
	}
	if it.s.guarding() {
		defer it.faultGuard(&ok, enableFaults())
	}
	// The previous term's resolved state (and its postings) are done with.
	x := it.x
	for i := 0; i < x.nterms; i++ {
		x.terms[i].reset()
	}
	x.nterms = 0
	it.t = nil
	it.p = Postings{docs: it.p.docs[:0], win: it.p.win} // keep the buffers
	for {
		if it.blk != nil {
			term, ok, err := it.it.Next(&it.e)
			if err != nil {
				return it.fail(it.s.wrap(it.f.blockName(it.bi), err))
			}
			if ok {
				it.term = term
				return true
			}
		}
		it.bi++
		if it.bi >= len(it.f.meta.Blocks) {
			it.done, it.blk, it.term = true, nil, nil
			return false
		}
		if err := x.ctx.Err(); err != nil {
			return it.fail(err)
		}
		b, err := it.block(it.bi)
		if err != nil {
			return it.fail(err)
		}
		it.blk = b
		it.it = b.Iter()
	}
}

// block returns dict block i: the cached one, or a fresh decode kept out of
// the cache.
func (it *TermIter) block(i int) (*format.Block, error) {
	if p := it.f.slots[i].Load(); p != nil {
		return &p.b, nil
	}
	cb, err := it.f.decodeBlock(it.x, i)
	if err != nil {
		return nil, err
	}
	return &cb.b, nil
}

func (it *TermIter) fail(err error) bool {
	it.err, it.done, it.blk, it.term = err, true, nil, nil
	return false
}

// Term returns the current term, as Segment.Terms yields it.
func (it *TermIter) Term() string { return string(it.term) }

// AppendTerm appends the current term to dst and returns the extended
// buffer: the current term without an allocation once dst is large enough
// (what a merge of many segments reads).
func (it *TermIter) AppendTerm(dst []byte) []byte { return append(dst, it.term...) }

// DF returns the current term's document frequency.
func (it *TermIter) DF() uint64 { return it.e.DF }

// Postings returns the postings of the current term, positioned before its
// first document. Each call starts over from the first document (a caller
// may count the documents in a first pass and read positions in a second).
// The Postings belong to the iterator: they are valid until the next call
// to Next or Postings, and closing them is a no-op.
func (it *TermIter) Postings() (*Postings, error) {
	if it.term == nil {
		return nil, errs.Invalidf("reader: TermIter.Postings without a current term")
	}
	if it.t == nil {
		t, err := it.resolve()
		if err != nil {
			it.err = err
			return nil, err
		}
		it.t = t
	}
	it.p = Postings{s: it.s, x: it.x, t: it.t, it: it.t.windows(0), i: -1, docs: it.p.docs[:0], win: it.p.win, owned: true}
	return &it.p, nil
}

// resolve resolves the current term (reading its prelude) under the fault
// guard.
func (it *TermIter) resolve() (_ *termRef, err error) {
	if it.s.guarding() {
		defer it.s.faultGuard(&err, it.x, enableFaults())
	}
	return it.x.resolved(it.f, it.term, &it.e)
}

// Err returns the first error met (nil at a normal end).
func (it *TermIter) Err() error { return it.err }

// Close releases the iterator's query context and its hold on the segment.
// Closing twice is a no-op.
func (it *TermIter) Close() {
	if it.x == nil {
		return
	}
	for i := 0; i < it.x.nterms; i++ {
		it.x.terms[i].reset()
	}
	it.x.nterms = 0
	it.s.putCtx(it.x)
	it.x = nil
	it.t, it.blk, it.term = nil, nil, nil
	it.p = Postings{}
	it.done = true
	it.s.release()
}
