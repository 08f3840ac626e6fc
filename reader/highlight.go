package reader

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/errs"
)

// Span is a byte range [Start, End) of a stored record.
type Span struct{ Start, End int }

// recordLayout says how a record holds its fields' values.
type recordLayout struct {
	json      bool   // a record that is a JSON object holds field F at dotted path F
	text      bool   // a record that is not (or every record, without json) is the value of textField
	textField string // the field a text record is the value of
}

// highlighter finds the spans of a query's matches in one record.
type highlighter struct {
	rec    []byte
	lay    recordLayout
	obj    *jsonValue // the parsed record when it is a JSON object
	isText bool       // the record is a text record
	// analyzer returns a fresh analyzer for a field.
	analyzer func(field string) (analysis.Analyzer, error)
	// expand returns the terms a prefix expands to in a field (at most max;
	// 0: all), or nil for every term starting with it.
	expand   func(field, prefix string, max int) (map[string]bool, error)
	fields   map[string]*hlField
	interest map[string]*interest
	spans    []Span
}

// hlToken is a token of a field in the record: its term, its position in the
// field (the values laid out ValueGap apart, as the writer indexes them) and
// its bytes in the record (start -1: unknown).
type hlToken struct {
	term       string
	pos        uint32
	start, end int
}

// hlField is a field of the record: the tokens the query can match (its
// terms, and those starting with its prefixes), in ascending positions.
type hlField struct {
	toks []hlToken
}

// at returns the tokens at position pos.
func (f *hlField) at(pos uint32) []hlToken {
	i, _ := slices.BinarySearchFunc(f.toks, pos, func(t hlToken, p uint32) int { return cmp.Compare(t.pos, p) })
	j := i
	for j < len(f.toks) && f.toks[j].pos == pos {
		j++
	}
	return f.toks[i:j]
}

// interest is what a field's tokens must hold to be kept: one of the query's
// terms of the field, one of its prefixes, or a term one of its fuzzy terms
// or patterns matches.
type interest struct {
	terms    map[string]bool
	prefixes []string
	matches  []func(string) bool
}

func (in *interest) keeps(term []byte) bool {
	if in.terms[string(term)] {
		return true
	}
	for _, p := range in.prefixes {
		if len(term) >= len(p) && string(term[:len(p)]) == p {
			return true
		}
	}
	for _, m := range in.matches {
		if m(string(term)) {
			return true
		}
	}
	return false
}

// fuzzyMatcher returns the test of a term against a fuzzy term (every term
// within its edits; its expansion bound is not applied to highlights).
func fuzzyMatcher(q *fuzzyQuery) func(string) bool {
	m := newEditRows([]rune(q.term), q.maxEdits)
	return func(t string) bool {
		d, dead := m.distance([]byte(t))
		return dead < 0 && d <= q.maxEdits
	}
}

// collect records the terms and prefixes of q's positive clauses per field.
func (h *highlighter) collect(q Query) {
	if q != nil {
		q.interest(h)
	}
}

// interestIn returns the interest of a field, adding it first.
func (h *highlighter) interestIn(field string) *interest {
	in := h.interest[field]
	if in == nil {
		in = &interest{terms: map[string]bool{}}
		h.interest[field] = in
	}
	return in
}

// highlight returns the sorted, non-overlapping spans of rec that q's
// positive clauses match (see Segment.Highlights).
func highlight(q Query, rec []byte, lay recordLayout, analyzer func(string) (analysis.Analyzer, error),
	expand func(field, prefix string, max int) (map[string]bool, error)) ([]Span, error) {
	h := &highlighter{rec: rec, lay: lay, analyzer: analyzer, expand: expand,
		fields: map[string]*hlField{}, interest: map[string]*interest{}}
	h.collect(q)
	if lay.json {
		if v, ok := parseJSONObject(rec); ok {
			h.obj = &v
		}
	}
	if h.obj == nil {
		if !lay.text {
			return nil, errs.Invalidf("reader: highlights: the record is not a JSON object")
		}
		h.isText = true
	}
	if err := h.walk(q); err != nil {
		return nil, err
	}
	return mergeSpans(h.spans), nil
}

// mergeSpans sorts spans and merges those that overlap.
func mergeSpans(s []Span) []Span {
	slices.SortFunc(s, func(a, b Span) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return a.End - b.End
	})
	out := s[:0]
	for _, sp := range s {
		if n := len(out); n > 0 && sp.Start < out[n-1].End {
			out[n-1].End = max(out[n-1].End, sp.End)
			continue
		}
		out = append(out, sp)
	}
	return out
}

func (h *highlighter) walk(q Query) error {
	if q == nil {
		return errs.Invalidf("reader: highlights: nil query")
	}
	return q.highlight(h)
}

