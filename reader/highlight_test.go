package reader_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/testkit/segtest"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// hq is a query of the highlight tests: the reader query and what the brute
// force answers are computed from.
type hq struct {
	kind  string // term, prefix, phrase, pprefix, and, or, not
	field string
	terms []string
	slop  int
	kids  []hq
}

func (q hq) reader() reader.Query {
	switch q.kind {
	case "term":
		return reader.Term(q.field, q.terms[0])
	case "prefix":
		return reader.Prefix(q.field, q.terms[0], 0)
	case "phrase":
		if q.slop > 0 {
			return reader.SloppyPhrase(q.field, q.slop, q.terms...)
		}
		return reader.Phrase(q.field, q.terms...)
	case "pprefix":
		return reader.PhrasePrefix(q.field, 0, q.terms...)
	case "not":
		return reader.AndNot(q.kids[0].reader(), q.kids[1].reader())
	}
	var kids []reader.Query
	for _, k := range q.kids {
		kids = append(kids, k.reader())
	}
	if q.kind == "and" {
		return reader.And(kids...)
	}
	return reader.Or(kids...)
}

// otok is a token of the brute force: term, position in the field, bytes in
// the record.
type otok struct {
	term       string
	pos        int
	start, end int
}

// oracleSpans answers q over a record's tokens by exhaustive search: terms,
// prefixes, phrases (first token's start to last token's end at consecutive
// positions), sloppy phrases (the tokens of every placement of distinct
// tokens whose standings p-i spread at most slop), the union of the positive
// clauses; merged where they overlap.
func oracleSpans(q hq, toks map[string][]otok) []reader.Span {
	var out []reader.Span
	var walk func(q hq)
	walk = func(q hq) {
		ts := toks[q.field]
		switch q.kind {
		case "and", "or":
			for _, k := range q.kids {
				walk(k)
			}
		case "not":
			walk(q.kids[0])
		case "term", "prefix":
			for _, t := range ts {
				if t.term == q.terms[0] || q.kind == "prefix" && strings.HasPrefix(t.term, q.terms[0]) {
					out = append(out, reader.Span{Start: t.start, End: t.end})
				}
			}
		case "phrase", "pprefix":
			n := len(q.terms)
			fits := func(i int, t otok) bool {
				return t.term == q.terms[i] || q.kind == "pprefix" && i == n-1 && strings.HasPrefix(t.term, q.terms[i])
			}
			if q.slop == 0 {
				for _, t0 := range ts {
					end, ok := t0.end, fits(0, t0)
					for i := 1; i < n && ok; i++ {
						ok = false
						for _, t := range ts {
							if t.pos == t0.pos+i && fits(i, t) {
								end, ok = t.end, true
							}
						}
					}
					if ok {
						out = append(out, reader.Span{Start: t0.start, End: end})
					}
				}
				return
			}
			pick := make([]int, n)
			var place func(i int)
			place = func(i int) {
				if i == n {
					lo, hi := 1<<30, -(1 << 30)
					for k, j := range pick {
						st := ts[j].pos - k
						lo, hi = min(lo, st), max(hi, st)
					}
					if hi-lo <= q.slop {
						for _, j := range pick {
							out = append(out, reader.Span{Start: ts[j].start, End: ts[j].end})
						}
					}
					return
				}
				for j, t := range ts {
					if fits(i, t) && !slices.Contains(pick[:i], j) {
						pick[i] = j
						place(i + 1)
					}
				}
			}
			place(0)
		}
	}
	walk(q)
	slices.SortFunc(out, func(a, b reader.Span) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return a.End - b.End
	})
	var merged []reader.Span
	for _, s := range out {
		if n := len(merged); n > 0 && s.Start < merged[n-1].End {
			merged[n-1].End = max(merged[n-1].End, s.End)
			continue
		}
		merged = append(merged, s)
	}
	return merged
}

