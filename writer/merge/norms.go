package merge

import (
	"context"
)

// mergeNorms returns the norms of field for the pass's documents: each
// source's surviving documents' norm bytes, in order; a source without the
// field gives zeros (length 0) for its documents.
func mergeNorms(ctx context.Context, srcs []*source, field string, docs uint64) ([]byte, error) {
	out := make([]byte, 0, docs)
	for _, s := range srcs {
		if _, ok := s.metas[field]; !ok {
			out = append(out, make([]byte, s.survivors())...)
			continue
		}
		norms, err := s.seg.FieldLengths(ctx, field)
		if err != nil {
			return nil, s.wrap(err)
		}
		if s.del == nil {
			out = append(out, norms...)
			continue
		}
		for d, b := range norms {
			if !s.del.has(uint32(d)) {
				out = append(out, b)
			}
		}
	}
	return out, nil
}
