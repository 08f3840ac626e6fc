package merge

import (
	"context"
	"fmt"

	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/sorted"
	"github.com/snii-go/snii/reader"
)

// advanceRatio: a term of a source with deletes has its survivors counted by
// skipping to each deleted id when df exceeds advanceRatio times the deleted
// ids, and by walking its doc ids otherwise.
const advanceRatio = 8

// counts are the postings and positions a pass streamed.
type counts struct {
	postings, positions uint64
}

// cursor is one source's term stream of one field, as a
// writer.PostingSource: its terms in byte order, each with the df of its
// surviving documents, and their postings with doc ids remapped to the
// destination's. Terms without survivors are skipped. The TermIter is
// opened at the first NextTerm and closed at the end, so only the cursors
// of the field being written hold read state.
type cursor struct {
	ctx   context.Context
	src   *source
	field string
	base  uint32 // destination id of the source's first surviving doc
	n     *counts

	it    *reader.TermIter
	term  []byte // the current term (AppendTerm's buffer)
	p     *reader.Postings
	ticks int
	done  bool
}

func (c *cursor) fail(err error) error {
	c.close()
	c.done = true
	return err
}

func (c *cursor) termErr(err error) error {
	if !errs.Placed(err) {
		err = fmt.Errorf("index %q, term %q: %w", c.field, c.it.Term(), err)
	}
	return c.fail(c.src.wrap(err))
}

func (c *cursor) NextTerm() ([]byte, uint64, bool, error) {
	if c.done {
		return nil, 0, false, nil
	}
	if c.it == nil {
		it, err := c.src.seg.TermIter(c.ctx, c.field)
		if err != nil {
			return nil, 0, false, c.fail(c.src.wrap(err))
		}
		c.it = it
	}
	for c.it.Next() {
		if c.ticks++; c.ticks&255 == 0 {
			if err := c.ctx.Err(); err != nil {
				return nil, 0, false, c.fail(err)
			}
		}
		df := c.it.DF()
		if c.src.del != nil {
			gone, err := c.deleted(df)
			if err != nil {
				return nil, 0, false, c.termErr(err)
			}
			if gone > df {
				return nil, 0, false, c.termErr(errs.Corruptf("%d deleted documents in postings of df %d", gone, df))
			}
			if df -= gone; df == 0 {
				continue
			}
		}
		p, err := c.it.Postings()
		if err != nil {
			return nil, 0, false, c.termErr(err)
		}
		c.p = p
		c.term = c.it.AppendTerm(c.term[:0])
		return c.term, df, true, nil
	}
	if err := c.it.Err(); err != nil {
		if !errs.Placed(err) {
			err = fmt.Errorf("index %q: %w", c.field, err)
		}
		return nil, 0, false, c.fail(c.src.wrap(err))
	}
	c.close()
	c.done = true
	return nil, 0, false, nil
}

// deleted counts the deleted documents in the current term's postings (a
// doc-id-only pass; positions are not decoded).
func (c *cursor) deleted(df uint64) (uint64, error) {
	p, err := c.it.Postings()
	if err != nil {
		return 0, err
	}
	del := c.src.del
	var n uint64
	if ids := del.ids; df > advanceRatio*uint64(len(ids)) {
		for j := 0; j < len(ids); {
			if !p.Advance(ids[j]) {
				break
			}
			if d := p.Doc(); d == ids[j] {
				n++
				j++
			} else {
				j = sorted.SeekGE(ids, j, d)
			}
		}
	} else {
		for p.Next() {
			if del.has(p.Doc()) {
				n++
			}
		}
	}
	return n, p.Err()
}

func (c *cursor) NextDoc() (uint32, []uint32, bool, error) {
	if c.p == nil {
		return 0, nil, false, nil
	}
	del := c.src.del
	for c.p.Next() {
		d := c.p.Doc()
		if del != nil && del.has(d) {
			continue
		}
		pos, err := c.p.Positions()
		if err != nil {
			return 0, nil, false, c.termErr(err)
		}
		if del != nil {
			d -= del.rank(d)
		}
		c.n.postings++
		c.n.positions += uint64(len(pos))
		return c.base + d, pos, true, nil
	}
	if err := c.p.Err(); err != nil {
		return 0, nil, false, c.termErr(err)
	}
	c.p = nil
	return 0, nil, false, nil
}

// close releases the cursor's term iterator.
func (c *cursor) close() {
	if c.it != nil {
		c.it.Close()
		c.it = nil
	}
	c.p = nil
}