// genHQ returns a random query over the fields, its terms drawn from the
// records' token sequences (so phrases match somewhere) and from vocab.
func genHQ(rng *rand.Rand, fields []string, recs []map[string][]otok, leafOnly bool) hq {
	field := fields[rng.IntN(len(fields))]
	var seq []otok
	for range 8 {
		if seq = recs[rng.IntN(len(recs))][field]; len(seq) > 0 {
			break
		}
	}
	if len(seq) == 0 {
		return hq{kind: "term", field: field, terms: []string{"absent"}}
	}
	run := func(n int) []string {
		i := rng.IntN(len(seq))
		var ts []string
		for k := i; k < len(seq) && len(ts) < n; k++ {
			if k > i && seq[k].pos != seq[k-1].pos+1 {
				break
			}
			ts = append(ts, seq[k].term)
		}
		return ts
	}
	k := rng.IntN(8)
	if leafOnly {
		k = rng.IntN(5)
	}
	switch k {
	case 0:
		return hq{kind: "term", field: field, terms: run(1)}
	case 1:
		t := run(1)[0]
		return hq{kind: "prefix", field: field, terms: []string{t[:1+rng.IntN(len(t))]}}
	case 2:
		return hq{kind: "phrase", field: field, terms: run(2 + rng.IntN(2))}
	case 3:
		ts := run(2 + rng.IntN(2))
		if rng.IntN(2) == 0 {
			ts[0], ts[len(ts)-1] = ts[len(ts)-1], ts[0]
		}
		return hq{kind: "phrase", field: field, terms: ts, slop: 1 + rng.IntN(3)}
	case 4:
		ts := run(2 + rng.IntN(2))
		last := ts[len(ts)-1]
		ts[len(ts)-1] = last[:1+rng.IntN(len(last))]
		return hq{kind: "pprefix", field: field, terms: ts}
	case 5:
		return hq{kind: "and", kids: []hq{genHQ(rng, fields, recs, true), genHQ(rng, fields, recs, true)}}
	case 6:
		return hq{kind: "or", kids: []hq{genHQ(rng, fields, recs, true), genHQ(rng, fields, recs, true), genHQ(rng, fields, recs, false)}}
	}
	return hq{kind: "not", kids: []hq{genHQ(rng, fields, recs, false), genHQ(rng, fields, recs, true)}}
}

// checkHighlights compares the highlights of random queries on every record
// with the brute force, and checks on the leaf queries that the segment
// matches a record exactly when the brute force finds a match in it.
func checkHighlights(t *testing.T, s *reader.Segment, rng *rand.Rand, fields []string, recs [][]byte, toks []map[string][]otok) {
	t.Helper()
	ids := make([]uint32, len(recs))
	for i := range ids {
		ids[i] = uint32(i)
	}
	if err := s.Records(bg, ids, func(id uint32, rec []byte) error {
		if string(rec) != string(recs[id]) {
			t.Fatalf("record %d = %q, stored %q", id, rec, recs[id])
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	hits := map[string]int{} // records with spans, per query kind (sloppy: "sloppy")
	for range 150 {
		q := genHQ(rng, fields, toks, false)
		kind := q.kind
		if q.slop > 0 {
			kind = "sloppy"
		}
		rq := q.reader()
		var docs []uint32
		if q.kind != "and" && q.kind != "or" && q.kind != "not" {
			var err error
			if docs, err = s.Docs(bg, rq, nil); err != nil {
				t.Fatalf("%s: %v", rq, err)
			}
		}
		for id, rec := range recs {
			got, err := s.Highlights(rq, rec)
			if err != nil {
				t.Fatalf("%s, record %d: %v", rq, id, err)
			}
			want := oracleSpans(q, toks[id])
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s, record %d %q:\n got %v %q\nwant %v %q", rq, id, rec, got, cut(rec, got), want, cut(rec, want))
			}
			if len(want) > 0 {
				hits[kind]++
			}
			if docs != nil && slices.Contains(docs, uint32(id)) != (len(want) > 0) {
				t.Fatalf("%s, record %d %q: matches %v, brute force spans %v", rq, id, rec, slices.Contains(docs, uint32(id)), want)
			}
		}
	}
	for _, k := range []string{"term", "prefix", "phrase", "sloppy", "pprefix", "and", "or", "not"} {
		if hits[k] == 0 {
			t.Errorf("no %s query highlighted anything (%v)", k, hits)
		}
	}
}

func cut(rec []byte, spans []reader.Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, string(rec[s.Start:s.End]))
	}
	return out
}

func buildDocs(t *testing.T, o writer.Options, docs []writer.Document) *reader.Segment {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hl.snii")
	segtest.Build(t, p, o, docs)
	return open(t, p)
}

