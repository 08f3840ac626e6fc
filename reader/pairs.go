package reader

import (
	"bytes"
	"fmt"

	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/codec/format"
)

// Pair planning. A field may hold docs-only postings of adjacent term
// pairs (docs/FORMAT.md "Pair section"): the docs where term a is at some
// position p and term b at p+1 of one value, as a list, or (format 5) as the
// complement: the docs holding both terms less listed exceptions. So:
//
//   - a two-term phrase "a b" matches exactly the pair's docs: Count is its df,
//     Docs its list or its terms' docs less its exceptions, and no position is
//     read;
//   - a longer phrase matches only docs in every kept pair of adjacent terms
//     it contains, so the intersection of those lists is a candidate filter
//     for the usual plan (which still verifies positions), used when its
//     rarest term is in at least pairPlanMinDocs documents and its rarest
//     kept list in at most pairPlanPercent% of them; a complement's
//     exceptions are dropped from the candidates (which hold both its terms
//     anyway); when every pair is kept, a chain (chainProves).
//
// A pair missing from the section says nothing (the writer keeps a budgeted
// selection), so a phrase without kept pairs runs the plain plan.

// pairPlanPercent: a longer phrase uses its pairs only when the smallest pair
// list holds at most this percent of the rarest term's docs (the candidates
// it would otherwise start from): decoding the pair lists must buy fewer
// position checks.
const pairPlanPercent = 85

// pairPlanMinDocs: a longer phrase whose rarest term is in fewer documents
// runs the plain plan without looking at pairs (its few candidates are
// checked faster than pair lists are found and intersected).
const pairPlanMinDocs = 32

// pairInclFactor: a leapfrog whose pairs form no chain takes the docs of
// list-form pairs that narrow little as the documents that can match (for
// the couples they make hold) only when no list is more than this many times
// the rarest term's docs: decoding a list costs about as much as walking as
// many of a term's docs. (Agent logs x4: `example here are some thoughts`
// reads two terms' positions instead of four.)
const pairInclFactor = 4

// pairTable returns f's pair section, read and opened at its first use (not
// at Open, which reads only the metadata): a table with no pairs when the field
// has none. Concurrent first uses may both read it; one table is kept.
func (f *field) pairTable(x *qctx) (*format.PairTable, error) {
	if t := f.pairs.Load(); t != nil {
		return t, nil
	}
	m := &f.meta
	var t *format.PairTable
	var err error
	if m.PairCount == 0 {
		t, err = format.OpenPairTable(nil, 0, m.DocCount)
	} else {
		var buf []byte // kept with the table for the segment's life
		var sec []byte
		if sec, err = x.readInto(m.PairsOff, m.PairsLen, &buf); err == nil {
			t, err = format.OpenPairTable(sec, m.PairCount, m.DocCount)
		}
	}
	if err != nil {
		return nil, x.pairErr(f, err)
	}
	f.pairs.Store(t)
	return t, nil
}

// remotePairsMax is the largest pair section a segment on an objstore.ReaderAt
// reads: the section is read whole before its first lookup, which a query of
// a larger one would fetch for a few entries.
const remotePairsMax = 256 << 10

// remotePairs reports whether the query may use f's pairs: always on a local
// segment; on a remote one when the section is read already or small.
func (f *field) remotePairs(x *qctx) bool {
	return x.s.remote() == nil || f.meta.PairsLen <= remotePairsMax || f.pairs.Load() != nil
}

// pairEntry looks up pair (a, b) of f: one binary search in the section.
func (x *qctx) pairEntry(f *field, a, b string) (format.PairEntry, bool, error) {
	if f.meta.PairCount == 0 {
		return format.PairEntry{}, false, nil
	}
	pt, err := f.pairTable(x)
	if err != nil {
		return format.PairEntry{}, false, err
	}
	i, err := pt.Find(bytesOf(a), bytesOf(b))
	if err != nil || i < 0 {
		return format.PairEntry{}, false, x.pairErr(f, err)
	}
	x.count.pairLookups++
	e, err := pt.Entry(i)
	if err != nil {
		return format.PairEntry{}, false, x.pairErr(f, err)
	}
	return e, true, nil
}

