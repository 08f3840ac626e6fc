package prx

// Memory governs the buffers into which a Source inflates ZSTD units (its own, and
// those of the cursors opened on it). A reader sets one per query with
// Source.SetMemory to cap what one unit may declare and to account for the bytes
// allocated, for example against a budget shared by concurrent queries.
type Memory interface {
	// Reserve is called before a ZSTD unit that declares plain bytes of RAW payload
	// is inflated (after its frame passed every structural check), with alloc the
	// bytes of the buffer about to be allocated for it: 0 when the buffer in use
	// already holds the unit. A non-nil error stops the decode and is returned as
	// the decode's error (wrapped, so errors.Is sees its kind); nothing is allocated.
	Reserve(plain, alloc int) error
}

// maxPooledBuffer is the largest inflation buffer a pooled Source or a released
// Cursor keeps; a larger one is dropped, so that idle pools never pin more than
// this per Source and cursor. A unit holds at most 512 positions (at most about
// 2.6 KiB of RAW payload; 1024 and 5 KiB in segment formats 5 and 6) unless it is one document with more, so 64 KiB covers all
// but units of one document with more than about 13,000 positions of a term.
const maxPooledBuffer = 64 << 10

// SetMemory makes the Source (and the cursors opened on it) call m before every
// ZSTD unit it inflates; nil disables the calls. SourcePool.Put clears it.
func (s *Source) SetMemory(m Memory) { s.mem = m }

// Release ends the cursor's use of its frame and Source: it drops its references
// to them and its inflation buffer when that is larger than a pooled Source keeps,
// so that a cursor kept for reuse does not pin a huge unit. The cursor can be
// opened again.
func (c *Cursor) Release() {
	c.src, c.frame, c.br.src, c.err = nil, nil, nil, nil
	c.uDocs, c.doc, c.inDoc = 0, -1, false
	if cap(c.buf) > maxPooledBuffer {
		c.buf = nil
	}
}
