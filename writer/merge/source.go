package merge

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/sorted"
	"github.com/snii-go/snii/reader"
)

// openPath opens a segment file for a merge: read through a chunkReader (not
// mapped), without a dict block cache (a merge reads every block once), with
// the decode bounds of the merge's options.
func openPath(path string, ro readOptions) (*reader.Segment, *chunkReader, error) {
	r, err := openChunked(path)
	if err != nil {
		return nil, nil, err
	}
	seg, err := reader.OpenReaderAt(context.Background(), r, r.size, reader.Options{BlockCacheBytes: -1, Name: path,
		MaxUnitBytes: ro.maxUnit, DecodeBudget: ro.budget})
	if err != nil {
		r.Close()
		return nil, nil, err
	}
	return seg, r, nil
}

// readOptions are the decode bounds of the sources Merge opens
// (Options.MaxUnitBytes and DecodeBudget).
type readOptions struct {
	maxUnit int
	budget  *reader.DecodeBudget
}

// source is one segment of a merge: a caller's open segment, a file the
// caller named, or an intermediate segment of a multi-pass merge. Files are
// open only while they are read (validation, their pass), so the memory of a
// pass depends on the sources of that pass only.
type source struct {
	ord   int             // position in the caller's list (intermediate: first source of its group)
	name  string          // path or "open segment", for messages
	path  string          // the file to open ("" for a caller's segment)
	given *reader.Segment // the caller's segment (never closed by Merge)
	temp  bool            // path is an intermediate segment, removed by remove

	seg  *reader.Segment // open: given, or opened from path
	file *chunkReader    // the file under seg when Merge opened it
	ro   readOptions     // how path is opened

	docs    uint32
	version reader.Version
	fields  []string // its fields, by name
	metas   map[string]format.IndexMeta
	del     *delSet           // nil: nothing deleted
	with    map[string]uint64 // surviving docs with at least one token, per field

	store    reader.StoreInfo // the source's store, when hasStore
	hasStore bool
}

func (s *source) wrap(err error) error {
	if errs.Placed(err) { // it names the segment
		return fmt.Errorf("merge: source %d: %w", s.ord, err)
	}
	return fmt.Errorf("merge: source %d (%s): %w", s.ord, s.name, err)
}

// survivors returns the source's documents that are not deleted.
func (s *source) survivors() uint64 {
	if s.del == nil {
		return uint64(s.docs)
	}
	return uint64(s.docs) - uint64(s.del.len())
}

// open makes s.seg usable.
func (s *source) open() error {
	if s.seg != nil {
		return nil
	}
	if s.given != nil {
		s.seg = s.given
		return nil
	}
	seg, f, err := openPath(s.path, s.ro)
	if err != nil {
		return s.wrap(err)
	}
	s.seg, s.file = seg, f
	return nil
}

// release closes the segment if Merge opened it.
func (s *source) release() error {
	var err error
	if s.seg != nil && s.seg != s.given {
		err = s.seg.Close()
	}
	s.seg = nil
	if s.file != nil {
		if ferr := s.file.Close(); err == nil {
			err = ferr
		}
		s.file = nil
	}
	return err
}

// remove releases the source and deletes it if it is an intermediate segment.
func (s *source) remove() error {
	err := s.release()
	if s.temp {
		if rerr := os.Remove(s.path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
			err = rerr
		}
		s.temp = false
	}
	return err
}

// newSources checks the caller's sources (each a segment or a path, none
// given twice) without opening them.
func newSources(in []Source, ro readOptions) ([]*source, error) {
	type fileID struct {
		ord int
		fi  os.FileInfo
	}
	var files []fileID
	srcs := make([]*source, 0, len(in))
	for i, x := range in {
		s := &source{ord: i, name: x.Path, path: x.Path, given: x.Segment, ro: ro}
		switch {
		case x.Segment != nil:
			s.path = ""
			if s.name == "" {
				s.name = "open segment"
			}
			for _, p := range srcs {
				if p.given == x.Segment {
					return nil, errs.Invalidf("merge: sources %d and %d are the same segment", p.ord, i)
				}
			}
		case x.Path == "":
			return nil, errs.Invalidf("merge: source %d has neither a segment nor a path", i)
		default:
			fi, err := os.Stat(x.Path)
			if err != nil {
				return nil, fmt.Errorf("merge: source %d: %w", i, err)
			}
			for _, f := range files {
				if os.SameFile(f.fi, fi) {
					return nil, errs.Invalidf("merge: sources %d and %d are the same file %s", f.ord, i, x.Path)
				}
			}
			files = append(files, fileID{i, fi})
		}
		srcs = append(srcs, s)
	}
	return srcs, nil
}

