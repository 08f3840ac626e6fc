package grep

import (
	"context"
	"fmt"
	"regexp"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/reader"
)

// Options tune Grep. The zero value matches re in every record the index
// cannot rule out.
type Options struct {
	// Invert selects the records re does not match (grep -v). The index
	// cannot narrow an inversion: every record is read.
	Invert bool
	// Batch is the records read per Segment.Records call (0: about four
	// batches per goroutine, from 64 to 1024 records; 1024 when every
	// record is read). The batches are read and matched on one goroutine
	// per CPU (runtime.GOMAXPROCS), the selected records passed on in id
	// order.
	Batch int
	// Profile, when set, receives what the search did.
	Profile *Profile
}

// Profile is what one Grep did.
type Profile struct {
	// Query is the derived query, in reader.Query's rendering ("" when the
	// store was scanned), with what chose the candidates: the query it ran
	// within or instead of a walk of the dictionary, and the query run on
	// the records that skipped an over-long token.
	Query string
	// Note says why the whole store was scanned ("" when the index narrowed
	// the candidates).
	Note string
	// Candidates is the records read and matched against the regexp (the
	// derived query's documents, or every record); Matched the records
	// selected; Batches the Segment.Records calls that read them. Sampled
	// is the records read beforehand to decide whether a walk of the
	// dictionary pays (at most walkSample; they are read again when they
	// are candidates).
	Candidates, Matched, Batches, Sampled int
	// Search is the derived query's reader profile.
	Search reader.Profile
}

// The default batches of Grep: a store block split between two batches is
// decoded by both, so a batch holds at least minBatch candidates.
const (
	minBatch = 64
	maxBatch = 1024
)

// plan returns what every record re matches satisfies, derived from re's
// syntax tree for the store's text field, or nil and a note saying why there
// is nothing (then every record must be read).
//
// The derivation follows Google Code Search's with words instead of
// trigrams: a literal gives the exact strings of its matches, a
// concatenation the cross product (or, when too large, the strings
// spanning each boundary as requirements), an alternation the union (or the
// Or of its sides' requirements), a star or a large class nothing. Every
// string a match must contain is run through the field's analyzer: its
// tokens at adjacent positions become a phrase; a token cut by either end of
// the string (it may be part of a longer word) is dropped, unless an edge of
// the record (\A, \z, ^, $ without (?m)) or a separator in the string bounds
// it, or the cut token has three bytes or more: then it is a wildcard slot,
// "refu*" (a seek in the dictionary) or, when the string has no other token
// to require or the token starts a phrase, "*nection" (a walk of the
// dictionary). A phrase with such a leading slot runs among the candidates
// of the query without it, and only when it would remove at least
// terms/walkRecords of them (the walk could not pay for itself otherwise):
// an estimate from a sample of the candidates' records (walkGain). A
// literal that does not survive analysis is no
// requirement. A case-insensitive literal is lowercased when the analyzer
// lowercases (and is otherwise no requirement).
//
// A cut token could also be part of an over-long token the analyzer skipped.
// When the field skipped some and lists the records that did (format 9), the
// candidates are the query's with the wildcard slots and, among the listed
// records, the query's without them; when it skipped some and lists none (an
// older segment), cut tokens are dropped.
func plan(seg *reader.Segment, re *regexp.Regexp) (*derived, string, error) {
	st, ok := seg.Store()
	if !ok {
		return nil, "", errs.NotFoundf("grep: the segment keeps no records; rebuild it without --no-store")
	}
	if st.Format != snii.RecordText {
		return nil, "the records are JSON lines, not the values of one field: every record is read", nil
	}
	fi, err := seg.Info(st.TextField)
	if err != nil {
		return nil, "", err
	}
	a, err := analysis.New(fi.Analyzer)
	if err != nil {
		return nil, "", err
	}
	known := fi.SkippedTokens == 0
	var listed []uint32
	if !known {
		if listed, known, err = seam.SkipDocs(seg, st.TextField); err != nil {
			return nil, "", err
		}
	}
	p := &planner{field: st.TextField, a: a, partial: known, lead: known}
	terms, err := seg.Analyze(st.TextField, "Snii")
	lower := err == nil && len(terms) == 1 && terms[0] == "snii"
	r, err := requirement(re.String(), lower)
	if err != nil {
		return nil, "", errs.Invalidf("grep: %v", err)
	}
	q := p.query(r)
	if q == nil {
		return nil, fmt.Sprintf("the regexp has no literal that field %q's analyzer keeps: every record is read", st.TextField), nil
	}
	d := &derived{q: q, re: re, terms: fi.Terms}
	if known {
		p.lead = false
		if d.base = p.query(r); d.base != nil && d.base.String() == q.String() {
			d.base = nil
		}
		if len(listed) > 0 {
			p.partial = false
			if alt := p.query(r); alt == nil || alt.String() != q.String() {
				d.alt, d.listed = alt, listed
			}
		}
	}
	return d, "", nil
}

// walkRecords is the dictionary terms a walk steps over in the time a
// record is read and matched: a query whose leading suffix slots walk the
// dictionary runs only when it could leave terms/walkRecords fewer
// candidates than the query without them.
const walkRecords = 24

// walkSample is the candidates whose records walkGain reads.
const walkSample = 8

// derived is what plan derives. The candidates are q's documents and, among
// listed, alt's (every listed one when alt is nil). q has the cut tokens as
// wildcard slots; base is q without the suffix slots that start a phrase
// (nil: q has none); alt has no slot (nil: no requirement). q's documents
// are among base's, and hold every record re matches outside listed.
type derived struct {
	q, base, alt reader.Query
	re           *regexp.Regexp
	listed       []uint32 // the records that skipped an over-long token, ascending
	terms        uint64   // the dictionary's terms
}

