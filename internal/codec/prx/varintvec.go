package prx

// The vector decoder of short uvarints (amd64 with AVX2, varintvec_amd64.s)
// reads eight bytes at a time: the bytes' high bits (eight bits, a table index)
// say which values of one or two bytes the eight bytes hold whole, and the
// table entry's shuffle spreads each value's bytes over a 16-bit lane, where a
// mask, a shift and an or join them; the lanes widened to 32 bits are stored.
// A value of three bytes or more ends the run (the entry holds no value), and
// so does a two-byte value whose second byte is 0 (not canonical): the scalar
// loop then takes over, as it would have.

// shortTab is one table entry: the shuffle, 0xffff in the lanes of two-byte
// values (their second byte must not be 0), the values held whole and the
// bytes they take.
type shortTab struct {
	shuf [16]byte
	two  [16]byte
	n    uint8
	used uint8
	_    [14]byte
}

// shortTabs holds the entries of the 256 high-bit patterns (fixed at start).
var shortTabs = buildShortTabs()

func buildShortTabs() (t [256]shortTab) {
	for key := range 256 {
		e := &t[key]
		for i := range e.shuf {
			e.shuf[i] = 0x80 // a zero byte
		}
		cont := func(i int) bool { return key>>i&1 != 0 }
		pos, n := 0, 0
		for pos < 8 {
			if !cont(pos) {
				e.shuf[2*n] = byte(pos)
				n, pos = n+1, pos+1
				continue
			}
			if pos+1 >= 8 || cont(pos+1) {
				break // cut by the eighth byte, or three bytes or more
			}
			e.shuf[2*n], e.shuf[2*n+1] = byte(pos), byte(pos+1)
			e.two[2*n], e.two[2*n+1] = 0xff, 0xff
			n, pos = n+1, pos+2
		}
		e.n, e.used = uint8(n), uint8(pos)
	}
	return t
}