func (x *qctx) pairErr(f *field, err error) error {
	if err == nil {
		return nil
	}
	return x.s.wrap(place{section: "pairs", index: f.meta.Name, window: -1}, err)
}

// pairDocs decodes the docs e's window lists into a context buffer: the
// pair's docs (list form) or its exceptions (complement form).
func (x *qctx) pairDocs(f *field, e *format.PairEntry) ([]uint32, error) {
	docs, err := e.Listed(x.buf())
	if err != nil {
		x.put(docs)
		return nil, x.pairErr(f, err)
	}
	x.count.pairDocs += int64(len(docs))
	return docs, nil
}

// pairUse is what a phrase plan takes from the kept pairs of its adjacent
// terms: chain, the candidates are in the docs of every adjacent pair (see
// chainProves), and excl, the documents that hold both terms of a
// complement-form pair but not the pair (ascending): none of them matches.
type pairUse struct {
	chain bool
	excl  []uint32
	// incl, when on: the docs of the kept list-form pairs, for a leapfrog
	// plan whose lists narrow little: only they can match.
	incl docFilter
	// holds: bit k set when the pair of phrase terms k and k+1 holds in every
	// candidate the plan verifies (its list bounds them, or its exceptions
	// are dropped): see impliedSlots.
	holds uint64
}

// How a phrase uses its pairs (pairCandidates).
const (
	planPlain   = iota // no pair
	planFilter         // the candidates are given
	planExclude        // the plain plan, without the excluded documents
)

// chainProves reports whether candidate d (number ci) of a chain plan (p.chain: d is in
// the list of every adjacent pair of the phrase) matches from term
// frequencies alone: when each inner phrase term (not the first, not the
// last) occurs in the document as many times as in the phrase (once, or
// twice for an adjacent double: see innerDoubles). Then pair (t[i-1], t[i])
// puts t[i-1] right before t[i]'s one position and pair (t[i], t[i+1])
// puts t[i+1] right after it; from t[1] on, each next term's one position
// follows, so the phrase occurs at t[1]'s position minus 1. A double "b b"
// that occurs twice is at p and p+1 (its pair), and its neighbours' pairs
// put them at p-1 and p+2: at p or p+1 they would share a position with b.
// Only the inner terms' tf columns are read: the first and last terms'
// windows are not touched.
func (x *qctx) chainProves(p *phrasePlan, d uint32, ci int) (bool, error) {
	n := len(p.slotOf)
	for i := 1; i < n-1; i++ {
		s := &p.slots[p.slotOf[i]]
		t := s.terms[0]
		k := termIndex(t, d, ci)
		tf := parsedTF(t, k, x.jobs)
		if tf == 0 {
			var err error
			if tf, err = x.seekTerm(t, k); err != nil {
				return false, err
			}
		}
		if tf != len(s.offs) {
			return false, nil
		}
	}
	x.count.pairProved++
	return true, nil
}

// phraseFromPair answers the two-term phrase q from its pair e: from its
// list, or, in the complement form, as the documents holding both terms but
// for e's exceptions (a chain of one pair: no position is read).
func (x *qctx) phraseFromPair(f *field, q *phraseQuery, e *format.PairEntry, filter docFilter, out []uint32, countOnly bool) ([]uint32, int, error) {
	x.count.pairPlans++
	if x.profile {
		before, err := x.minTermDF(f, q.terms)
		if err != nil {
			return out, 0, err
		}
		x.count.pairBefore += int64(before)
		x.count.pairAfter += int64(e.DF)
	}
	if countOnly && !filter.on {
		return out, int(e.DF), nil
	}
	if e.Complement() {
		excl, err := x.pairDocs(f, e)
		if err != nil {
			return out, 0, err
		}
		defer x.put(excl)
		return x.phrasePlain(f, q, filter, pairUse{chain: true, excl: excl}, out, countOnly)
	}
	docs, err := x.pairDocs(f, e)
	if err != nil {
		return out, 0, err
	}
	defer x.put(docs)
	if filter.on {
		n0 := len(out)
		out = intersect(out, docs, filter.ids)
		n := len(out) - n0
		if countOnly {
			out = out[:n0]
		}
		return out, n, nil
	}
	if !countOnly {
		out = append(out, docs...)
	}
	return out, len(docs), nil
}

