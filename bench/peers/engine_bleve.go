package peers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/regexp"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Field is the one text field every engine indexes.
const Field = "text"

const (
	bleveAnalyzer  = "snii_standard"
	bleveTokenizer = "snii_regexp"
	bleveLower     = "snii_lower_rune"
)

func init() {
	// bleve's registry is global; the filter type is registered once.
	err := registry.RegisterTokenFilter(bleveLower, func(map[string]interface{}, *registry.Cache) (analysis.TokenFilter, error) {
		return runeLowerFilter{}, nil
	})
	if err != nil {
		panic(err)
	}
}

// runeLowerFilter lowercases each token rune by rune (unicode.ToLower) and
// drops tokens longer than MaxTokenBytes after lowercasing; the tokenizer has
// already numbered the positions, so a dropped token keeps its position.
type runeLowerFilter struct{}

func (runeLowerFilter) Filter(in analysis.TokenStream) analysis.TokenStream {
	out := in[:0]
	for _, t := range in {
		t.Term = lowerRunes(make([]byte, 0, len(t.Term)), t.Term)
		if len(t.Term) > MaxTokenBytes {
			continue
		}
		out = append(out, t)
	}
	return out
}

// BleveMapping is the index mapping every bleve index of the harness uses:
// one text field with the shared analyzer (regexp tokenizer + per-rune
// lowercase), term vectors on (phrases need them), nothing stored, no doc
// values, no _all field, no dynamic fields.
func BleveMapping() (*mapping.IndexMappingImpl, error) {
	im := bleve.NewIndexMapping()
	if err := im.AddCustomTokenizer(bleveTokenizer, map[string]interface{}{
		"type":   regexp.Name,
		"regexp": TokenPattern,
	}); err != nil {
		return nil, err
	}
	if err := im.AddCustomAnalyzer(bleveAnalyzer, map[string]interface{}{
		"type":          custom.Name,
		"tokenizer":     bleveTokenizer,
		"token_filters": []interface{}{bleveLower},
	}); err != nil {
		return nil, err
	}
	fm := bleve.NewTextFieldMapping()
	fm.Analyzer = bleveAnalyzer
	fm.Store = false
	fm.IncludeTermVectors = true
	fm.IncludeInAll = false
	fm.DocValues = false
	dm := bleve.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt(Field, fm)
	im.DefaultMapping = dm
	im.DefaultAnalyzer = bleveAnalyzer
	im.StoreDynamic = false
	im.IndexDynamic = false
	im.DocValuesDynamic = false
	return im, nil
}

// BuildBleve builds one bleve index (a single scorch segment, through
// bleve.NewBuilder) from the docs file into dir. Doc ids are the decimal
// doc numbers.
func BuildBleve(docsPath, dir string) (BuildResult, error) {
	res := BuildResult{Engine: "bleve", Options: "bleve v2.6.3 NewBuilder (scorch, zapx v17), regexp " + TokenPattern + " + per-rune lowercase, term vectors on, no store, no doc values"}
	im, err := BleveMapping()
	if err != nil {
		return res, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return res, err
	}
	tmp := dir + ".tmp"
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return res, err
	}
	defer os.RemoveAll(tmp)
	start := time.Now()
	b, err := bleve.NewBuilder(dir, im, map[string]interface{}{"buildPathPrefix": tmp})
	if err != nil {
		return res, err
	}
	doc := map[string]interface{}{}
	err = EachDoc(docsPath, func(id int, text string) error {
		doc[Field] = text
		res.Docs++
		return b.Index(strconv.Itoa(id), doc)
	})
	if err != nil {
		b.Close()
		return res, err
	}
	if err := b.Close(); err != nil {
		return res, err
	}
	res.Seconds = time.Since(start).Seconds()
	res.Size, res.Files, err = dirSizes(dir)
	return res, err
}

