// Package hooks connects the CLI to the parts of the writer and the reader that
// exist only for `snii capture` and `snii build --capture`: a callback for every
// .prx window a build encodes, and a walk over every stored .prx window of a
// segment; and the CLI's reports and the merge to the whole metadata of a
// segment's index. They are not part of the public API; packages writer and
// reader set these variables in their init functions.
package hooks

import (
	"context"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/prx"
)

// WindowFunc receives one stored .prx window of a term of a segment: its
// decoded positions (valid only during the call) and the units of its frame
// (each with its codec).
type WindowFunc func(term []byte, w *prx.Window, units []prx.Unit) error

// WriterOnWindow sets, on opts (a *writer.Options), a callback called for every
// .prx window the build encodes, in emission order (per index in name order;
// terms in byte order, windows ascending), with the window and the frame
// stored for it. w and f.Bytes are valid only during the call. An error fails
// the build. It never changes the segment's bytes.
var WriterOnWindow func(opts any, fn func(field string, w *prx.Window, f prx.Frame) error)

// SegmentWindows calls fn for every stored .prx window of the logical index
// field of seg (a *reader.Segment), in the order the writer emitted them,
// checking the index as Verify does.
var SegmentWindows func(ctx context.Context, seg any, field string, fn WindowFunc) error

// IndexMeta returns the whole metadata of the logical index field of seg (a
// *reader.Segment): stats, sections, codec policy and outcome, block
// directory; an unknown field is an snii.ErrNotFound error.
var IndexMeta func(seg any, field string) (format.IndexMeta, error)