// walkGain estimates how many of bases, base's documents, running q instead
// would remove, and renders how. Without reading anything when bases are
// too few for the walk of the dictionary to pay even if it removed them
// all; otherwise from the records of walkSample of them, evenly spaced: a
// record re matches holds q (the walk cannot remove it) unless it skipped
// an over-long token, so the estimate is bases times the share of the
// sample re does not match.
func (d *derived) walkGain(ctx context.Context, seg *reader.Segment, bases []uint32, sampled *int) (uint64, string, error) {
	n := uint64(len(bases))
	if n*walkRecords < d.terms {
		return n, fmt.Sprintf("its walk of the dictionary could remove at most %d of %d candidates", n, n), nil
	}
	ids := make([]uint32, min(len(bases), walkSample))
	for i := range ids {
		ids[i] = bases[(2*i+1)*len(bases)/(2*len(ids))]
	}
	match := matcherFactory(d.re)()
	m := 0
	if err := seg.Records(ctx, ids, func(_ uint32, rec []byte) error {
		if match(rec) {
			m++
		}
		return nil
	}); err != nil {
		return 0, "", err
	}
	*sampled += len(ids)
	gain := n * uint64(len(ids)-m) / uint64(len(ids))
	return gain, fmt.Sprintf("the regexp matches %d of %d sampled candidates: its walk of the dictionary would remove about %d of %d", m, len(ids), gain, n), nil
}

// docs returns the candidates of d, ascending, and the rendering of what
// gave them; prof receives the searches' profiles, summed, and sampled the
// records walkGain read.
func (d *derived) docs(ctx context.Context, seg *reader.Segment, prof *reader.Profile, sampled *int) ([]uint32, string, error) {
	var cands []uint32
	runQ := true // q runs (within filter)
	desc := d.q.String()
	var filter *roaring.Bitmap
	if d.base != nil {
		bases, err := seg.Docs(ctx, d.base, &reader.SearchOptions{Profile: prof})
		if err != nil {
			return nil, "", err
		}
		gain, why, err := d.walkGain(ctx, seg, bases, sampled)
		if err != nil {
			return nil, "", err
		}
		if gain*walkRecords < d.terms {
			cands, runQ = bases, false
			desc = fmt.Sprintf("%s (not %s: %s)", d.base, d.q, why)
		} else {
			filter = roaring.BitmapOf(bases...)
			desc = fmt.Sprintf("%s among the %d of %s (%s)", d.q, len(bases), d.base, why)
		}
	}
	if runQ {
		var qp reader.Profile
		var err error
		if cands, err = seg.Docs(ctx, d.q, &reader.SearchOptions{Profile: &qp, Filter: filter}); err != nil {
			return nil, "", err
		}
		prof.Add(&qp)
	}
	if len(d.listed) == 0 {
		return cands, desc, nil
	}
	alt := "any"
	extra := d.listed
	if d.alt != nil {
		alt = d.alt.String()
		var ap reader.Profile
		var err error
		if extra, err = seg.Docs(ctx, d.alt, &reader.SearchOptions{Profile: &ap, Filter: roaring.BitmapOf(d.listed...)}); err != nil {
			return nil, "", err
		}
		prof.Add(&ap)
	}
	bm := roaring.BitmapOf(cands...)
	bm.AddMany(extra)
	return bm.ToArray(), fmt.Sprintf("%s, or %s in the %d records that skipped an over-long token", desc, alt, len(d.listed)), nil
}

// Grep calls fn, in ascending id order, for each record of seg that re
// matches (Options.Invert: does not match). The candidates are the documents
// of the derived query, read in batches, several at once (Options.Batch);
// without one (or inverted) every record is read. fn is called from the calling
// goroutine. rec is valid only during fn; an error from fn stops the walk and
// is returned. A segment without a store gives an error wrapping
// snii.ErrNotFound.
func Grep(ctx context.Context, seg *reader.Segment, re *regexp.Regexp, o *Options, fn func(id uint32, rec []byte) error) error {
	if o == nil {
		o = &Options{}
	}
	var prof Profile
	if o.Profile != nil {
		defer func() { *o.Profile = prof }()
	}
	var d *derived
	if o.Invert {
		if _, ok := seg.Store(); !ok {
			return errs.NotFoundf("grep: the segment keeps no records; rebuild it without --no-store")
		}
		prof.Note = "-v: the index cannot narrow an inversion: every record is read"
	} else {
		var err error
		if d, prof.Note, err = plan(seg, re); err != nil {
			return err
		}
	}
	var cands []uint32
	if d != nil {
		var err error
		if cands, prof.Query, err = d.docs(ctx, seg, &prof.Search, &prof.Sampled); err != nil {
			return err
		}
	}
	workers := scanWorkers()
	batch := o.Batch
	if batch <= 0 {
		batch = maxBatch
		if d != nil {
			batch = min(max(len(cands)/(4*workers), minBatch), maxBatch)
		}
	}
	var next func() []uint32
	if d != nil {
		next = func() []uint32 {
			if len(cands) == 0 {
				return nil
			}
			n := min(batch, len(cands))
			ids := cands[:n:n]
			cands = cands[n:]
			return ids
		}
	} else {
		from := uint32(0)
		next = func() []uint32 {
			if from >= seg.DocCount() {
				return nil
			}
			n := min(uint32(batch), seg.DocCount()-from)
			ids := make([]uint32, n)
			for i := range ids {
				ids[i] = from + uint32(i)
			}
			from += n
			return ids
		}
	}
	return scan(ctx, seg, re, o.Invert, workers, next, &prof, fn)
}
