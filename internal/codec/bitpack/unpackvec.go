package bitpack

// The vector unpacker (amd64 with AVX2, see unpackvec_amd64.s) reads eight
// w-bit fields at a time: the w bytes of a group go to the two 128-bit lanes
// (fields 0-3 from the group's first byte, fields 4-7 from byte 4w/8), a byte
// shuffle puts the four bytes holding each field into its 32-bit element, a
// variable shift per element drops the bits before it, and a mask the bits
// after. A field and its offset in its first byte fit in four bytes up to
// vecMaxWidth bits.
const vecMaxWidth = 24

// vecSlack is how many bytes the vector unpacker reads past the fields of its
// groups (the second lane's 16-byte load of the last group).
const vecSlack = 16

// unpackTab is the shuffle and the shifts of one width.
type unpackTab struct {
	shuf  [32]byte
	shift [8]uint32
}

// unpackTabs holds the tables of widths 1..vecMaxWidth (fixed at start).
var unpackTabs = buildUnpackTabs()

func buildUnpackTabs() (t [vecMaxWidth + 1]unpackTab) {
	for w := 1; w <= vecMaxWidth; w++ {
		base := 4 * w / 8 * 8 // the second lane's first bit
		for j := range 8 {
			bit := j * w // from the lane's first byte
			if j >= 4 {
				bit -= base
			}
			for k := range 4 {
				t[w].shuf[j*4+k] = byte(bit/8 + k) // an index within the lane
			}
			t[w].shift[j] = uint32(bit % 8)
		}
	}
	return t
}
