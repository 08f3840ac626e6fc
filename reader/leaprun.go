package reader

import "math"

// chainPair reports whether phraseLeapfrog counts or lists with leapChain:
// a chain plan over two terms, one of them the chain's one inner term (a
// phrase that repeats a term, as "a b a").
func chainPair(p *phrasePlan, ls []leap, inner []int) bool {
	return p.chain && len(ls) == 2 && len(inner) == 1
}

// leapChain is leapPlain for a chainPair phrase: from each doc nextCommon
// finds, the two leaps' decoded blocks are merged in one loop, and a common
// doc whose inner term occurs once (read in place from its parsed unit) is
// proved there; any other goes to leapVerify with the leaps put on it. The
// loop ends where either block does, and nextCommon goes on from there.
func (x *qctx) leapChain(p *phrasePlan, ls []leap, inner []int, mixed bool, out []uint32, countOnly bool) ([]uint32, int, error) {
	excl := p.excl
	ei, n, proved := 0, 0, 0
	defer func() { x.count.pairProved += int64(proved) }()
	in, lead := &ls[inner[0]], inner[0] == 0
	limit := x.limit
	target := uint32(0)
	for {
		if _, ok, err := x.nextCommon(ls, target); !ok || err != nil {
			return out, n, err
		}
		a, b := ls[0].c.docs, ls[1].c.docs
		i, k := ls[0].k, ls[1].k // a[i] == b[k]
		open, ord0 := in.open, in.c.ord0
		for {
			d := a[i]
			// The common case, with no call: d is below the next excluded
			// doc and its inner term occurs once.
			if open && (ei == len(excl) || d < excl[ei]) {
				o := k
				if lead {
					o = i
				}
				if in.t.cur.TF(ord0+o) == 1 {
					proved++
					n++
					if !countOnly {
						out = append(out, d)
					}
					if n == limit {
						return out, n, nil // SearchOptions.Limit: the lowest ids are found
					}
					goto next
				}
			}
			// Not when d lacks a kept pair (excl, walked forward by index).
			if !excluded(excl, &ei, d) {
				ls[0].k, ls[1].k = i, k
				ok, err := x.leapVerify(p, ls, inner, mixed)
				if err != nil {
					return out, n, err
				}
				open = in.open
				if ok {
					n++
					if !countOnly {
						out = append(out, d)
					}
					if n == limit {
						return out, n, nil
					}
				}
			}
		next:
			// The blocks' next common doc: b walked to each doc of a,
			// a to the doc of b it lands on.
			if i++; i == len(a) {
				break
			}
			for {
				d := a[i]
				for k < len(b) && b[k] < d {
					k++
				}
				if k == len(b) || b[k] == d {
					break
				}
				e := b[k]
				for i++; i < len(a) && a[i] < e; i++ {
				}
				if i == len(a) {
					break
				}
			}
			if i == len(a) || k == len(b) {
				break
			}
		}
		ls[0].k, ls[1].k = i, k
		switch {
		case i < len(a):
			target = a[i] // beyond b's block
		case a[i-1] == math.MaxUint32:
			return out, n, nil
		default:
			target = a[i-1] + 1
		}
	}
}
