package reader

import (
	"math/bits"
	"slices"

	"github.com/snii-go/snii/internal/sorted"
)

// gallopRatio is the size ratio from which intersections gallop (exponential
// search in the larger list) instead of merging.
const gallopRatio = 8

// seekGE is sorted.SeekGE, the gallop every intersection here uses.
func seekGE(a []uint32, lo int, x uint32) int { return sorted.SeekGE(a, lo, x) }

// intersect appends a ∩ b (both ascending, no duplicates) to dst. It gallops in
// the larger list when the sizes differ by gallopRatio or more.
func intersect(dst, a, b []uint32) []uint32 {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) == 0 {
		return dst
	}
	if len(a)*gallopRatio <= len(b) {
		j := 0
		for _, x := range a {
			j = seekGE(b, j, x)
			if j == len(b) {
				break
			}
			if b[j] == x {
				dst = append(dst, x)
				j++
			}
		}
		return dst
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch x, y := a[i], b[j]; {
		case x < y:
			i++
		case x > y:
			j++
		default:
			dst = append(dst, x)
			i++
			j++
		}
	}
	return dst
}

// union appends a ∪ b (both ascending, no duplicates) to dst.
func union(dst, a, b []uint32) []uint32 {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch x, y := a[i], b[j]; {
		case x < y:
			dst = append(dst, x)
			i++
		case x > y:
			dst = append(dst, y)
			j++
		default:
			dst = append(dst, x)
			i++
			j++
		}
	}
	dst = append(dst, a[i:]...)
	return append(dst, b[j:]...)
}

// matchPhrase reports whether there is a start s such that, for every phrase
// position i, the ascending list lists[slotOf[i]] holds s+i: matchSome over
// every position of the phrase (offsets 0, 1, 2, ...). cur is scratch space of
// at least len(slotOf) ints.
func matchPhrase(lists [][]uint32, slotOf []int, cur []int) bool {
	var buf [32]uint32
	offs := buf[:0]
	if len(slotOf) > len(buf) {
		offs = make([]uint32, 0, len(slotOf)) // phrases of more than 32 terms only
	}
	for i := range slotOf {
		offs = append(offs, uint32(i))
	}
	return matchSome(lists, offs, slotOf, cur)
}

// matchSome reports whether there is a start s such that lists[sl[j]] holds
// s+offs[j] for every j (offs ascending, the phrase offsets of the positions
// checked). Over some of a phrase's positions it is a necessary condition for the
// whole phrase, used to drop candidates before the remaining slots are decoded.
// The search is anchored on the slot with the fewest positions: every position p
// of the anchor at offset offs[k] proposes s = p-offs[k], and every other position
// is checked with a forward-only galloping cursor (the proposals are ascending for
// a fixed k). cur is scratch space of at least len(offs) ints.
func matchSome(lists [][]uint32, offs []uint32, sl []int, cur []int) bool {
	if len(offs) == 2 && sl[0] != sl[1] {
		return matchDelta(lists[sl[0]], lists[sl[1]], offs[0], offs[1]-offs[0])
	}
	anchor := sl[0]
	for _, s := range sl[1:] {
		if len(lists[s]) < len(lists[anchor]) {
			anchor = s
		}
	}
	if len(lists[anchor]) == 0 {
		return false
	}
	// A slot that must occur more often than it does rules the doc out.
	var cntBuf [32]int
	var cnt []int
	if len(lists) <= len(cntBuf) {
		cnt = cntBuf[:len(lists)]
	} else {
		cnt = make([]int, len(lists))
	}
	for _, s := range sl {
		cnt[s]++
	}
	for s, c := range cnt {
		if c > len(lists[s]) {
			return false
		}
	}
	if cap(cur) < len(offs) {
		cur = make([]int, len(offs))
	}
	cur = cur[:len(offs)]
	// Every start is proposed by the anchor at its first offset: a valid start
	// s has s+offs[k] in the anchor's list for each of its offsets k, so one
	// offset enumerates them all (looping over every offset would make a
	// phrase repeating one word quadratic in its length).
	for k, sk := range sl {
		if sk != anchor {
			continue
		}
		for i := range cur {
			cur[i] = 0
		}
		ok := offs[k]
	starts:
		for _, p := range lists[anchor] {
			if p < ok {
				continue
			}
			s := p - ok
			for i, si := range sl {
				if i == k {
					continue
				}
				want := s + offs[i]
				if want < s { // overflow: no later start fits either
					break starts
				}
				l := lists[si]
				c := seekGE(l, cur[i], want)
				cur[i] = c
				if c == len(l) {
					break starts
				}
				if l[c] != want {
					continue starts
				}
			}
			return true
		}
		return false // one anchor offset enumerated every start
	}
	return false
}