// minTermDF returns the smallest df of terms (0 when one is absent).
func (x *qctx) minTermDF(f *field, terms []string) (uint64, error) {
	best := uint64(x.s.docCount)
	for _, t := range terms {
		e, err := x.lookupEntry(f, t)
		if err != nil || e == nil {
			return 0, err
		}
		best = min(best, e.DF)
	}
	return best, nil
}

// pairCandidates plans a phrase of at least three exact terms with the kept
// pairs of its adjacent terms (within filter). A list-form pair's docs bound
// the candidates; a complement-form pair excludes its exceptions (the
// candidates hold both its terms anyway). plan is planFilter with the
// intersection of the lists, less the exceptions, as cands, when some list is
// kept and narrows the candidates enough (see pairPlanPercent) or every pair
// is kept; planExclude with use.excl when only exceptions are left to use;
// planPlain when no pair is kept (then no dictionary probe was spent) or the
// rarest term is in fewer than pairPlanMinDocs documents. use.chain is true
// when every adjacent pair of an exact phrase (prefix false) is kept (see
// chainProves).
func (x *qctx) pairCandidates(f *field, terms []string, filter docFilter, prefix bool) (cands []uint32, use pairUse, plan int, err error) {
	var es, cs [8]format.PairEntry
	lists, comps := es[:0], cs[:0]
	kept := 0
	var listBits, compBits uint64 // the couples kept, by form (bit k: terms k, k+1)
	for i := 0; i+1 < len(terms); i++ {
		e, ok, err := x.pairEntry(f, terms[i], terms[i+1])
		if err != nil {
			return nil, use, planPlain, err
		}
		if ok {
			kept++
			switch {
			case i >= 64: // beyond the masks
			case e.Complement():
				compBits |= 1 << i
			default:
				listBits |= 1 << i
			}
		}
		if !ok || hasPair(lists, &e) || hasPair(comps, &e) {
			continue
		}
		if e.Complement() {
			comps = append(comps, e)
			continue
		}
		// Keep the lists in ascending df: the rarest leads the intersection.
		k := len(lists)
		lists = append(lists, e)
		for k > 0 && lists[k-1].DF > e.DF {
			lists[k] = lists[k-1]
			k--
		}
		lists[k] = e
	}
	if len(lists)+len(comps) == 0 {
		return nil, use, planPlain, nil // no dictionary probe spent
	}
	// A chain proves a candidate by the tfs of its inner terms: only when
	// each occurs once in the phrase, or in one adjacent double on a field
	// whose positions hold one term each (innerDoubles, chainProves). The
	// leapfrog proves only the once-occurring ones: a chain with a double
	// needs a list to filter the candidates by (planFilter below).
	doubles := innerRepeats(terms)
	use.chain = kept == len(terms)-1 && !prefix && (!doubles || (len(lists) > 0 && innerDoubles(terms) && f.distinctPositions()))
	if len(lists) == 0 && !use.chain {
		// Exceptions alone, which only drop documents. With none, the
		// pairs still hold in every candidate: a plan that only implies
		// terms (impliedSlots).
		// The terms' dfs (a dictionary probe each) are looked up only when
		// some pair's exceptions are many enough to be worth dropping.
		if x.profile || manyExceptions(comps) {
			minDF, err := x.minTermDF(f, terms)
			if err != nil {
				return nil, use, planPlain, err
			}
			if comps, compBits = sparseComps(terms, comps, compBits, minDF); len(comps) == 0 {
				return nil, use, planPlain, nil
			}
			x.count.pairBefore += int64(minDF)
			x.count.pairAfter += int64(minDF)
		}
		excl, err := x.exclusions(f, comps)
		if err != nil {
			x.put(excl)
			return nil, use, planPlain, err
		}
		x.count.pairPlans++
		use.holds = compBits
		cands, use, plan = x.exceptionPlan(filter, excl, use)
		return cands, use, plan, nil
	}
	minDF, err := x.minTermDF(f, terms)
	if err != nil {
		return nil, use, planPlain, err
	}
	if minDF < pairPlanMinDocs { // few candidates (or an absent term): the plain plan
		return nil, use, planPlain, nil
	}
	if !use.chain { // (a chain needs every pair, exceptions and all)
		comps, compBits = sparseComps(terms, comps, compBits, minDF)
	}
	// The leapfrog (a local segment, no filter, single terms) can check the
	// pairs' docs as it meets its candidates: lists that narrow little then
	// bound its candidates without leading it.
	leap := !filter.on && !prefix && x.s.remote() == nil
	narrow := len(lists) > 0 && lists[0].DF*100 <= minDF*pairPlanPercent
	withLists := true // the lists' docs are intersected
	switch {
	case narrow || (len(lists) > 0 && use.chain && (!leap || doubles)):
		// (A chain plan pays even when the lists narrow little: each
		// candidate whose inner terms occur once is decided without a
		// position; see chainProves. The leapfrog does not prove a double.)
		plan = planFilter
	case len(lists) > 0 && leap && (use.chain || lists[len(lists)-1].DF <= minDF*pairInclFactor):
		// The lists' docs as use.incl: only they can match, and in them the
		// lists' couples hold, so a term next to a once-occurring neighbour
		// across one of them is not read (impliedSlots); with a chain, the
		// inner terms' tf decides.
		plan = planExclude
	case len(comps) > 0:
		withLists = false
		// The lists, if any, are not used: no chain.
		use.chain = use.chain && len(lists) == 0
	default:
		return nil, use, planPlain, nil
	}
	excl, err := x.exclusions(f, comps)
	if err != nil {
		x.put(excl)
		return nil, use, planPlain, err
	}
	x.count.pairPlans++
	x.count.pairBefore += int64(minDF)
	use.holds = compBits
	if !withLists {
		x.count.pairAfter += int64(minDF)
		cands, use, plan = x.exceptionPlan(filter, excl, use)
		return cands, use, plan, nil
	}
	use.holds |= listBits
	cur, err := x.pairDocs(f, &lists[0])
	if err != nil {
		x.put(excl)
		return nil, use, planPlain, err
	}
	if filter.on {
		next := intersect(x.buf(), cur, filter.ids)
		x.put(cur)
		cur = next
	}
	for i := 1; i < len(lists) && len(cur) > 0; i++ {
		docs, err := x.pairDocs(f, &lists[i])
		if err != nil {
			x.put(cur)
			x.put(excl)
			return nil, use, planPlain, err
		}
		next := intersect(x.buf(), cur, docs)
		x.put(cur)
		x.put(docs)
		cur = next
	}
	if plan == planExclude { // the leapfrog checks the lists' docs and the exceptions
		use.incl, use.excl = only(cur), excl
		x.count.pairAfter += int64(len(cur))
		return nil, use, planExclude, nil
	}
	if len(excl) > 0 {
		next := difference(x.buf(), cur, excl)
		x.put(cur)
		cur = next
	}
	x.put(excl)
	x.count.pairAfter += int64(len(cur))
	return cur, use, planFilter, nil
}

