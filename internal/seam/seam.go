package seam

import (
	"context"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/errs"
)

// EncodedFunc receives one .prx window a build encodes: its field, the
// window and the frame stored for it. w and f.Bytes are valid only during the
// call. An error fails the build.
type EncodedFunc func(field string, w *prx.Window, f prx.Frame) error

// Build is the part of writer.Options that only this package sets.
type Build struct {
	onWindow EncodedFunc
}

func (b *Build) seamBuild() *Build { return b }

// buildHolder is a type embedding a Build: *writer.Options.
type buildHolder interface{ seamBuild() *Build }

// SetOnWindow sets, on o (a *writer.Options), fn to be called for every .prx
// window the build encodes, in emission order (per field in name order; terms
// in byte order, windows ascending). It never changes the segment's bytes.
func SetOnWindow(o buildHolder, fn EncodedFunc) { o.seamBuild().onWindow = fn }

// OnWindow returns the callback SetOnWindow set on o, or nil.
func OnWindow(o buildHolder) EncodedFunc { return o.seamBuild().onWindow }

// WindowFunc receives one stored .prx window of a term of a segment: its
// decoded positions (valid only during the call) and the units of its frame
// (each with its codec).
type WindowFunc func(term []byte, w *prx.Window, units []prx.Unit) error

// SegmentImpl is what package reader implements for the functions below.
type SegmentImpl interface {
	// IndexMeta returns the whole metadata of the named field.
	IndexMeta(field string) (format.IndexMeta, error)
	// SkipDocs returns the named field's skipped documents (see SkipDocs).
	SkipDocs(field string) (docs []uint32, known bool, err error)
	// Windows calls fn for every stored .prx window of the named field.
	Windows(ctx context.Context, field string, fn WindowFunc) error
}

// Segment is the part of reader.Segment that only this package reads.
type Segment struct {
	impl SegmentImpl
}

// NewSegment returns the Segment a reader.Segment embeds, answering through impl.
func NewSegment(impl SegmentImpl) Segment { return Segment{impl: impl} }

var errUnopened = errs.Invalidf("segment: not opened (use a segment that reader.Open returned)")

func (s *Segment) seamSegment() *Segment { return s }

// segmentHolder is a type embedding a Segment: *reader.Segment.
type segmentHolder interface{ seamSegment() *Segment }

// IndexMeta returns the whole metadata of the named field of seg (a
// *reader.Segment): stats, sections, codec policy and outcome, block
// directory; an unknown field is an snii.ErrNotFound error. It shares nothing
// mutable with the segment except the byte slices of FirstTerms, which must
// not be modified.
func IndexMeta(seg segmentHolder, field string) (format.IndexMeta, error) {
	s := seg.seamSegment()
	if s.impl == nil {
		return format.IndexMeta{}, errUnopened
	}
	return s.impl.IndexMeta(field)
}

// SegmentWindows calls fn for every stored .prx window of the named
// field of seg (a *reader.Segment), in the order the writer emitted them
// (terms in byte order, windows ascending), checking the field as Verify does:
// a corrupt index fails with the error Verify would give; an error from fn
// stops the walk and is returned.
func SegmentWindows(ctx context.Context, seg segmentHolder, field string, fn WindowFunc) error {
	s := seg.seamSegment()
	if s.impl == nil {
		return errUnopened
	}
	return s.impl.Windows(ctx, field, fn)
}

// SkipDocs returns the documents, ascending, in which the named field of seg
// (a *reader.Segment) skipped at least one over-long token, and whether they
// are known (format 9; a field that skipped no token lists none). docs is
// shared with the segment and must not be modified. An unknown field is an
// snii.ErrNotFound error.
func SkipDocs(seg segmentHolder, field string) (docs []uint32, known bool, err error) {
	s := seg.seamSegment()
	if s.impl == nil {
		return nil, false, errUnopened
	}
	return s.impl.SkipDocs(field)
}