var (
	textWords = []string{"error", "Error", "ERROR", "conn", "connection", "refused", "timeout", "naïve", "Café", "ÉTÉ", "x1", "42", "über", "日本", "a", "İx"}
	textSeps  = []string{" ", "  ", ", ", "-", "/", "\t", ": ", "²", "\xff", " — ", "."}
	// standardToken is the standard analyzer's token, from its definition.
	standardToken   = regexp.MustCompile(`[\p{L}\p{Nd}]+`)
	whitespaceToken = regexp.MustCompile(`[^\s\x{85}\x{a0}\p{Z}]+`)
)

// regexpTokens tokenizes a text record with re: terms lowercased, positions
// in order, the bytes of each match.
func regexpTokens(re *regexp.Regexp, rec string) []otok {
	var out []otok
	for i, m := range re.FindAllStringIndex(rec, -1) {
		out = append(out, otok{term: lower(rec[m[0]:m[1]]), pos: i, start: m[0], end: m[1]})
	}
	return out
}

// lower lowercases s rune by rune, keeping bytes that are not UTF-8.
func lower(s string) string {
	var b []byte
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[i])
		} else {
			b = utf8.AppendRune(b, unicode.ToLower(r))
		}
		i += size
	}
	return string(b)
}

// TestHighlightsText: line records, standard and whitespace analyzers,
// against a regexp tokenization of the raw line.
func TestHighlightsText(t *testing.T) {
	for _, an := range []struct {
		spec string
		re   *regexp.Regexp
	}{{"standard", standardToken}, {"whitespace", whitespaceToken}} {
		t.Run(an.spec, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(an.spec))))
			var recs [][]byte
			var toks []map[string][]otok
			var docs []writer.Document
			for range 60 {
				var b strings.Builder
				if rng.IntN(3) == 0 {
					b.WriteString(textSeps[rng.IntN(len(textSeps))])
				}
				for k := range 1 + rng.IntN(14) {
					if k > 0 {
						sep := textSeps[rng.IntN(len(textSeps))]
						if an.spec == "whitespace" {
							sep = []string{" ", "\t", "  ", "\u00a0", "\u2003"}[rng.IntN(5)]
						}
						b.WriteString(sep)
					}
					b.WriteString(textWords[rng.IntN(len(textWords))])
				}
				rec := b.String()
				recs = append(recs, []byte(rec))
				toks = append(toks, map[string][]otok{"text": regexpTokens(an.re, rec)})
				docs = append(docs, writer.Document{Fields: []writer.Field{{Name: "text", Values: []string{rec}}}, Record: []byte(rec)})
			}
			o := writer.DefaultOptions("text")
			o.RecordFormat, o.TextField = snii.RecordText, "text"
			o.Fields[0].Analyzer = an.spec
			s := buildDocs(t, o, docs)
			checkHighlights(t, s, rng, []string{"text"}, recs, toks)
		})
	}
}

// jsonWords are words whose runes the JSON generator writes raw or escaped
// (\u00e9, a surrogate pair for U+1D49C).
var jsonWords = []string{"error", "Conn", "refused", "café", "𝒜bc", "timeout", "x1", "ÉTÉ"}

// jsonSeps are separators as JSON string text (each decodes to no letter or digit).
var jsonSeps = []string{" ", `\n`, `\"`, `\\`, `\/`, ", ", `\t`, `\u0020`, "-", "\xff", `\u2014`}

// jsonString writes a random string value of words and separators into b and
// returns its decoded text and its tokens (raw ranges in b's final bytes).
func jsonString(rng *rand.Rand, b *[]byte, base int) (string, []otok) {
	*b = append(*b, '"')
	var dec strings.Builder
	var toks []otok
	for k := range 1 + rng.IntN(6) {
		if k > 0 || rng.IntN(3) == 0 {
			sep := jsonSeps[rng.IntN(len(jsonSeps))]
			*b = append(*b, sep...)
			var s string
			if err := json.Unmarshal([]byte(`"`+sep+`"`), &s); err != nil {
				panic(err)
			}
			dec.WriteString(s)
		}
		w := jsonWords[rng.IntN(len(jsonWords))]
		start := len(*b)
		for _, r := range w {
			switch {
			case rng.IntN(3) > 0:
				*b = append(*b, string(r)...)
			case r > 0xffff:
				r1, r2 := rune(0xd800+((r-0x10000)>>10)), rune(0xdc00+((r-0x10000)&0x3ff))
				*b = append(*b, fmt.Sprintf(`\u%04x\u%04X`, r1, r2)...)
			default:
				*b = append(*b, fmt.Sprintf(`\u%04x`, r)...)
			}
		}
		dec.WriteString(w)
		toks = append(toks, otok{term: strings.ToLower(w), pos: base + len(toks), start: start, end: len(*b)})
	}
	*b = append(*b, '"')
	return dec.String(), toks
}