// exceptionPlan plans a phrase whose pairs only drop documents (excl, a
// context buffer it takes): the filter less them bounds the candidates, or
// the plain walk skips them.
func (x *qctx) exceptionPlan(filter docFilter, excl []uint32, use pairUse) ([]uint32, pairUse, int) {
	if filter.on {
		cur := difference(x.buf(), filter.ids, excl)
		x.put(excl)
		return cur, use, planFilter
	}
	use.excl = excl
	return nil, use, planExclude
}

// exclusions returns the union of the exceptions of complement-form pairs
// comps (ascending, in a context buffer; nil when comps is empty).
func (x *qctx) exclusions(f *field, comps []format.PairEntry) ([]uint32, error) {
	var excl []uint32
	for i := range comps {
		exc, err := x.pairDocs(f, &comps[i])
		if err != nil {
			x.put(excl)
			return nil, err
		}
		excl = x.uniteInto(excl, exc)
	}
	return excl, nil
}

// pairExclFactor: a complement-form pair whose exceptions outnumber the
// rarest phrase term's documents more than this many times is not used
// outside a chain: decoding its exceptions costs more than the position
// checks of the few candidates they would drop.
const pairExclFactor = 2

// manyExceptions reports whether a complement-form pair of comps has more
// than pairExclMin exceptions: fewer cost less to decode than the dictionary
// probes that would tell whether they outnumber the rarest term's documents.
func manyExceptions(comps []format.PairEntry) bool {
	for _, e := range comps {
		if e.CO-e.DF > pairExclMin {
			return true
		}
	}
	return false
}

