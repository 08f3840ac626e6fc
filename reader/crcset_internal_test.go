package reader

import "testing"

// TestCRCSetBits: a region marked is verified and no other is, for regions
// 5 bytes apart (the closest two checked regions can start) across chunk
// boundaries; offsets outside the file are never verified.
func TestCRCSetBits(t *testing.T) {
	const size = 3*crcChunkBits<<crcShift + 100
	v := newCRCSet(size)
	var marked []int64
	for off := int64(3); off < size; off += 5 * 7919 {
		v.MarkVerified(off)
		marked = append(marked, off)
	}
	for _, off := range marked {
		if !v.Verified(off) {
			t.Fatalf("%d marked, not verified", off)
		}
		for _, o := range []int64{off - 5, off + 5} {
			if o >= 0 && v.Verified(o) && (o-3)%(5*7919) != 0 {
				t.Fatalf("%d verified: only %d was marked near it", o, off)
			}
		}
	}
	for _, off := range []int64{-1, size, size + 1<<20} {
		v.MarkVerified(off)
		if v.Verified(off) {
			t.Fatalf("offset %d outside a %d-byte file verified", off, size)
		}
	}
}