// inspect opens the source, reads its version, doc count and index
// metadata, and releases it.
func (s *source) inspect() (err error) {
	if err := s.open(); err != nil {
		return err
	}
	defer func() {
		if rerr := s.release(); err == nil && rerr != nil {
			err = s.wrap(rerr)
		}
	}()
	if s.version, err = s.seg.Version(); err != nil {
		return s.wrap(err)
	}
	s.docs = s.seg.DocCount()
	s.fields = s.seg.Fields()
	s.store, s.hasStore = s.seg.Store()
	s.metas = make(map[string]format.IndexMeta, len(s.fields))
	s.with = make(map[string]uint64, len(s.fields))
	for _, name := range s.fields {
		m, err := seam.IndexMeta(s.seg, name)
		if err != nil {
			return s.wrap(err)
		}
		m.Blocks, m.FirstTerms = nil, nil // not needed; do not hold them
		s.metas[name] = m
		s.with[name] = m.DocsWithField
	}
	return nil
}

// removeAll releases every source (removing intermediate segments) and
// returns the first error.
func removeAll(srcs []*source) error {
	var first error
	for _, s := range srcs {
		if err := s.remove(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// checkVersions requires every source to have a format version this writer
// reads and can carry: a merge decodes every posting and writes it again in
// the version it writes, so a source of an older version the reader reads
// (format.OldestReadable on) is upgraded, while a newer one could hold what
// this writer cannot carry.
func checkVersions(srcs []*source) error {
	vs := make([]reader.Version, len(srcs))
	for i, s := range srcs {
		vs[i] = s.version
	}
	return compatible(srcs, vs)
}

// compatible checks the versions read from the sources (vs[i] of srcs[i]).
func compatible(srcs []*source, vs []reader.Version) error {
	for i, v := range vs {
		if v.Format < format.OldestReadable || v.Format > format.FormatVersion {
			return errs.Versionf("merge: source %d (%s) has format version %d (min reader %d); merge writes version %d and merges segments of versions %d to %d",
				srcs[i].ord, srcs[i].name, v.Format, v.MinReader, format.FormatVersion, format.OldestReadable, format.FormatVersion)
		}
	}
	return nil
}

// fieldPlan is one field of the destination.
type fieldPlan struct {
	name     string
	analyzer string
	norms    bool    // the field stores norms
	from     *source // the first source holding it (for messages)
}

// unionFields returns the union of the sources' fields sorted by name,
// requiring each to have one analyzer in every source holding it.
func unionFields(srcs []*source) ([]fieldPlan, error) {
	byName := make(map[string]int)
	var fields []fieldPlan
	for _, s := range srcs {
		for _, name := range s.fields {
			an, norms := s.metas[name].Analyzer, s.metas[name].HasNorms
			if i, ok := byName[name]; ok {
				if f := fields[i]; f.analyzer != an {
					return nil, errs.Invalidf("merge: field %q has analyzer %q in source %d (%s) and %q in source %d (%s); segments merge only when a field has one analyzer",
						name, f.analyzer, f.from.ord, f.from.name, an, s.ord, s.name)
				} else if f.norms != norms {
					return nil, errs.Invalidf("merge: field %q stores norms in source %d (%s) but not in source %d (%s); segments merge only when a field stores norms in all or none",
						name, pick(f.norms, f.from, s).ord, pick(f.norms, f.from, s).name, pick(!f.norms, f.from, s).ord, pick(!f.norms, f.from, s).name)
				}
				continue
			}
			byName[name] = len(fields)
			fields = append(fields, fieldPlan{name: name, analyzer: an, norms: norms, from: s})
		}
	}
	if len(fields) == 0 {
		return nil, errs.Invalidf("merge: the sources have no field")
	}
	slices.SortFunc(fields, func(a, b fieldPlan) int {
		return cmp.Compare(a.name, b.name)
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
		if err := s.open(); err != nil {
			return err
		}
		for _, name := range s.fields {
			n, err := s.survivorsWith(ctx, name, s.metas[name].DocsWithField)
			if err != nil {
				s.release()
				return err
			}
			s.with[name] = n
		}
		if err := s.release(); err != nil {
			return s.wrap(err)
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
	it, err := s.seg.TermIter(ctx, field)
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
				j = sorted.SeekGE(unc, j, d)
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

// pick returns a when first, else b.
func pick(first bool, a, b *source) *source {
	if first {
		return a
	}
	return b
}
