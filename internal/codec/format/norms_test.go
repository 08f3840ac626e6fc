package format

import (
	"errors"
	"testing"

	"github.com/snii-go/snii/internal/errs"
)

// luceneLengths is what Lucene 8's SmallFloat.byte4ToInt returns for the
// codes 0..255 (printed by a Java program against lucene-core 8.8.1): the
// lengths a norm byte decodes to.
var luceneLengths = [256]uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 42, 44, 46, 48, 50, 52, 54, 56, 60, 64, 68, 72, 76, 80, 84, 88, 96, 104, 112, 120, 128, 136, 144, 152, 168, 184, 200, 216, 232, 248, 264, 280, 312, 344, 376, 408, 440, 472, 504, 536, 600, 664, 728, 792, 856, 920, 984, 1048, 1176, 1304, 1432, 1560, 1688, 1816, 1944, 2072, 2328, 2584, 2840, 3096, 3352, 3608, 3864, 4120, 4632, 5144, 5656, 6168, 6680, 7192, 7704, 8216, 9240, 10264, 11288, 12312, 13336, 14360, 15384, 16408, 18456, 20504, 22552, 24600, 26648, 28696, 30744, 32792, 36888, 40984, 45080, 49176, 53272, 57368, 61464, 65560, 73752, 81944, 90136, 98328, 106520, 114712, 122904, 131096, 147480, 163864, 180248, 196632, 213016, 229400, 245784, 262168, 294936, 327704, 360472, 393240, 426008, 458776, 491544, 524312, 589848, 655384, 720920, 786456, 851992, 917528, 983064, 1048600, 1179672, 1310744, 1441816, 1572888, 1703960, 1835032, 1966104, 2097176, 2359320, 2621464, 2883608, 3145752, 3407896, 3670040, 3932184, 4194328, 4718616, 5242904, 5767192, 6291480, 6815768, 7340056, 7864344, 8388632, 9437208, 10485784, 11534360, 12582936, 13631512, 14680088, 15728664, 16777240, 18874392, 20971544, 23068696, 25165848, 27263000, 29360152, 31457304, 33554456, 37748760, 41943064, 46137368, 50331672, 54525976, 58720280, 62914584, 67108888, 75497496, 83886104, 92274712, 100663320, 109051928, 117440536, 125829144, 134217752, 150994968, 167772184, 184549400, 201326616, 218103832, 234881048, 251658264, 268435480, 301989912, 335544344, 369098776, 402653208, 436207640, 469762072, 503316504, 536870936, 603979800, 671088664, 738197528, 805306392, 872415256, 939524120, 1006632984, 1073741848, 1207959576, 1342177304, 1476395032, 1610612760, 1744830488, 1879048216, 2013265944}

func TestNormDecodeMatchesLucene(t *testing.T) {
	for c := range 256 {
		if got := DecodeNorm(byte(c)); got != luceneLengths[c] {
			t.Errorf("DecodeNorm(%d) = %d, Lucene 8 decodes %d", c, got, luceneLengths[c])
		}
	}
}

func TestNormEncode(t *testing.T) {
	// Pairs printed by Lucene 8's SmallFloat.intToByte4.
	for _, tc := range []struct {
		length uint64
		code   byte
	}{{0, 0}, {1, 1}, {23, 23}, {24, 24}, {25, 25}, {31, 31}, {32, 32}, {33, 33}, {39, 39}, {40, 40},
		{41, 40}, {100, 57}, {1000, 87}, {12345, 116}, {1 << 20, 167}, {1<<31 - 1, 255}, {1 << 40, 255}} {
		if got := EncodeNorm(tc.length); got != tc.code {
			t.Errorf("EncodeNorm(%d) = %d, want %d", tc.length, got, tc.code)
		}
	}
	// Every code is the encoding of the length it decodes to, and every
	// length encodes to the largest code not above it.
	for c := range 256 {
		if got := EncodeNorm(uint64(DecodeNorm(byte(c)))); got != byte(c) {
			t.Errorf("EncodeNorm(DecodeNorm(%d)) = %d", c, got)
		}
	}
	prev := byte(0)
	for l := uint64(0); l < 1<<21; l++ {
		c := EncodeNorm(l)
		if c < prev || uint64(DecodeNorm(c)) > l || (c < 255 && uint64(DecodeNorm(c+1)) <= l) {
			t.Fatalf("length %d: code %d (decodes %d), previous code %d", l, c, DecodeNorm(c), prev)
		}
		prev = c
	}
}

func TestCheckNorms(t *testing.T) {
	b := []byte{1, 2, 3}
	if err := CheckNorms(b, 3, Checksum(b)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		docs uint64
		crc  uint32
	}{{4, Checksum(b)}, {3, Checksum(b) ^ 1}} {
		if err := CheckNorms(b, tc.docs, tc.crc); !errors.Is(err, errs.Corrupt) {
			t.Errorf("CheckNorms(%d docs, crc %#x) = %v, want corrupt", tc.docs, tc.crc, err)
		}
	}
}

// FuzzNormCode: every length encodes to a code decoding to at most the
// length, and the next code (if any) decodes past it.
func FuzzNormCode(f *testing.F) {
	for _, l := range []uint64{0, 23, 24, 41, 1000, 1<<31 - 1, 1 << 63} {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, l uint64) {
		c := EncodeNorm(l)
		capped := min(l, 1<<31-1)
		if d := uint64(DecodeNorm(c)); d > capped || (c < 255 && uint64(DecodeNorm(c+1)) <= capped) {
			t.Fatalf("length %d: code %d decodes %d", l, c, d)
		}
	})
}
