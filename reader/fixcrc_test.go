package reader_test

import (
	"encoding/binary"

	"github.com/snii-go/snii/index"
)

// fixCRCs recomputes the CRCs of a (mutated) segment's header, dict blocks,
// metadata groups, directory and tail, so that a fuzzer's mutations of lengths,
// offsets and counts reach the structural checks behind the CRCs. Whatever it
// cannot parse is left as it is.
func fixCRCs(in []byte) []byte {
	b := append([]byte(nil), in...)
	if len(b) < index.HeaderSize+index.TailSize {
		return b
	}
	binary.LittleEndian.PutUint32(b[12:], index.Checksum(b[:12]))
	tail := b[len(b)-index.TailSize:]
	dirOff := binary.LittleEndian.Uint64(tail)
	dirLen := binary.LittleEndian.Uint64(tail[8:])
	defer func() {
		binary.LittleEndian.PutUint32(tail[28:], index.Checksum(tail[:28]))
	}()
	if dirOff > uint64(len(b)) || dirLen > uint64(len(b))-dirOff {
		return b
	}
	dirb := b[dirOff : dirOff+dirLen]
	dir, err := index.DecodeDirectory(dirb)
	if err != nil {
		binary.LittleEndian.PutUint32(tail[16:], index.Checksum(dirb))
		return b
	}
	for i := range dir.Indexes {
		de := &dir.Indexes[i]
		if de.MetaOff > uint64(len(b)) || de.MetaLen > uint64(len(b))-de.MetaOff {
			continue
		}
		mb := b[de.MetaOff : de.MetaOff+de.MetaLen]
		if m, err := index.DecodeIndexMeta(mb); err == nil {
			for k := range m.Blocks {
				bi := &m.Blocks[k]
				off := m.DictOff + bi.Offset
				if off <= uint64(len(b)) && uint64(bi.StoredLen) <= uint64(len(b))-off {
					bi.CRC = index.Checksum(b[off : off+uint64(bi.StoredLen)])
				}
			}
			if nm := index.AppendIndexMeta(nil, &m); len(nm) == len(mb) {
				copy(mb, nm)
			}
		}
		de.MetaCRC = index.Checksum(mb)
	}
	if nd := index.AppendDirectory(nil, &dir); len(nd) == len(dirb) {
		copy(dirb, nd)
	}
	binary.LittleEndian.PutUint32(tail[16:], index.Checksum(dirb))
	return b
}
