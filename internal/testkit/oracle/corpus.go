package oracle

import (
	"cmp"
	"slices"
	"strings"
	"sync"
)

// Field is one named field of a document with its values: the document type
// of the test kits (testkit.GenLogs generates them; segtest.Document turns
// them into writer documents). It has writer.Field's shape, but the oracle
// imports nothing of snii, so that package index's tests can use it.
type Field struct {
	Name   string
	Values []string
}

// Doc is a document: its fields in any order. A field name may repeat; its values
// are then appended in order.
type Doc []Field

// TermStat is a term of a field with its document frequency and total frequency.
type TermStat struct {
	Term string
	DF   int
	TTF  int
}

// Corpus holds analyzed documents, one dense token sequence per document and
// field. Add must not run concurrently with anything else; once documents are
// added, Eval, Expand and Vocabulary may run concurrently.
type Corpus struct {
	ids    map[string]int32
	terms  []string
	fields map[string]*fieldData
	nDocs  uint32
	an     map[string]string // analyzer per field (SetAnalyzer); absent: standard
	mu     sync.Mutex        // guards the lazily sorted vocabularies
}

type fieldData struct {
	docs    []docData // ascending doc ids, only documents with a term
	df, ttf map[int32]int
	sorted  []string // vocabulary in byte order, built lazily
}

// docData is one document's field: the term id at each position (-1: no term
// there) and its distinct term ids, sorted (a quick reject before the scan).
type docData struct {
	doc  uint32
	seq  []int32
	uniq []int32
}

// find returns the document's data, or nil.
func (fd *fieldData) find(doc uint32) *docData {
	i, ok := slices.BinarySearchFunc(fd.docs, doc, func(d docData, id uint32) int {
		return cmp.Compare(d.doc, id)
	})
	if !ok {
		return nil
	}
	return &fd.docs[i]
}

// New returns an empty corpus.
func New() *Corpus {
	return &Corpus{ids: map[string]int32{}, fields: map[string]*fieldData{}}
}

// SetAnalyzer makes Add analyze field with the named built-in analyzer (see
// TokenizeWith) instead of the standard one. Call it before adding documents.
func (c *Corpus) SetAnalyzer(field, analyzer string) {
	TokenizeWith(analyzer, "") // panics on an unknown name
	if c.an == nil {
		c.an = map[string]string{}
	}
	c.an[field] = analyzer
}

// DocCount returns the number of documents added.
func (c *Corpus) DocCount() uint32 { return c.nDocs }

// Fields returns the field names seen, in byte order.
func (c *Corpus) Fields() []string {
	out := make([]string, 0, len(c.fields))
	for f := range c.fields {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// AddText adds a document with one field of one value and returns its id.
func (c *Corpus) AddText(field, text string) uint32 {
	return c.Add(Doc{{Name: field, Values: []string{text}}})
}

// Add analyzes a document and returns its id (ids count from 0 in insertion order).
func (c *Corpus) Add(d Doc) uint32 {
	id := c.nDocs
	c.nDocs++
	type acc struct {
		seq  []int32
		base uint32
		any  bool
	}
	per := map[string]*acc{}
	var order []string
	for _, f := range d {
		a := per[f.Name]
		if a == nil {
			a = &acc{}
			per[f.Name] = a
			order = append(order, f.Name)
		}
		for _, v := range f.Values {
			if a.any {
				a.base += ValueGap
			}
			a.any = true
			toks, used := TokenizeWith(c.an[f.Name], v)
			for _, t := range toks {
				p := a.base + t.Pos
				for uint32(len(a.seq)) <= p {
					a.seq = append(a.seq, -1)
				}
				a.seq[p] = c.intern(t.Term)
			}
			a.base += used
		}
	}
	for _, name := range order {
		a := per[name]
		fd := c.fields[name]
		if fd == nil {
			fd = &fieldData{df: map[int32]int{}, ttf: map[int32]int{}}
			c.fields[name] = fd
		}
		var uniq []int32
		for _, t := range a.seq {
			if t >= 0 {
				fd.ttf[t]++
				uniq = append(uniq, t)
			}
		}
		slices.Sort(uniq)
		uniq = slices.Compact(uniq)
		for _, t := range uniq {
			fd.df[t]++
		}
		if len(uniq) > 0 {
			fd.docs = append(fd.docs, docData{doc: id, seq: a.seq, uniq: uniq})
			fd.sorted = nil
		}
	}
	return id
}

func (c *Corpus) intern(t string) int32 {
	if id, ok := c.ids[t]; ok {
		return id
	}
	id := int32(len(c.terms))
	c.ids[t] = id
	c.terms = append(c.terms, t)
	return id
}

// Vocabulary returns the terms of a field in byte order with their statistics.
func (c *Corpus) Vocabulary(field string) []TermStat {
	fd := c.fields[field]
	if fd == nil {
		return nil
	}
	out := make([]TermStat, 0, len(fd.df))
	for _, t := range c.sortedTerms(fd) {
		id := c.ids[t]
		out = append(out, TermStat{Term: t, DF: fd.df[id], TTF: fd.ttf[id]})
	}
	return out
}

// DocsWithField returns the number of documents with at least one term in field.
func (c *Corpus) DocsWithField(field string) int {
	if fd := c.fields[field]; fd != nil {
		return len(fd.docs)
	}
	return 0
}

func (c *Corpus) sortedTerms(fd *fieldData) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if fd.sorted == nil {
		s := make([]string, 0, len(fd.df))
		for id := range fd.df {
			s = append(s, c.terms[id])
		}
		slices.Sort(s)
		fd.sorted = s
	}
	return fd.sorted
}

// Expand returns the first max terms of field (in byte order) that start with
// prefix; max <= 0 means all of them.
func (c *Corpus) Expand(field, prefix string, max int) []string {
	fd := c.fields[field]
	if fd == nil {
		return nil
	}
	terms := c.sortedTerms(fd)
	i, _ := slices.BinarySearch(terms, prefix)
	var out []string
	for ; i < len(terms) && strings.HasPrefix(terms[i], prefix); i++ {
		if max > 0 && len(out) == max {
			break
		}
		out = append(out, terms[i])
	}
	return out
}

// Positions returns the positions of term in a document's field (nil when absent).
func (c *Corpus) Positions(doc uint32, field, term string) []uint32 {
	fd := c.fields[field]
	id, ok := c.ids[term]
	if fd == nil || !ok {
		return nil
	}
	d := fd.find(doc)
	if d == nil {
		return nil
	}
	var out []uint32
	for p, t := range d.seq {
		if t == id {
			out = append(out, uint32(p))
		}
	}
	return out
}

// Sequence returns the terms of a document's field by position ("" where no term
// is indexed: skipped tokens and value gaps).
func (c *Corpus) Sequence(doc uint32, field string) []string {
	fd := c.fields[field]
	if fd == nil {
		return nil
	}
	d := fd.find(doc)
	if d == nil {
		return nil
	}
	seq := d.seq
	out := make([]string, len(seq))
	for i, t := range seq {
		if t >= 0 {
			out[i] = c.terms[t]
		}
	}
	return out
}
