package reader

import (
	"errors"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
)

// FuzzDictBlockDecompress feeds arbitrary stored bytes, with a valid CRC and
// a fuzzed declared plain length, to the dictionary block decoder with the
// segment's zstd decompressor (capped at format.MaxBlockPlainLen): it either
// decodes exactly the declared length or fails as corrupt, never panics, and
// never returns more than the cap. Seeds include a tiny frame of RLE blocks
// that declares far more than the cap. (Issue 16 item 9.)
func FuzzDictBlockDecompress(f *testing.F) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		f.Fatal(err)
	}
	var bb format.BlockBuilder
	for i := 0; i < 40; i++ {
		bb.Add([]byte{'t', byte('a' + i/26), byte('a' + i%26)}, &format.Entry{DF: 1, Class: format.ClassInline, Docs: []byte{0}, Frame: []byte{0}})
	}
	plain, _ := bb.Finish(nil)
	f.Add(enc.EncodeAll(plain, nil), uint32(len(plain)))
	f.Add(enc.EncodeAll(make([]byte, 1<<20), nil), uint32(1<<20))
	f.Add(enc.EncodeAll(make([]byte, 64<<10), nil), uint32(format.MaxBlockPlainLen))
	// A frame header declaring 2^28 content bytes, then one RLE block.
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x80, 0x00, 0x00, 0x00, 0x10, 0x03, 0x00, 0x20, 0x41}, uint32(1<<28))
	enc.Close()
	s := &Segment{dec: &Decoders{max: 1}}
	f.Fuzz(func(t *testing.T, stored []byte, plainLen uint32) {
		info := format.BlockInfo{StoredLen: uint32(len(stored)), PlainLen: plainLen, Entries: 40, Flags: format.BlockFlagZstd, CRC: format.Checksum(stored)}
		out, err := s.decompress(nil, stored)
		if err == nil && len(out) > format.MaxBlockPlainLen {
			t.Fatalf("decompress returned %d bytes, over the cap %d", len(out), format.MaxBlockPlainLen)
		}
		_, err = format.DecodeBlock(stored, info, s.decompress, nil)
		if err != nil && !errors.Is(err, errs.Corrupt) {
			t.Fatalf("unexpected error kind: %v", err)
		}
	})
}