// matching adds the spans of the tokens of a field that ok accepts.
func (h *highlighter) matching(field string, ok func(string) bool) error {
	f, err := h.field(field)
	if err != nil {
		return err
	}
	for _, t := range f.toks {
		if ok(t.term) {
			h.add(t.start, t.end)
		}
	}
	return nil
}

func (h *highlighter) add(start, end int) {
	if start >= 0 && end > start {
		h.spans = append(h.spans, Span{start, end})
	}
}

// prefixMatcher returns the test of a term against a prefix expanded to at
// most maxExp terms of the field.
func (h *highlighter) prefixMatcher(field, prefix string, maxExp int) (func(string) bool, error) {
	if maxExp < 0 {
		return nil, errs.Invalidf("reader: highlights: max expansions %d", maxExp)
	}
	if maxExp > 0 && h.expand != nil {
		set, err := h.expand(field, prefix, maxExp)
		if err != nil {
			return nil, err
		}
		if set != nil {
			return func(t string) bool { return set[t] }, nil
		}
	}
	return func(t string) bool { return strings.HasPrefix(t, prefix) }, nil
}

// phrase adds the spans of an exact phrase (first token's start to last
// token's end, where the terms stand at consecutive positions), or of a
// sloppy phrase (each occurrence of its terms inside a window of slop
// positions where every term of the phrase finds its own occurrence).
func (h *highlighter) phrase(q *phraseQuery) error {
	if len(q.terms) == 0 {
		return errs.Invalidf("reader: highlights: phrase without terms")
	}
	if q.slop < 0 {
		return errs.Invalidf("reader: highlights: negative slop %d", q.slop)
	}
	f, err := h.field(q.field)
	if err != nil {
		return err
	}
	n := len(q.terms)
	match := make([]func(string) bool, n)
	for i, t := range q.terms {
		t := t
		match[i] = func(s string) bool { return s == t }
	}
	if q.prefix {
		if match[n-1], err = h.prefixMatcher(q.field, q.terms[n-1], q.maxExp); err != nil {
			return err
		}
	}
	if q.slop == 0 {
		h.exact(f, match)
		return nil
	}
	h.sloppy(f, match, q.slop)
	return nil
}

func (h *highlighter) exact(f *hlField, match []func(string) bool) {
	n := len(match)
	for _, t := range f.toks {
		if !match[0](t.term) {
			continue
		}
		end, ok := t.end, true
		for i := 1; i < n && ok; i++ {
			ok = false
			for _, u := range f.at(t.pos + uint32(i)) {
				if match[i](u.term) {
					ok = true
					if i == n-1 {
						end = u.end
					}
					break
				}
			}
		}
		if ok && end >= 0 {
			h.add(t.start, end)
		}
	}
}

func (h *highlighter) sloppy(f *hlField, match []func(string) bool, slop int) {
	n := len(match)
	occ := make([][]int, n) // per phrase offset: the tokens matching it, ascending positions
	for k, t := range f.toks {
		for i := range n {
			if match[i](t.term) {
				occ[i] = append(occ[i], k)
			}
		}
	}
	for i := range n {
		if len(occ[i]) == 0 {
			return
		}
	}
	// Windows [m, m+slop] of standings p-i; the least standing of a match is
	// the standing of one of its occurrences.
	var starts []int64
	for i := range n {
		for _, k := range occ[i] {
			starts = append(starts, int64(f.toks[k].pos)-int64(i))
		}
	}
	slices.Sort(starts)
	starts = slices.Compact(starts)
	used := map[int]bool{}
	for _, m := range starts {
		if !h.placeable(f, occ, match, m, int64(slop), used) {
			continue
		}
		for i := range n {
			for _, k := range occ[i] {
				if st := int64(f.toks[k].pos) - int64(i); st >= m && st <= m+int64(slop) {
					t := f.toks[k]
					h.add(t.start, t.end)
				}
			}
		}
	}
}

// placeable reports whether every phrase offset i finds a distinct token at a
// standing p-i within [m, m+slop]: offsets in ascending order take the first
// free token of their range (offsets of one term have ranges ordered alike,
// so the greedy choice is optimal).
func (h *highlighter) placeable(f *hlField, occ [][]int, match []func(string) bool, m, slop int64, used map[int]bool) bool {
	clear(used)
	for i := range occ {
		lo, hi := m+int64(i), m+slop+int64(i)
		found := false
		for _, k := range occ[i] {
			p := int64(f.toks[k].pos)
			if p < lo || used[k] {
				continue
			}
			if p > hi {
				break
			}
			used[k], found = true, true
			break
		}
		if !found {
			return false
		}
	}
	return true
}

