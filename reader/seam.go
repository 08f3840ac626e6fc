package reader

import (
	"context"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/seam"
)

// access is the seam.Segment a Segment embeds: package seam reaches a
// Segment's metadata and stored windows through it, and nothing of it is
// exported.
type access = seam.Segment

// segmentSeam is a Segment as package seam calls it (seam.SegmentImpl).
type segmentSeam Segment

func (s *segmentSeam) IndexMeta(field string) (format.IndexMeta, error) {
	return (*Segment)(s).meta(field)
}

func (s *segmentSeam) Windows(ctx context.Context, field string, fn seam.WindowFunc) error {
	return (*Segment)(s).windows(ctx, field, fn)
}

func (s *segmentSeam) SkipDocs(field string) ([]uint32, bool, error) {
	f, err := (*Segment)(s).field(field)
	if err != nil {
		return nil, false, err
	}
	return f.meta.SkipDocs, f.meta.SkipDocsKnown, nil
}
