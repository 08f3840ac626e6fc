package reader_test

import (
	"encoding/binary"

	"github.com/snii-go/snii/internal/codec/format"
)

// fixCRCs recomputes the CRCs of a (mutated) segment's header, dict blocks,
// metadata groups, store blocks and header, directory and tail, so that a fuzzer's mutations of lengths,
// offsets and counts reach the structural checks behind the CRCs. Whatever it
// cannot parse is left as it is.
func fixCRCs(in []byte) []byte {
	b := append([]byte(nil), in...)
	if len(b) < format.HeaderSize+format.TailSize {
		return b
	}
	binary.LittleEndian.PutUint32(b[12:], format.Checksum(b[:12]))
	tail := b[len(b)-format.TailSize:]
	dirOff := binary.LittleEndian.Uint64(tail)
	dirLen := binary.LittleEndian.Uint64(tail[8:])
	defer func() {
		binary.LittleEndian.PutUint32(tail[28:], format.Checksum(tail[:28]))
	}()
	if dirOff > uint64(len(b)) || dirLen > uint64(len(b))-dirOff {
		return b
	}
	dirb := b[dirOff : dirOff+dirLen]
	dir, err := format.DecodeDirectory(dirb)
	if err != nil {
		binary.LittleEndian.PutUint32(tail[16:], format.Checksum(dirb))
		return b
	}
	for i := range dir.Indexes {
		de := &dir.Indexes[i]
		if de.MetaOff > uint64(len(b)) || de.MetaLen > uint64(len(b))-de.MetaOff {
			continue
		}
		mb := b[de.MetaOff : de.MetaOff+de.MetaLen]
		if m, err := format.DecodeIndexMeta(mb, dir.Version); err == nil {
			for k := range m.Blocks {
				bi := &m.Blocks[k]
				off := m.DictOff + bi.Offset
				if off <= uint64(len(b)) && uint64(bi.StoredLen) <= uint64(len(b))-off {
					bi.CRC = format.Checksum(b[off : off+uint64(bi.StoredLen)])
				}
			}
			if nm := format.AppendIndexMeta(nil, &m); len(nm) == len(mb) {
				copy(mb, nm)
			}
		}
		de.MetaCRC = format.Checksum(mb)
	}
	if dir.StoreLen > 0 && dir.StoreOff <= uint64(len(b)) && dir.StoreLen <= uint64(len(b))-dir.StoreOff {
		hb := b[dir.StoreOff : dir.StoreOff+dir.StoreLen]
		if m, err := format.DecodeStoreMeta(hb, dir.DocCount); err == nil {
			off := m.BlocksOff
			for k := range m.Blocks {
				sb := &m.Blocks[k]
				if off <= uint64(len(b)) && uint64(sb.StoredLen) <= uint64(len(b))-off {
					sb.CRC = format.Checksum(b[off : off+uint64(sb.StoredLen)])
				}
				off += uint64(sb.StoredLen)
			}
			if nh := format.AppendStoreMeta(nil, &m); len(nh) == len(hb) {
				copy(hb, nh)
			}
		}
		dir.StoreCRC = format.Checksum(hb)
	}
	if nd := format.AppendDirectory(nil, &dir); len(nd) == len(dirb) {
		copy(dirb, nd)
	}
	binary.LittleEndian.PutUint32(tail[16:], format.Checksum(dirb))
	return b
}
