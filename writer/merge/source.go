package merge

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/snii-go/snii/index"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/reader"
)

// sourceOptions open a source given by path: read with pread (its pages do
// not stay resident) and no dict block cache (a merge reads every block once).
var sourceOptions = reader.Options{NoMmap: true, BlockCacheBytes: -1}

// source is one segment of a merge pass.
type source struct {
	ord   int    // position in the caller's list (intermediate: first source of its group)
	name  string // path or "open segment", for messages
	seg   *reader.Segment
	owned bool   // opened by Merge: closed by Merge
	temp  string // an intermediate segment file, removed by Merge
	docs  uint32
	del   *delSet           // nil: nothing deleted
	with  map[string]uint64 // surviving docs with at least one token, per field
	metas map[string]index.IndexMeta
}

func (s *source) wrap(err error) error {
	return fmt.Errorf("merge: source %d (%s): %w", s.ord, s.name, err)
}

// survivors returns the source's documents that are not deleted.
func (s *source) survivors() uint64 {
	if s.del == nil {
		return uint64(s.docs)
	}
	return uint64(s.docs) - uint64(s.del.len())
}

// close closes the segment if Merge opened it and removes it if it is an
// intermediate segment.
func (s *source) close() error {
	var err error
	if s.owned && s.seg != nil {
		err = s.seg.Close()
		s.seg = nil
	}
	if s.temp != "" {
		if rerr := os.Remove(s.temp); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
			err = rerr
		}
		s.temp = ""
	}
	return err
}

// openSources opens the sources given by path and reads every source's
// fields, checking that no segment or file is given twice. On error the
// segments opened so far are closed.
func openSources(in []Source) (srcs []*source, err error) {
	defer func() {
		if err != nil {
			closeAll(srcs)
			srcs = nil
		}
	}()
	type fileID struct {
		ord int
		fi  os.FileInfo
	}
	var files []fileID
	for i, x := range in {
		s := &source{ord: i, name: x.Path, seg: x.Segment}
		switch {
		case x.Segment != nil:
			if s.name == "" {
				s.name = "open segment"
			}
			for _, p := range srcs {
				if p.seg == x.Segment {
					return srcs, errs.Invalidf("merge: sources %d and %d are the same segment", p.ord, i)
				}
			}
		case x.Path == "":
			return srcs, errs.Invalidf("merge: source %d has neither a segment nor a path", i)
		default:
			fi, err := os.Stat(x.Path)
			if err != nil {
				return srcs, fmt.Errorf("merge: source %d: %w", i, err)
			}
			for _, f := range files {
				if os.SameFile(f.fi, fi) {
					return srcs, errs.Invalidf("merge: sources %d and %d are the same file %s", f.ord, i, x.Path)
				}
			}
			files = append(files, fileID{i, fi})
			seg, err := reader.OpenWith(x.Path, sourceOptions)
			if err != nil {
				return srcs, fmt.Errorf("merge: source %d: %w", i, err)
			}
			s.seg, s.owned = seg, true
		}
		srcs = append(srcs, s)
		if err := s.load(); err != nil {
			return srcs, err
		}
	}
	return srcs, nil
}

// load reads the source's doc count and index metadata.
func (s *source) load() error {
	s.docs = s.seg.DocCount()
	s.metas = make(map[string]index.IndexMeta)
	s.with = make(map[string]uint64)
	for _, name := range s.seg.Fields() {
		m, err := s.seg.Info(name)
		if err != nil {
			return s.wrap(err)
		}
		m.Blocks, m.FirstTerms = nil, nil // not needed; do not hold them
		s.metas[name] = m
		s.with[name] = m.DocsWithField
	}
	return nil
}

