package writer

import (
	"bytes"
	"container/heap"
	"math"

	"github.com/snii-go/snii/internal/errs"
)

// mergeSource merges several PostingSources of one field by term
// bytes. The sources hold disjoint, ascending doc ranges in source order
// (source k holds earlier documents than source k+1: spilled runs in spill
// order, then the in-memory remainder; or, for compaction, the remapped
// segments in order), so a term's postings are the concatenation of its
// postings in every source that has it, in source order, and its df is the
// sum of theirs.
type mergeSource struct {
	h      cursorHeap
	active []*cursor // sources holding the current term, in source order
	cur    int       // index in active of the source being read
	term   []byte
	df     uint64
	served uint64
	last   int64 // last doc id served for the current term, -1 before the first
	init   bool
}

type cursor struct {
	src  PostingSource
	ord  int
	term []byte
	df   uint64
}

type cursorHeap []*cursor

func (h cursorHeap) Len() int { return len(h) }
func (h cursorHeap) Less(i, j int) bool {
	if c := bytes.Compare(h[i].term, h[j].term); c != 0 {
		return c < 0
	}
	return h[i].ord < h[j].ord
}
func (h cursorHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *cursorHeap) Push(x any)   { *h = append(*h, x.(*cursor)) }
func (h *cursorHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return c
}

// MergeSources returns a PostingSource that merges srcs by term bytes, for
// compaction: srcs must hold disjoint doc ranges in order (every doc of
// source k precedes every doc of source k+1, e.g. segments with their doc
// ids shifted by the docs of the segments before them). A term's postings
// are those of every source holding it, concatenated in source order, and
// its df is the sum of theirs. A source out of order (terms not ascending,
// docs overlapping the previous source's) is reported as an error wrapping
// snii.ErrCorrupt.
func MergeSources(srcs ...PostingSource) PostingSource { return newMergeSource(srcs) }

// newMergeSource merges srcs (in doc order). With a single source the
// caller may use it directly; the merge checks order either way.
func newMergeSource(srcs []PostingSource) *mergeSource {
	m := &mergeSource{}
	for i, s := range srcs {
		m.active = append(m.active, &cursor{src: s, ord: i})
	}
	return m
}

// advance moves every active cursor to its next term and pushes it back.
func (m *mergeSource) advance() error {
	for _, c := range m.active {
		term, df, ok, err := c.src.NextTerm()
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if df == 0 {
			return errs.Corruptf("writer: merge source %d: term %q with df 0", c.ord, term)
		}
		if c.term != nil && bytes.Compare(term, c.term) <= 0 {
			return errs.Corruptf("writer: merge source %d: term %q after %q", c.ord, term, c.term)
		}
		c.term = append(c.term[:0], term...)
		if c.term == nil {
			c.term = []byte{}
		}
		c.df = df
		heap.Push(&m.h, c)
	}
	m.active = m.active[:0]
	return nil
}

func (m *mergeSource) NextTerm() ([]byte, uint64, bool, error) {
	if m.init && m.served != m.df {
		// Drain the rest of the current term (the emitter always reads it all).
		for {
			_, _, ok, err := m.NextDoc()
			if err != nil {
				return nil, 0, false, err
			}
			if !ok {
				break
			}
		}
	}
	m.init = true
	if err := m.advance(); err != nil {
		return nil, 0, false, err
	}
	if m.h.Len() == 0 {
		return nil, 0, false, nil
	}
	first := heap.Pop(&m.h).(*cursor)
	m.active = append(m.active, first)
	m.df = first.df
	for m.h.Len() > 0 && bytes.Equal(m.h[0].term, first.term) {
		c := heap.Pop(&m.h).(*cursor)
		m.active = append(m.active, c)
		if m.df > math.MaxUint64-c.df {
			return nil, 0, false, errs.Corruptf("writer: merge: term %q: df overflows", first.term)
		}
		m.df += c.df
	}
	m.term = append(m.term[:0], first.term...)
	m.cur, m.served, m.last = 0, 0, -1
	return m.term, m.df, true, nil
}

func (m *mergeSource) NextDoc() (uint32, []uint32, bool, error) {
	for m.cur < len(m.active) {
		c := m.active[m.cur]
		doc, pos, ok, err := c.src.NextDoc()
		if err != nil {
			return 0, nil, false, err
		}
		if !ok {
			m.cur++
			continue
		}
		if int64(doc) <= m.last {
			return 0, nil, false, errs.Corruptf("writer: merge: term %q: doc %d after doc %d (source %d)", m.term, doc, m.last, c.ord)
		}
		m.last = int64(doc)
		m.served++
		return doc, pos, true, nil
	}
	if m.served != m.df {
		return 0, nil, false, errs.Corruptf("writer: merge: term %q: %d postings, df says %d", m.term, m.served, m.df)
	}
	return 0, nil, false, nil
}
