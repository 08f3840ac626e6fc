package reader

// The memory-watch accessors of the tests.

// Limit returns the bound in bytes.
func (b *DecodeBudget) Limit() int64 { return b.limit }

// InUse returns the bytes held by running queries.
func (b *DecodeBudget) InUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Peak returns the most bytes held at once since the budget was created.
func (b *DecodeBudget) Peak() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peak
}

// Waiting returns the number of queries waiting for memory.
func (b *DecodeBudget) Waiting() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.waiters)
}

// Limit returns the bound in bytes.
func (b *BlockCache) Limit() int64 { return b.c.max }

// Used returns the bytes of the blocks held (each block counts its decoded
// bytes plus a fixed overhead).
func (b *BlockCache) Used() int64 {
	b.c.mu.Lock()
	defer b.c.mu.Unlock()
	return b.c.used
}

// Len returns the number of blocks held.
func (b *BlockCache) Len() int {
	b.c.mu.Lock()
	defer b.c.mu.Unlock()
	return len(b.c.ring)
}

// Idle returns the idle .prx decode sources and dictionary decoders kept.
func (d *Decoders) Idle() (sources, dict int) {
	d.mu.Lock()
	dict = len(d.dict)
	d.mu.Unlock()
	return d.sources.Idle(), dict
}