// field returns the tokens of a field in the record, analyzing its values at
// the first use.
func (h *highlighter) field(name string) (*hlField, error) {
	if f, ok := h.fields[name]; ok {
		return f, nil
	}
	a, err := h.analyzer(name)
	if err != nil {
		return nil, err
	}
	f := &hlField{}
	h.fields[name] = f
	in := h.interest[name]
	var vals []recordValue
	switch {
	case h.isText:
		if name == h.lay.textField {
			vals = append(vals, recordValue{text: string(h.rec)})
		}
	default:
		for _, v := range h.obj.extract(name, nil) {
			vals = append(vals, jsonRecordValue(h.rec, v))
		}
	}
	var base uint64
	for k, v := range vals {
		if k > 0 {
			base += analysis.ValueGap
		}
		n, _ := analysis.AnalyzeOffsets(a, v.text, func(term []byte, pos uint32, start, end int) {
			if in == nil || !in.keeps(term) {
				return
			}
			if start >= 0 && start < end && end <= len(v.text) {
				start, end = v.rawRange(start, end)
			} else {
				start, end = -1, -1 // no range, or one outside the value
			}
			f.toks = append(f.toks, hlToken{term: string(term), pos: uint32(base + uint64(pos)), start: start, end: end})
		})
		base += uint64(n)
	}
	// A registered analyzer may emit positions out of order.
	slices.SortStableFunc(f.toks, func(a, b hlToken) int { return cmp.Compare(a.pos, b.pos) })
	return f, nil
}

// recordValue is a value of a field in a record: its text and where the
// text's bytes are in the record.
type recordValue struct {
	text string
	off  int         // the record's offset of the value's first raw byte
	esc  *unitCursor // nil: text is the record's bytes from off on
}

// rawRange maps the byte range [s, e) of v.text to the record (ranges asked
// in ascending, disjoint order).
func (v *recordValue) rawRange(s, e int) (int, int) {
	if v.esc == nil {
		return v.off + s, v.off + e
	}
	rs, re := v.esc.rawRange(s, e)
	return v.off + rs, v.off + re
}

// jsonRecordValue returns the text of a JSON scalar of rec and its mapping.
func jsonRecordValue(rec []byte, v *jsonValue) recordValue {
	raw := rec[v.raw[0]:v.raw[1]]
	if v.kind != 's' || !v.hasEscap {
		return recordValue{text: string(raw), off: v.raw[0]}
	}
	return recordValue{text: decodeJSONString(raw), off: v.raw[0], esc: &unitCursor{raw: raw}}
}

// Highlights returns the byte ranges of rec, a document's stored record
// (Record, Records), that the clauses of q match there, sorted and merged
// where they overlap: each occurrence of a term; of a prefix, each token
// starting with it (with maxExpansions > 0, each of the prefix's first
// expansions in the field, which costs a dictionary scan per call); of a
// phrase, the bytes from its first token's start to its last token's end
// wherever its terms stand at consecutive positions (a phrase prefix's last
// token starting with the prefix); of a sloppy phrase, each occurrence of one
// of its terms that is part of a placement within the slop (every term of the
// phrase on its own occurrence, standings p-i spread over at most slop
// positions). And and Or give the union of their clauses', AndNot its include
// side's. Highlights does not check that the document matches q.
//
// Field values are found in rec as the store's format says (StoreInfo): a text
// record is the value of the text field; a JSON record holds field F's values
// at dotted path F (strings, numbers as written, booleans; arrays give every
// element; a key containing dots is matched whole first), and a token of an
// escaped string covers the raw bytes of its escapes (\u00e9, a surrogate
// pair, \n). Tokens come from the field's analyzer through
// analysis.AnalyzeOffsets, so the ranges are the analyzer's: a registered
// analyzer without offsets gets the fallback analysis.AnalyzeOffsets describes.
//
// A segment without a store gives an error wrapping snii.ErrNotFound; a
// record that is not a JSON object in a RecordJSON store, or a query the
// search would refuse, snii.ErrInvalidArgument; a field the segment does not
// have, snii.ErrNotFound.
func (s *Segment) Highlights(q Query, rec []byte) ([]Span, error) {
	st, ok := s.Store()
	if !ok {
		return nil, s.at(sec("store"), errs.NotFoundf("segment keeps no records; rebuild without --no-store"))
	}
	lay := recordLayout{textField: st.TextField}
	switch st.Format {
	case snii.RecordText:
		lay.text = true
	case snii.RecordJSON:
		lay.json = true
	default:
		lay.json, lay.text = true, true
	}
	return s.highlights(q, rec, lay)
}

// highlights runs highlight with the segment's analyzers and its prefix
// expansions.
func (s *Segment) highlights(q Query, rec []byte, lay recordLayout) ([]Span, error) {
	expand := func(field, prefix string, max int) (map[string]bool, error) {
		set := map[string]bool{}
		terms, errf := s.Terms(context.Background(), field, prefix, max)
		for t := range terms {
			set[t] = true
		}
		return set, errf()
	}
	return highlight(q, rec, lay, s.analyzer, expand)
}