// TestHighlightsJSON: JSON records written with escapes, arrays, nested and
// dotted keys, numbers, booleans and a repeated key, against the ranges the
// generator wrote each word at.
func TestHighlightsJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	fields := []string{"msg", "tags", "meta.level", "n", "ok"}
	var recs [][]byte
	var toks []map[string][]otok
	var docs []writer.Document
	for id := range 60 {
		var b []byte
		tk := map[string][]otok{}
		var doc writer.Document
		next := map[string]int{}
		value := func(field string) {
			v, ts := jsonString(rng, &b, next[field])
			for i := range ts {
				ts[i].pos = next[field] + i
			}
			tk[field] = append(tk[field], ts...)
			next[field] += len(ts) + 100
			doc.Fields = append(doc.Fields, writer.Field{Name: field, Values: []string{v}})
		}
		b = append(b, "{"...)
		if id%5 == 0 {
			b = append(b, `"msg": `...)
			jsonString(rng, &b, 0) // replaced by the later "msg"
			b = append(b, ", "...)
		}
		b = append(b, `"msg":`...)
		value("msg")
		b = append(b, `, "tags": [`...)
		for k := range rng.IntN(4) {
			if k > 0 {
				b = append(b, ',')
			}
			if k == 2 {
				b = append(b, "[null, "...)
				value("tags")
				b = append(b, "]"...)
				continue
			}
			value("tags")
		}
		b = append(b, "]"...)
		if id%2 == 0 {
			b = append(b, `, "meta": {"x": 1, "level": `...)
			value("meta.level")
			b = append(b, "}"...)
		} else {
			b = append(b, ",\n\"meta.level\"\t: "...)
			value("meta.level")
		}
		n := strconv.Itoa(rng.IntN(1000))
		b = append(b, `, "n": `...)
		tk["n"] = []otok{{term: n, start: len(b), end: len(b) + len(n)}}
		b = append(b, n...)
		doc.Fields = append(doc.Fields, writer.Field{Name: "n", Values: []string{n}})
		b = append(b, `, "ok": `...)
		tk["ok"] = []otok{{term: "true", start: len(b), end: len(b) + 4}}
		b = append(b, "true} "...)
		doc.Fields = append(doc.Fields, writer.Field{Name: "ok", Values: []string{"true"}})

		var check map[string]any
		if err := json.Unmarshal(b, &check); err != nil {
			t.Fatalf("generated record %q: %v", b, err)
		}
		if check["msg"] != doc.Fields[0].Values[0] {
			t.Fatalf("generated record %q: msg decodes to %q, generator says %q", b, check["msg"], doc.Fields[0].Values[0])
		}
		recs = append(recs, b)
		toks = append(toks, tk)
		doc.Record = b
		docs = append(docs, doc)
	}
	s := buildDocs(t, writer.DefaultOptions(fields...), docs)
	checkHighlights(t, s, rng, fields, recs, toks)
}

