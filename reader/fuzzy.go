package reader

import (
	"bytes"
	"unicode/utf8"

	"github.com/snii-go/snii/internal/codec/format"
)

// scanFuzzy calls fn with the terms of f within maxEdits of q, in byte order,
// at most max of them (0: all), until fn returns false or an error.
func (f *field) scanFuzzy(x *qctx, q []rune, maxEdits, max int, fn func(term []byte, e *format.Entry) (bool, error)) error {
	m := newEditRows(q, maxEdits)
	blocks := f.meta.Blocks
	var dead []byte // the terms starting with it are all too far
	n := 0
	var e format.Entry
	for bi := range blocks {
		if f.farBlock(m, bi) {
			continue
		}
		if err := x.check(); err != nil {
			return err
		}
		b, err := f.block(x, bi)
		if err != nil {
			return err
		}
		it := b.Iter()
		for {
			term, ok, err := it.Next(&e)
			if err != nil {
				return f.seg.wrap(f.blockName(bi), err)
			}
			if !ok {
				break
			}
			if len(dead) > 0 && bytes.HasPrefix(term, dead) {
				continue
			}
			d, deadAt := m.distance(term)
			dead = dead[:0]
			if deadAt >= 0 {
				if p := term[:deadAt]; len(wholeRunes(p)) == deadAt {
					dead = append(dead, p...)
				} // else the prefix's last character depends on what follows
				continue
			}
			if d > maxEdits {
				continue
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

// farBlock reports whether every term of dict block bi is too far from m's
// query: they all start with the common prefix of its first term and the next
// block's (in the sampled index), and that prefix is too far.
func (f *field) farBlock(m *editRows, bi int) bool {
	ft := f.meta.FirstTerms
	if bi+1 >= len(ft) {
		return false
	}
	cp := commonPrefix(ft[bi], ft[bi+1])
	if len(cp) == 0 {
		return false
	}
	_, deadAt := m.distance(cp)
	return deadAt >= 0
}

// commonPrefix returns the longest common prefix of a and b that every
// string starting with it decodes alike (see wholeRunes).
func commonPrefix(a, b []byte) []byte {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return wholeRunes(a[:n])
}

// wholeRunes returns p without a last rune that p holds only in part (a lead
// byte missing continuation bytes), which the bytes after p decide: the
// characters of any string starting with the result start with its own.
func wholeRunes(p []byte) []byte {
	i := len(p) - 1
	for i > 0 && !utf8.RuneStart(p[i]) {
		i--
	}
	if i >= 0 && !utf8.FullRune(p[i:]) {
		return p[:i]
	}
	return p
}

// editRows computes optimal string alignment distances to a fixed query for
// a sequence of terms in byte order, keeping the rows of the distance table
// of the previous term: row i holds the distances between the term's first i
// characters and every prefix of the query.
type editRows struct {
	q        []rune
	maxEdits int
	term     []rune  // the previous term's characters (as far as rows were kept)
	rows     [][]int // rows[i], for i <= len(term)
	mins     []int   // mins[i]: the least value of rows[i]
	dead     bool    // the last row is of a prefix too far for any continuation
}

func newEditRows(q []rune, maxEdits int) *editRows {
	r0 := make([]int, len(q)+1)
	for j := range r0 {
		r0[j] = j
	}
	return &editRows{q: q, maxEdits: maxEdits, rows: [][]int{r0}, mins: []int{0}}
}

// distance returns the distance between term and the query, and deadAt = -1;
// or, when a prefix of term cannot be brought within maxEdits by any
// continuation, deadAt = the byte length of that prefix (and no distance).
func (m *editRows) distance(term []byte) (d, deadAt int) {
	// Keep the rows of the characters shared with the previous term.
	k, off := 0, 0
	for k < len(m.term) && off < len(term) {
		r, size := utf8.DecodeRune(term[off:])
		if r != m.term[k] {
			break
		}
		off += size
		k++
	}
	if m.dead && k == len(m.term) { // the previous term's dead prefix
		return 0, off
	}
	m.term, m.dead = m.term[:k], false
	m.rows, m.mins = m.rows[:k+1], m.mins[:k+1]
	q := m.q
	for off < len(term) {
		r, size := utf8.DecodeRune(term[off:])
		off += size
		m.term = append(m.term, r)
		i := len(m.term)
		prev := m.rows[i-1]
		row := m.newRow()
		row[0] = i
		least := i
		for j := 1; j <= len(q); j++ {
			cost := 1
			if q[j-1] == r {
				cost = 0
			}
			v := min(prev[j]+1, row[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && r == q[j-2] && m.term[i-2] == q[j-1] {
				v = min(v, m.rows[i-2][j-2]+1)
			}
			row[j] = v
			least = min(least, v)
		}
		m.rows = append(m.rows, row)
		m.mins = append(m.mins, least)
		// A later row is at least the least of this row and of the previous
		// one plus 1 (a transposition reaches back two rows).
		if least > m.maxEdits && m.mins[i-1]+1 > m.maxEdits {
			m.dead = true
			return 0, off
		}
	}
	return m.rows[len(m.term)][len(q)], -1
}

// newRow returns a row for the next character, reusing the storage of a row
// dropped earlier.
func (m *editRows) newRow() []int {
	if n := len(m.rows); n < cap(m.rows) {
		if r := m.rows[:n+1][n]; r != nil {
			return r
		}
	}
	return make([]int, len(m.q)+1)
}