// closeAll closes every source and returns the first error.
func closeAll(srcs []*source) error {
	var first error
	for _, s := range srcs {
		if err := s.close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// checkVersions requires every source to have the format version this
// writer writes: a merge decodes every posting and writes it again, so a
// source of another version could hold what this writer cannot carry.
func checkVersions(srcs []*source) error {
	vs := make([]reader.Version, len(srcs))
	for i, s := range srcs {
		v, err := s.seg.Version()
		if err != nil {
			return s.wrap(err)
		}
		vs[i] = v
	}
	return compatible(srcs, vs)
}

// compatible checks the versions read from the sources (vs[i] of srcs[i]).
func compatible(srcs []*source, vs []reader.Version) error {
	for i, v := range vs {
		if v.Format != index.FormatVersion {
			return errs.Versionf("merge: source %d (%s) has format version %d (min reader %d); merge writes version %d and merges only segments of that version",
				srcs[i].ord, srcs[i].name, v.Format, v.MinReader, index.FormatVersion)
		}
	}
	return nil
}

// fieldPlan is one logical index of the destination.
type fieldPlan struct {
	name     string
	analyzer string
	from     int // the first source holding it (for messages)
}

// unionFields returns the union of the sources' indexes sorted by name,
// requiring each to have one analyzer in every source holding it.
func unionFields(srcs []*source) ([]fieldPlan, error) {
	byName := make(map[string]int)
	var fields []fieldPlan
	for _, s := range srcs {
		for _, name := range s.seg.Fields() {
			an := s.metas[name].Analyzer
			if i, ok := byName[name]; ok {
				if f := fields[i]; f.analyzer != an {
					return nil, errs.Invalidf("merge: field %q has analyzer %q in source %d (%s) and %q in source %d (%s); segments merge only when a field has one analyzer",
						name, f.analyzer, srcs[f.from].ord, srcs[f.from].name, an, s.ord, s.name)
				}
				continue
			}
			byName[name] = len(fields)
			fields = append(fields, fieldPlan{name: name, analyzer: an, from: s.ord})
		}
	}
	if len(fields) == 0 {
		return nil, errs.Invalidf("merge: the sources have no logical index")
	}
	slices.SortFunc(fields, func(a, b fieldPlan) int {
		switch {
		case a.name < b.name:
			return -1
		case a.name > b.name:
			return 1
		}
		return 0
	})
	return fields, nil
}

// applyDeletes checks each source's deleted ids against its doc count and
// builds its delete set.
func applyDeletes(srcs []*source, in []Source) error {
	for i, s := range srcs {
		bm := in[i].Deleted
		if bm == nil || bm.IsEmpty() {
			continue
		}
		if mx := bm.Maximum(); mx >= s.docs {
			return errs.Invalidf("merge: source %d (%s): deleted doc id %d out of range (the source has %d documents)", s.ord, s.name, mx, s.docs)
		}
		s.del = newDelSet(bm, s.docs)
	}
	return nil
}

// countWith sets the surviving documents with each field of the sources
// with deletes (see the package doc).
func countWith(ctx context.Context, srcs []*source) error {
	for _, s := range srcs {
		if s.del == nil {
			continue
		}
		for name, m := range s.metas {
			n, err := s.survivorsWith(ctx, name, m.DocsWithField)
			if err != nil {
				return err
			}
			s.with[name] = n
		}
	}
	return nil
}

// survivorsWith returns the surviving documents with at least one token in
// field, given the recorded count of documents with it.
func (s *source) survivorsWith(ctx context.Context, field string, recorded uint64) (uint64, error) {
	switch {
	case recorded == 0:
		return 0, nil
	case uint64(s.del.len()) == uint64(s.docs):
		return 0, nil
	case recorded == uint64(s.docs):
		return recorded - uint64(s.del.len()), nil
	}
	// Look each deleted doc up in the postings of the field's terms (by
	// skipping), dropping it from the search once found.
	unc := slices.Clone(s.del.ids)
	it, err := s.seg.TermIter(field)
	if err != nil {
		return 0, s.wrap(err)
	}
	defer it.Close()
	var found uint64
	var hits []int
	for n := 0; len(unc) > 0 && it.Next(); n++ {
		if n&255 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		p, err := it.Postings()
		if err != nil {
			return 0, s.wrap(err)
		}
		hits = hits[:0]
		for j := 0; j < len(unc); {
			if !p.Advance(unc[j]) {
				break
			}
			if d := p.Doc(); d == unc[j] {
				hits = append(hits, j)
				j++
			} else {
				j = seekGE(unc, j, d)
			}
		}
		if err := p.Err(); err != nil {
			return 0, s.wrap(err)
		}
		if len(hits) > 0 {
			found += uint64(len(hits))
			k, h := 0, 0
			for j, d := range unc {
				if h < len(hits) && hits[h] == j {
					h++
					continue
				}
				unc[k] = d
				k++
			}
			unc = unc[:k]
		}
	}
	if err := it.Err(); err != nil {
		return 0, s.wrap(err)
	}
	if found > recorded {
		return 0, s.wrap(errs.Corruptf("index %q: %d deleted documents hold a term, the index records %d documents with the field", field, found, recorded))
	}
	return recorded - found, nil
}

// seekGE returns the first index i >= lo with a[i] >= x (len(a) if none).
func seekGE(a []uint32, lo int, x uint32) int {
	i, _ := slices.BinarySearch(a[lo:], x)
	return lo + i
}

// checkTotal checks that the surviving documents fit one segment.
func checkTotal(srcs []*source) (uint64, error) {
	var total uint64
	for _, s := range srcs {
		total += s.survivors()
	}
	if total > math.MaxUint32 {
		return 0, errs.Limitf("merge: %d documents in all (a segment holds at most 2^32-1)", total)
	}
	return total, nil
}
