package grep

import (
	"regexp/syntax"
	"strings"

	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/reader"
)

// planner turns requirements into queries of one field.
type planner struct {
	field string
	a     analysis.Analyzer
	// partial: a literal's cut first or last token becomes a wildcard slot
	// ("*nection", "refu*"), which holds only when no token of the field
	// was skipped for its length (a cut token could be part of one), or the
	// records that skipped one are searched without the slots.
	partial bool
	// lead: with partial, a token cut at its start that starts a phrase
	// becomes a suffix slot of the phrase ("*def test"; a walk of the
	// dictionary).
	lead bool
}

// minPartial is the shortest cut token kept as a wildcard.
const minPartial = 3

// requirement returns what every text holding a match of expr contains
// (nil: nothing); planner.query turns it into a query.
func requirement(expr string, lower bool) (*req, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	return analyze(re.Simplify(), lower).full(), nil
}

// query converts a requirement (nil: none).
func (p *planner) query(r *req) reader.Query {
	if r == nil {
		return nil
	}
	if r.leaf {
		return p.literal(r.lit)
	}
	var qs []reader.Query
	seen := map[string]bool{}
	for _, k := range r.kids {
		q := p.query(k)
		if q == nil {
			if r.and {
				continue
			}
			return nil // one side needs nothing
		}
		if key := q.String(); !seen[key] {
			seen[key] = true
			qs = append(qs, q)
		}
	}
	switch {
	case len(qs) == 0:
		return nil
	case len(qs) == 1:
		return qs[0]
	case r.and:
		return reader.And(qs...)
	}
	return reader.Or(qs...)
}

type tok struct {
	term       string
	pos        uint32
	start, end int
}

// slotTok is a token of a literal and how the literal may cut it.
type slotTok struct {
	tok
	cutStart, cutEnd bool
	piece            int // the piece (between edges) it is in
}

// literal is the requirement that the text contains s: its tokens in
// phrases of adjacent positions, without the tokens cut at either end of a
// piece (unless whole by an edge). With p.partial, a token cut at its end
// only is kept as a prefix wildcard ("refu*", a seek in the dictionary), and
// one cut at its start ("*nection", a walk of the whole dictionary) only
// when the literal has no other token to require or, with p.lead, when it
// starts a phrase ("*def test").
func (p *planner) literal(s string) reader.Query {
	pieces := strings.Split(s, edge)
	var toks []slotTok
	cheap := false // a whole token or a prefix wildcard
	for i, piece := range pieces {
		n0 := len(toks)
		analysis.AnalyzeOffsets(p.a, piece, func(term []byte, pos uint32, start, end int) {
			toks = append(toks, slotTok{tok: tok{string(term), pos, start, end}, piece: i})
		})
		pt := toks[n0:]
		for k := range pt {
			t := &pt[k]
			t.cutStart = k == 0 && i == 0 && t.start <= 0
			t.cutEnd = k == len(pt)-1 && i == len(pieces)-1 && (t.end < 0 || t.end >= len(piece))
			if t.start < 0 { // no known range: whole only inside
				t.cutStart, t.cutEnd = t.cutStart || k == 0, t.cutEnd || k == len(pt)-1
			}
			cheap = cheap || !t.cutStart && (!t.cutEnd || p.partial && len(t.term) >= minPartial)
		}
	}
	var qs []reader.Query
	var run []reader.Slot
	flush := func() {
		if q := runQuery(p.field, run); q != nil {
			qs = append(qs, q)
		}
		run = run[:0]
	}
	for k, t := range toks {
		if k > 0 && (t.piece != toks[k-1].piece || t.pos != toks[k-1].pos+1) {
			flush()
		}
		if !t.cutStart && !t.cutEnd {
			run = append(run, reader.Slot{Kind: reader.SlotTerm, Text: t.term})
			continue
		}
		nx := toks[min(k+1, len(toks)-1)] // a kept token right after t: t starts a phrase
		leads := p.lead && k+1 < len(toks) && nx.piece == t.piece && nx.pos == t.pos+1 && (!nx.cutEnd || len(nx.term) >= minPartial)
		if !p.partial || len(t.term) < minPartial || t.cutStart && cheap && !leads {
			flush()
			continue
		}
		w := escapeWildcard(t.term)
		if t.cutStart {
			w = "*" + w
		}
		if t.cutEnd {
			w += "*"
		}
		run = append(run, reader.Slot{Kind: reader.SlotWildcard, Text: w})
	}
	flush()
	switch len(qs) {
	case 0:
		return nil
	case 1:
		return qs[0]
	}
	return reader.And(qs...)
}

func escapeWildcard(s string) string {
	return strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`).Replace(s)
}

// runQuery is the query of adjacent slots: a term, a wildcard, a phrase or a
// pattern phrase (nil for none).
func runQuery(field string, run []reader.Slot) reader.Query {
	if len(run) == 0 {
		return nil
	}
	terms := make([]string, 0, len(run))
	for _, s := range run {
		if s.Kind != reader.SlotTerm {
			if len(run) == 1 {
				return reader.Wildcard(field, s.Text, 0)
			}
			return reader.PatternPhrase(field, run, 0)
		}
		terms = append(terms, s.Text)
	}
	if len(terms) == 1 {
		return reader.Term(field, terms[0])
	}
	return reader.Phrase(field, terms...)
}