// TestHighlightsStoreFormats: a mixed store reads a JSON object as JSON and
// any other record as text; a nil Document.Record is stored as its fields'
// JSON and highlighted there; a JSON store refuses a text record; a segment
// without a store has no highlights.
func TestHighlightsStoreFormats(t *testing.T) {
	o := writer.DefaultOptions("text", "msg")
	o.RecordFormat, o.TextField = snii.RecordMixed, "text"
	s := buildDocs(t, o, []writer.Document{
		{Fields: []writer.Field{{Name: "msg", Values: []string{"an Error"}}}, Record: []byte(`{"msg": "an Error"}`)},
		{Fields: []writer.Field{{Name: "text", Values: []string{`["an Error"]`}}}, Record: []byte(`["an Error"]`)},
	})
	for id, want := range [][]reader.Span{{{Start: 12, End: 17}}, {{Start: 5, End: 10}}} {
		rec, err := s.Record(bg, uint32(id))
		if err != nil {
			t.Fatal(err)
		}
		q := reader.Or(reader.Term("msg", "error"), reader.Term("text", "error"))
		if got, err := s.Highlights(q, rec); err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("mixed record %q: %v, %v; want %v", rec, got, err, want)
		}
	}

	s = buildDocs(t, writer.DefaultOptions("a.b", "c"), []writer.Document{writer.Doc("a.b", "X y\n", "c", "é x")})
	rec, err := s.Record(bg, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Highlights(reader.Or(reader.Term("a.b", "x"), reader.Term("c", "x")), rec)
	if err != nil || len(got) != 2 || string(rec[got[0].Start:got[0].End]) != "X" || string(rec[got[1].Start:got[1].End]) != "x" {
		t.Errorf("record %q of a library document: %v, %v", rec, got, err)
	}
	if _, err := s.Highlights(reader.Term("msg", "error"), []byte(`not json`)); !errors.Is(err, snii.ErrInvalidArgument) {
		t.Errorf("JSON store, text record: err %v, want invalid argument", err)
	}
	if _, err := s.Highlights(reader.Term("nope", "x"), rec); !errors.Is(err, snii.ErrNotFound) {
		t.Errorf("unknown field: err %v, want not found", err)
	}

	o = writer.DefaultOptions("text")
	o.NoStore = true
	s = buildDocs(t, o, []writer.Document{writer.Doc("text", "x")})
	if _, err := s.Highlights(reader.Term("text", "x"), []byte("x")); !errors.Is(err, snii.ErrNotFound) {
		t.Errorf("no store: err %v, want not found", err)
	}
}

// plainAnalyzer is the standard analyzer without its offsets, as an analyzer
// registered without analysis.OffsetAnalyzer looks.
type plainAnalyzer struct{ a analysis.Analyzer }

func (p plainAnalyzer) Analyze(text string, emit func([]byte, uint32)) (uint32, uint32) {
	return p.a.Analyze(text, emit)
}

// bogusAnalyzer reports offsets outside the text.
type bogusAnalyzer struct{ plainAnalyzer }

func (b bogusAnalyzer) AnalyzeOffsets(text string, emit func([]byte, uint32, int, int)) (uint32, uint32) {
	return b.a.Analyze(text, func(term []byte, pos uint32) { emit(term, pos, len(text), len(text)+5) })
}

func init() {
	for name, wrap := range map[string]func(analysis.Analyzer) analysis.Analyzer{
		"test-hl-plain": func(a analysis.Analyzer) analysis.Analyzer { return plainAnalyzer{a} },
		"test-hl-bogus": func(a analysis.Analyzer) analysis.Analyzer { return bogusAnalyzer{plainAnalyzer{a}} },
	} {
		analysis.Register(name, 1, func(analysis.Spec) (analysis.Analyzer, error) {
			a, err := analysis.New(analysis.Standard)
			return wrap(a), err
		})
	}
}

// TestHighlightsRegisteredAnalyzers: an analyzer without offsets gets its
// terms located in the text (the standard ranges here); one reporting
// offsets outside the value gives no spans and no panic.
func TestHighlightsRegisteredAnalyzers(t *testing.T) {
	rec := `{"a": "Conn \u00e9t\u00e9 refused, CONN été"}`
	for spec, want := range map[string]string{"test-hl-plain": `[{7 25} {35 45}]`, "test-hl-bogus": `[]`} {
		o := writer.DefaultOptions("a")
		o.Fields[0].Analyzer = spec
		s := buildDocs(t, o, []writer.Document{{Fields: []writer.Field{{Name: "a", Values: []string{"Conn été refused, CONN été"}}}, Record: []byte(rec)}})
		got, err := s.Highlights(reader.Or(reader.Phrase("a", "conn", "été"), reader.Term("a", "conn")), []byte(rec))
		if err != nil || fmt.Sprint(got) != want {
			t.Errorf("%s: %v, %v; want %s", spec, got, err, want)
		}
	}
}