// dirSizes sums the regular files under dir (keys relative to dir).
func dirSizes(dir string) (int64, map[string]int64, error) {
	files := map[string]int64{}
	var total int64
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if fi.Mode().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			files[rel] = fi.Size()
			total += fi.Size()
		}
		return nil
	})
	return total, files, err
}

type bleveEngine struct {
	idx bleve.Index
	qs  []*Query
}

// OpenBleve opens a bleve index read-only for the prepared queries.
func OpenBleve(dir string, qs []*Query) (Engine, error) {
	idx, err := bleve.OpenUsing(dir, map[string]interface{}{"read_only": true})
	if err != nil {
		return nil, err
	}
	return &bleveEngine{idx: idx, qs: qs}, nil
}

func (e *bleveEngine) Name() string { return "bleve" }
func (e *bleveEngine) Close() error { return e.idx.Close() }

// query builds the bleve query of q. A phrase prefix is expanded here from
// the field's dictionary (every term with the prefix), so the expansion is
// part of the timed work; ok is false when the prefix has no term.
func (e *bleveEngine) query(q *Query) (qq query.Query, ok bool, err error) {
	switch q.Kind {
	case KindTerm:
		t := bleve.NewTermQuery(q.Terms[0])
		t.SetField(Field)
		return t, true, nil
	case KindPhrase:
		return bleve.NewPhraseQuery(q.Terms, Field), true, nil
	case KindPrefix:
		p := bleve.NewPrefixQuery(q.Terms[0])
		p.SetField(Field)
		return p, true, nil
	case KindPhrasePrefix:
		d, err := e.idx.FieldDictPrefix(Field, []byte(q.Last()))
		if err != nil {
			return nil, false, err
		}
		var exp []string
		for {
			ent, err := d.Next()
			if err != nil {
				d.Close()
				return nil, false, err
			}
			if ent == nil {
				break
			}
			exp = append(exp, ent.Term)
		}
		if err := d.Close(); err != nil {
			return nil, false, err
		}
		if len(exp) == 0 {
			return nil, false, nil
		}
		terms := make([][]string, 0, len(q.Terms))
		for _, t := range q.Leading() {
			terms = append(terms, []string{t})
		}
		terms = append(terms, exp)
		return query.NewMultiPhraseQuery(terms, Field), true, nil
	}
	return nil, false, fmt.Errorf("bleve: unknown query kind %q", q.Kind)
}

func (e *bleveEngine) count(q *Query) (int, error) {
	qq, ok, err := e.query(q)
	if err != nil || !ok {
		return 0, err
	}
	req := bleve.NewSearchRequestOptions(qq, 0, 0, false)
	req.Score = bleve.ScoreNone
	res, err := e.idx.SearchInContext(context.Background(), req)
	if err != nil {
		return 0, err
	}
	return int(res.Total), nil
}

func (e *bleveEngine) Run(qi, reps int) (int, Timing, error) {
	q := e.qs[qi]
	n, t, err := timeCalls(reps, func() (int, error) { return e.count(q) })
	if err != nil {
		return 0, t, fmt.Errorf("bleve %s: %w", q, err)
	}
	return n, t, nil
}

func (e *bleveEngine) Docs(qi int) ([]uint32, error) {
	q := e.qs[qi]
	n, err := e.count(q)
	if err != nil || n == 0 {
		return []uint32{}, err
	}
	qq, _, err := e.query(q)
	if err != nil {
		return nil, err
	}
	req := bleve.NewSearchRequestOptions(qq, n, 0, false)
	req.Score = bleve.ScoreNone
	res, err := e.idx.SearchInContext(context.Background(), req)
	if err != nil {
		return nil, err
	}
	out := make([]uint32, 0, len(res.Hits))
	for _, h := range res.Hits {
		id, err := strconv.ParseUint(h.ID, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("bleve: hit id %q: %w", h.ID, err)
		}
		out = append(out, uint32(id))
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}
