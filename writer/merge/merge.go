package merge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/snii-go/snii/budget"

	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/tmpfile"
	"github.com/snii-go/snii/writer"
)

// intermediatePrefix names the intermediate segments of a multi-pass merge
// in the temp dir (with the ID of the merge's claim on it: see
// internal/tmpfile).
const intermediatePrefix = tmpfile.MergePrefix

// intermediateZstdLevel is the zstd level of intermediate segments: their
// frames are decoded again by the next pass, so only speed matters.
const intermediateZstdLevel = 1

// Merge merges the sources, in order, into a new segment at dst (replaced if
// it exists; written to a temp file and renamed into place) and returns what
// it did. When ctx is done the merge stops, leaving nothing at dst and no temp
// files, and returns ctx's error. See the package doc for the doc ids, the
// options and the errors.
func Merge(ctx context.Context, dst string, sources []Source, o Options) (st Stats, err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := checkOptions(dst, &o); err != nil {
		return Stats{}, err
	}
	if len(sources) == 0 {
		return Stats{}, errs.Invalidf("merge: no sources")
	}
	tempDir := o.TempDir
	if tempDir == "" {
		tempDir = filepath.Dir(dst)
	}
	ro := readOptions{maxUnit: o.MaxUnitBytes, budget: o.DecodeBudget}
	srcs, err := newSources(sources, ro)
	if err != nil {
		return Stats{}, err
	}
	var temps []*source      // intermediate segments
	var owner *tmpfile.Owner // claim on tempDir, taken with the first intermediate segment
	defer func() {
		cerr := removeAll(srcs)
		if terr := removeAll(temps); cerr == nil {
			cerr = terr
		}
		if oerr := owner.Release(); cerr == nil && oerr != nil {
			cerr = oerr
		}
		if err == nil && cerr != nil {
			err = fmt.Errorf("merge: closing sources: %w", cerr)
		}
	}()
	if err := checkDestination(dst, sources); err != nil {
		return Stats{}, err
	}
	// Validation: each source is opened in turn, inspected and released.
	for _, s := range srcs {
		if err := s.inspect(); err != nil {
			return Stats{}, err
		}
	}
	if err := checkVersions(srcs); err != nil {
		return Stats{}, err
	}
	fields, err := unionFields(srcs)
	if err != nil {
		return Stats{}, err
	}
	wo, err := writerOptions(srcs, fields, &o)
	if err != nil {
		return Stats{}, err
	}
	if err := applyDeletes(srcs, sources); err != nil {
		return Stats{}, err
	}
	total, err := checkTotal(srcs)
	if err != nil {
		return Stats{}, err
	}
	if err := countWith(ctx, srcs); err != nil {
		return Stats{}, err
	}
	st.Sources = len(srcs)
	for _, s := range srcs {
		st.DocsIn += uint64(s.docs)
		st.Deleted += uint64(s.docs) - s.survivors()
	}
	st.Docs = total

	// Passes: while the sources exceed the fan-in, merge consecutive groups
	// into intermediate segments (same postings, so the same final bytes).
	level := srcs
	fan := fanIn(o.MemoryLimit)
	inter := wo
	inter.Policy, inter.ZstdLevel = budget.Policy{Kind: budget.Smallest}, intermediateZstdLevel
	inter.Pairs = writer.Pairs{Percent: writer.PairsOff} // the final pass recounts them from the postings
	st.Passes = 1
	for len(level) > fan {
		var next []*source
		for i := 0; i < len(level); i += fan {
			group := level[i:min(i+fan, len(level))]
			if len(group) == 1 && group[0].del == nil {
				next = append(next, group[0])
				continue
			}
			if owner == nil {
				if owner, err = tmpfile.Claim(tempDir); err != nil {
					return Stats{}, fmt.Errorf("merge: %w", err)
				}
			}
			s, err := mergeIntermediate(ctx, owner, group, fields, inter, &temps)
			if err != nil {
				return Stats{}, err
			}
			next = append(next, s)
			// The group is merged: its intermediate segments can go now.
			for _, g := range group {
				if g.temp {
					if err := g.remove(); err != nil {
						return Stats{}, err
					}
				}
			}
		}
		level = next
		st.Passes++
	}
	wst, n, err := build(ctx, dst, level, fields, wo)
	if err != nil {
		return Stats{}, err
	}
	if wst.Docs != total {
		return Stats{}, fmt.Errorf("merge: %s: wrote %d documents, expected %d", dst, wst.Docs, total)
	}
	st.Terms, st.BytesOut = wst.Terms, wst.BytesOut
	st.Postings, st.Positions = n.postings, n.positions
	return st, nil
}

