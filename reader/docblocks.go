package reader

import (
	"github.com/snii-go/snii/internal/codec/format"
)

// docCursor reads the doc ids of one window of a term: the whole window at
// once, or, for a blocked window (format 4: the windows of more than 128 docs
// of a windowed term), one 128-doc block at a time, so a seek decodes only the
// block that can hold its target. docs holds the decoded ids (the window's, or
// the current block's), ord0 the window ordinal of docs[0].
type docCursor struct {
	w       winInfo
	docs    []uint32
	ord0    int
	blocked bool
	bw      format.BlockedWindow
	blk     int // the block in docs (blocked)
	blks    []format.DocBlock
	gen     uint32 // counts the windows loaded (a cache of a block of the window checks it)
	impacts bool   // a blocked window's impacts are read (a scorer's cursor; else NImpacts is 0)
}

// load makes c read window w of t: a blocked window's directory is read and
// checked (no block decoded: docs is empty), any other window is decoded
// whole. Windowed terms only are read by blocks.
func (x *qctx) loadWindow(t *termRef, c *docCursor, w *winInfo) error {
	c.w, c.ord0, c.blocked, c.blk = *w, 0, false, -1
	c.gen++
	if t.e.Class == format.ClassWindowed && w.docs >= format.BlockedMinDocs {
		src, err := x.read(w.docOff, w.docLen)
		if err != nil {
			return t.f.seg.wrap(x.docWinName(t, w), err)
		}
		if format.IsBlocked(src) {
			if w.last >= t.f.seg.docCount {
				return t.f.seg.corrupt(x.docWinName(t, w), "last doc %d in a segment of %d documents", w.last, t.f.seg.docCount)
			}
			src, withCRC, mark := x.docWindowCRC(w.docOff, src)
			bw, err := format.ParseBlocked(src, w.docs, w.base, w.last, withCRC, c.impacts, c.blks)
			if err != nil {
				return t.f.seg.wrap(x.docWinName(t, w), err)
			}
			if mark {
				x.s.crcs.MarkVerified(int64(w.docOff))
			}
			c.bw, c.blks, c.blocked = bw, bw.Blocks, true
			c.docs = c.docs[:0]
			x.count.docWindows++
			return nil
		}
	}
	docs, err := x.decodeDocs(t, w, c.docs[:0])
	c.docs = docs
	return err
}

// seekBlock decodes the first block at or after the current one whose last doc
// is >= target (c.blocked; target <= the window's last doc) and returns false
// when there is none.
func (x *qctx) seekBlock(t *termRef, c *docCursor, target uint32) (bool, error) {
	b := c.bw.Find(max(c.blk, 0), target)
	if b == c.blk {
		return true, nil
	}
	if b == len(c.bw.Blocks) {
		return false, nil
	}
	docs, err := c.bw.Decode(b, c.docs[:0])
	c.docs = docs
	if err != nil {
		return false, t.f.seg.wrap(x.docWinName(t, &c.w), err)
	}
	c.blk, c.ord0 = b, int(c.bw.Blocks[b].Ord)
	x.count.docBlocks++
	x.count.docsDecoded += int64(len(docs))
	return true, nil
}