// matchDelta reports whether some p >= oa in a has p+d in b, by galloping in the
// longer list (a two-term phrase is matchDelta(a, b, 0, 1)).
func matchDelta(a, b []uint32, oa, d uint32) bool {
	if len(a) <= len(b) {
		j := 0
		for _, p := range a {
			if p < oa {
				continue
			}
			if p > 1<<32-1-d {
				return false
			}
			j = seekGE(b, j, p+d)
			if j == len(b) {
				return false
			}
			if b[j] == p+d {
				return true
			}
		}
		return false
	}
	i := 0
	for _, q := range b {
		if q < oa+d {
			continue
		}
		i = seekGE(a, i, q-d)
		if i == len(a) {
			return false
		}
		if a[i] == q-d {
			return true
		}
	}
	return false
}

// docSet collects the union of ascending doc lists: small totals are sorted,
// larger ones go through a bitset of the segment's documents (its words are
// cleared as they are read, so the set is reusable without a full clear).
type docSet struct {
	bits     []uint64
	lo, hi   int // words touched: bits[lo:hi]
	buf      []uint32
	inBits   bool
	nLists   int
	docCount uint32
}

// reset starts a union over docs below docCount.
func (u *docSet) reset(docCount uint32) {
	if u.inBits { // an earlier union ended early (an error)
		clear(u.bits[u.lo:u.hi])
	}
	u.buf = u.buf[:0]
	u.inBits = false
	u.nLists = 0
	u.docCount = docCount
}

// add adds an ascending list of docs (< docCount).
func (u *docSet) add(docs []uint32) {
	if len(docs) == 0 {
		return
	}
	u.nLists++
	if !u.inBits {
		u.buf = append(u.buf, docs...)
		// Sorting n docs costs about n log n; the bitset about n plus a pass over
		// docCount/64 words: switch once the buffer is large enough.
		if u.nLists > 1 && len(u.buf) >= 256 && len(u.buf)*8 >= int(u.docCount/64) {
			u.toBits()
		}
		return
	}
	u.setAll(docs)
}

func (u *docSet) toBits() {
	words := int(u.docCount+63) / 64
	if cap(u.bits) < words {
		u.bits = make([]uint64, words)
	}
	u.bits = u.bits[:words]
	u.inBits = true
	b := u.bits
	for _, d := range u.buf { // several lists: not sorted
		b[d>>6] |= 1 << (d & 63)
	}
	u.lo, u.hi = 0, words
	u.buf = u.buf[:0]
}

// setAll adds one ascending list.
func (u *docSet) setAll(docs []uint32) {
	b := u.bits
	for _, d := range docs {
		b[d>>6] |= 1 << (d & 63)
	}
	u.lo = min(u.lo, int(docs[0]>>6))
	u.hi = max(u.hi, int(docs[len(docs)-1]>>6)+1)
}

// appendTo appends the union, ascending and without duplicates, to dst.
func (u *docSet) appendTo(dst []uint32) []uint32 {
	if !u.inBits {
		if u.nLists <= 1 {
			return append(dst, u.buf...)
		}
		n := len(dst)
		dst = append(dst, u.buf...)
		slices.Sort(dst[n:])
		return dst[:n+len(slices.Compact(dst[n:]))]
	}
	b := u.bits
	for i := u.lo; i < u.hi; i++ {
		w := b[i]
		if w == 0 {
			continue
		}
		b[i] = 0
		base := uint32(i) << 6
		for w != 0 {
			dst = append(dst, base+uint32(bits.TrailingZeros64(w)))
			w &= w - 1
		}
	}
	u.inBits = false
	return dst
}

// difference appends to dst the elements of a (ascending) not in b (ascending).
func difference(dst, a, b []uint32) []uint32 {
	j := 0
	for _, v := range a {
		for j < len(b) && b[j] < v {
			j++
		}
		if j < len(b) && b[j] == v {
			continue
		}
		dst = append(dst, v)
	}
	return dst
}