// pairExclMin is the number of exceptions below which a complement-form
// pair is always used (see manyExceptions).
const pairExclMin = 256

// sparseComps returns the complement-form pairs of comps whose exceptions
// are at most pairExclFactor times minDF (comps reordered in place) and
// compBits without the couples of the others (bit k: terms k, k+1).
func sparseComps(terms []string, comps []format.PairEntry, compBits uint64, minDF uint64) ([]format.PairEntry, uint64) {
	kept := comps[:0]
	for _, e := range comps {
		if e.CO-e.DF <= pairExclFactor*minDF {
			kept = append(kept, e)
			continue
		}
		for k := 0; k+1 < len(terms) && k < 64; k++ {
			if terms[k] == string(e.A) && terms[k+1] == string(e.B) {
				compBits &^= 1 << k
			}
		}
	}
	return kept, compBits
}

// innerRepeats reports whether a term of the phrase other than its first and
// last occurs twice in it.
func innerRepeats(terms []string) bool {
	for i := 1; i < len(terms)-1; i++ {
		for j := range terms {
			if j != i && terms[j] == terms[i] {
				return true
			}
		}
	}
	return false
}

// innerDoubles reports whether each term at an inner position of the phrase
// that the phrase repeats occurs in it exactly twice, side by side ("a b b
// c", "a b b"): a chain proves such a double by its tf (chainProves).
func innerDoubles(terms []string) bool {
	for i := 1; i < len(terms)-1; i++ {
		n, first, last := 0, -1, -1
		for j := range terms {
			if terms[j] == terms[i] {
				n++
				if first < 0 {
					first = j
				}
				last = j
			}
		}
		if n > 2 || (n == 2 && last != first+1) {
			return false
		}
	}
	return true
}

// distinctPositions reports whether each position of a document holds at
// most one term of f: true for the built-in analyzers, which emit one token
// a position and leave ValueGap positions between values (a registered
// analyzer may emit several terms at one position).
func (f *field) distinctPositions() bool {
	sp, err := analysis.ParseSpec(f.meta.Analyzer)
	if err != nil || sp.Version > 1 {
		return false
	}
	switch sp.Name {
	case "", analysis.Standard, analysis.Whitespace, analysis.Keyword:
		return true
	}
	return false
}

func hasPair(es []format.PairEntry, e *format.PairEntry) bool {
	for i := range es {
		if bytes.Equal(es[i].A, e.A) && bytes.Equal(es[i].B, e.B) {
			return true
		}
	}
	return false
}

