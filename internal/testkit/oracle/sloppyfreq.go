package oracle

// SloppyFreq returns the sloppy frequency Lucene 8 scores a sloppy phrase with
// in a document (seq: the term id at each position): the sum of 1/(1+length)
// over the matches its sloppy matcher enumerates. This is a plain
// transcription of that enumeration, written for the tests apart from the
// reader's matcher: phrase offset i walks the positions of term ids[i] (the
// k-th offset of a repeated term starting on the term's k-th position); each
// round takes the offset whose relative position (position − offset; ties:
// the smaller offset) is least, notes length = largest relative position so
// far − its relative position, and advances it — moving on, of two offsets of
// one term meeting on one position, the lesser — while it stays at or below
// the next least, keeping the smallest length; when it passes the next least
// the round ends, a match if length <= slop. When an offset runs out of
// positions, the last round counts if its length is <= slop, and the
// enumeration ends. 0 when some term is missing.
func SloppyFreq(ids []int32, seq []int32, slop int) float64 {
	type off struct {
		term int32
		list []int
		i, k int
	}
	offs := make([]*off, len(ids))
	seen := map[int32]int{}
	for k, id := range ids {
		o := &off{term: id, k: k}
		for p, t := range seq {
			if t == id {
				o.list = append(o.list, p)
			}
		}
		o.i = seen[id]
		seen[id]++
		if o.i >= len(o.list) {
			return 0
		}
		offs[k] = o
	}
	rel := func(o *off) int { return o.list[o.i] - o.k }
	lessOff := func(a, b *off) bool { return rel(a) < rel(b) || rel(a) == rel(b) && a.k < b.k }
	end := rel(offs[0])
	for _, o := range offs {
		end = max(end, rel(o))
	}
	queue := append([]*off(nil), offs...)
	least := func() int {
		b := 0
		for j := range queue {
			if lessOff(queue[j], queue[b]) {
				b = j
			}
		}
		return b
	}
	pop := func() *off {
		b := least()
		o := queue[b]
		queue = append(queue[:b], queue[b+1:]...)
		return o
	}
	// step advances o; false when it has no position left.
	step := func(o *off) bool {
		if o.i+1 >= len(o.list) {
			return false
		}
		o.i++
		end = max(end, rel(o))
		return true
	}
	var freq float64
	for {
		o := pop()
		length := end - rel(o)
		next := rel(queue[least()])
		matched := false
	walk:
		for step(o) {
			// Separate o from the other offsets of its term on its position.
			for cur := o; ; {
				var other *off
				for _, x := range offs {
					if x != cur && x.term == cur.term && x.list[x.i] == cur.list[cur.i] {
						other = x
						break
					}
				}
				if other == nil {
					break
				}
				if lessOff(other, cur) {
					cur = other
				}
				if !step(cur) {
					break walk
				}
			}
			if rel(o) > next {
				queue = append(queue, o)
				if length <= slop {
					matched = true
					break
				}
				o = pop()
				next = rel(queue[least()])
				length = end - rel(o)
			} else {
				length = min(length, end-rel(o))
			}
		}
		if matched {
			freq += 1 / (1 + float64(length))
			continue
		}
		if length <= slop {
			freq += 1 / (1 + float64(length))
		}
		return freq
	}
}