// mergeIntermediate merges a group of sources into a new intermediate
// segment in tempDir and returns it as a source.
func mergeIntermediate(ctx context.Context, owner *tmpfile.Owner, group []*source, fields []fieldPlan, wo writer.Options, temps *[]*source) (*source, error) {
	f, err := owner.Create(intermediatePrefix, 0o600)
	if err != nil {
		return nil, fmt.Errorf("merge: create intermediate segment in %s: %w", owner.Dir(), err)
	}
	path := f.Name()
	s := &source{ord: group[0].ord, name: path, path: path, temp: true, ro: group[0].ro}
	*temps = append(*temps, s) // removed at the end, whatever happens
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	if _, _, err := build(ctx, path, group, fields, wo); err != nil {
		return nil, err
	}
	if err := s.inspect(); err != nil {
		return nil, err
	}
	return s, nil
}

// build writes one pass: the sources' surviving documents, concatenated in
// order, through writer.BuildFromSources.
func build(ctx context.Context, path string, srcs []*source, fields []fieldPlan, wo writer.Options) (writer.Stats, counts, error) {
	var n counts
	bases := make([]uint32, len(srcs))
	var docs uint64
	for i, s := range srcs {
		bases[i] = uint32(docs)
		docs += s.survivors()
	}
	// The pass's sources are open while it runs (each keeps only what its
	// cursor of the field being written reads); cursors close first.
	defer func() {
		for _, s := range srcs {
			s.release()
		}
	}()
	var all []*cursor
	defer func() {
		for _, c := range all {
			c.close()
		}
	}()
	for _, s := range srcs {
		if err := s.open(); err != nil {
			return writer.Stats{}, n, err
		}
	}
	inputs := make([]writer.IndexInput, 0, len(fields))
	for _, f := range fields {
		in := writer.IndexInput{Name: f.name}
		var ps []writer.PostingSource
		for i, s := range srcs {
			if _, ok := s.metas[f.name]; !ok {
				continue // a field missing from a source has no docs there
			}
			in.DocsWithField += s.with[f.name]
			if s.survivors() == 0 {
				continue
			}
			// Skipped tokens are not recorded per document: a source with
			// deletions passes on its whole count (an upper bound).
			in.SkippedTokens += s.metas[f.name].SkippedTokens
			c := &cursor{ctx: ctx, src: s, field: f.name, base: bases[i], n: &n}
			all = append(all, c)
			ps = append(ps, c)
		}
		in.SkipDocs, in.SkipDocsUnknown = mergeSkipDocs(srcs, bases, f.name)
		if f.norms {
			var err error
			if in.Norms, err = mergeNorms(ctx, srcs, f.name, docs); err != nil {
				return writer.Stats{}, n, err
			}
		}
		switch len(ps) {
		case 0:
		case 1:
			in.Postings = ps[0]
		default:
			in.Postings = writer.MergeSources(ps...)
		}
		inputs = append(inputs, in)
	}
	var records func(add func(rec []byte) error) error
	if !wo.NoStore {
		records = func(add func(rec []byte) error) error { return copyRecords(ctx, srcs, add) }
	}
	wst, err := writer.BuildFromSources(ctx, path, wo, docs, inputs, records)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			err = fmt.Errorf("%w (%w)", cerr, err)
		}
		return wst, n, err
	}
	return wst, n, nil
}

// checkDestination refuses a destination that is one of the source files.
func checkDestination(dst string, sources []Source) error {
	dfi, err := os.Stat(dst)
	if err != nil {
		return nil // absent (or unreadable: the writer reports it)
	}
	for i, s := range sources {
		if s.Segment != nil || s.Path == "" {
			continue
		}
		if fi, err := os.Stat(s.Path); err == nil && os.SameFile(fi, dfi) {
			return errs.Invalidf("merge: the destination %s is source %d; write to a new file", dst, i)
		}
	}
	return nil
}

// recordBatch is how many records a merge reads from a source per Records call.
const recordBatch = 4096

// copyRecords passes the surviving records of the sources, in order, to add.
func copyRecords(ctx context.Context, srcs []*source, add func(rec []byte) error) error {
	ids := make([]uint32, 0, recordBatch)
	fn := func(_ uint32, rec []byte) error { return add(rec) }
	for _, s := range srcs {
		for id := uint32(0); id < s.docs; {
			ids = ids[:0]
			for ; id < s.docs && len(ids) < recordBatch; id++ {
				if s.del == nil || !s.del.has(id) {
					ids = append(ids, id)
				}
			}
			if len(ids) == 0 {
				continue
			}
			if err := s.seg.Records(ctx, ids, fn); err != nil {
				return s.wrap(err)
			}
		}
	}
	return nil
}