// verifyPairs checks every entry of f's pair section: its CRC and doc list,
// keys strictly ascending, df at least the recorded minimum and at most each
// term's df (both terms in the dictionary), the section's size.
func (f *field) verifyPairs(x *qctx) error {
	s, m := f.seg, &f.meta
	p := place{section: "pairs", index: m.Name, window: -1}
	t, err := f.pairTable(x)
	if err != nil {
		return err
	}
	if uint64(t.Bytes()) != m.PairsLen {
		return s.corrupt(p, "%d bytes, metadata says %d", t.Bytes(), m.PairsLen)
	}
	var prevA, prevB []byte
	var docs []uint32
	for i := 0; i < t.Len(); i++ {
		if err := x.ctx.Err(); err != nil {
			return err
		}
		e, err := t.Entry(i)
		if err != nil {
			return s.wrap(p, err)
		}
		if i > 0 {
			c := bytes.Compare(prevA, e.A)
			if c == 0 {
				c = bytes.Compare(prevB, e.B)
			}
			if c >= 0 {
				return s.corrupt(p, "pair %d (%q %q) after (%q %q)", i, e.A, e.B, prevA, prevB)
			}
		}
		prevA, prevB = e.A, e.B
		if docs, err = e.Listed(docs[:0]); err != nil {
			return s.wrap(p, err)
		}
		if len(docs) > 0 && uint64(docs[len(docs)-1]) >= m.DocCount {
			return s.corrupt(p, "pair %d (%q %q): doc %d of %d", i, e.A, e.B, docs[len(docs)-1], m.DocCount)
		}
		if e.DF < m.PairsMinDFUsed {
			return s.corrupt(p, "pair %d (%q %q): df %d under the minimum %d", i, e.A, e.B, e.DF, m.PairsMinDFUsed)
		}
		both := max(e.DF, e.CO) // the docs the pair's terms share, at least
		for _, term := range [][]byte{e.A, e.B} {
			te, err := x.lookupEntry(f, string(term))
			if err != nil {
				return err
			}
			if te == nil || te.DF < both {
				at := p
				at.term = string(term)
				return s.corrupt(at, "pair %d (%q %q): df %d, co %d: not in the dictionary or rarer", i, e.A, e.B, e.DF, e.CO)
			}
		}
		if e.Complement() {
			bad, err := f.verifyComplement(x, &e, docs)
			if err != nil {
				return err // placed where it happened: a term's data, or the context
			}
			if bad != "" {
				return s.corrupt(p, "pair %d (%q %q): %s", i, e.A, e.B, bad)
			}
		}
	}
	return nil
}

// verifyComplement checks a complement-form pair against its terms' docs:
// co of them hold both terms, and the exceptions are among those. It returns
// what disagrees ("" when nothing does), or the error of reading the terms.
func (f *field) verifyComplement(x *qctx, e *format.PairEntry, exc []uint32) (bad string, err error) {
	x.nterms = 0 // termRefs are reused pair after pair
	ta, err := x.resolve(f, e.A)
	if err != nil {
		return "", err
	}
	tb, err := x.resolve(f, e.B)
	if err != nil {
		return "", err
	}
	if ta == nil || tb == nil {
		return "a term is not in the dictionary", nil
	}
	if err := x.collect(ta, nil, true); err != nil {
		return "", err
	}
	if err := x.collect(tb, nil, true); err != nil {
		return "", err
	}
	both := intersect(x.buf(), ta.docs, tb.docs)
	defer x.put(both)
	if uint64(len(both)) != e.CO {
		return fmt.Sprintf("co %d, its terms share %d documents", e.CO, len(both)), nil
	}
	held := intersect(x.buf(), both, exc)
	defer x.put(held)
	if len(held) != len(exc) {
		return fmt.Sprintf("%d of its %d exceptions hold both terms", len(held), len(exc)), nil
	}
	return "", nil
}
