package format

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/snii-go/snii/internal/errs"
)

// Format versions and fixed sizes.
const (
	// FormatVersion is the format version this package writes. Version 9
	// added each field's list of the documents that skipped an over-long
	// token (the metadata group's skipDocs); version 8 the store (records in compressed blocks, located by the
	// directory); version 7 the long token of packed blocks (more than 3 exceptions, in .prx
	// units and blocked doc windows); version 6 the shared literal tables of
	// .prx zstd frames; nothing else differs from version 5.
	FormatVersion = 9
	// MinReaderVersion is the oldest reader version able to read what this
	// package writes; a file whose minimum reader version is above
	// FormatVersion is rejected with snii.ErrVersion.
	MinReaderVersion = 9
	// OldestReadable is the oldest format version this package reads: a
	// version 8 file is a version 9 file whose metadata groups end before
	// the skipped documents, a version 7 file is a version 8 file without a store, a version 6 file is a version 7 file whose packed blocks have no long
	// token, a version 5 file a version 6 file whose zstd frames name no
	// shared literal table.
	OldestReadable = 5
	// HeaderSize is the size of the file header.
	HeaderSize = 16
	// TailSize is the size of the file tail.
	TailSize = 32
)

// Magic numbers.
const (
	HeaderMagic = "SNII"
	TailMagic   = "SNIT"
)

// AppendHeader appends the 16-byte file header:
//
//	"SNII" | u16 format version | u16 min reader version | u32 flags (0) | u32 crc32c(bytes 0..11)
func AppendHeader(dst []byte) []byte {
	start := len(dst)
	dst = append(dst, HeaderMagic...)
	dst = binary.LittleEndian.AppendUint16(dst, FormatVersion)
	dst = binary.LittleEndian.AppendUint16(dst, MinReaderVersion)
	dst = binary.LittleEndian.AppendUint32(dst, 0)
	return binary.LittleEndian.AppendUint32(dst, Checksum(dst[start:]))
}

// ParseHeader checks the file header in b (exactly HeaderSize bytes): magic,
// CRC, versions (snii.ErrVersion when the minimum reader version is above
// FormatVersion, or when unknown flags are set), snii.ErrCorrupt otherwise.
func ParseHeader(b []byte) error {
	if len(b) != HeaderSize {
		return errs.Corruptf("%d bytes, want %d", len(b), HeaderSize)
	}
	if string(b[:4]) != HeaderMagic {
		return errs.Corruptf("bad magic %q (not a snii segment)", b[:4])
	}
	if got, want := Checksum(b[:12]), binary.LittleEndian.Uint32(b[12:]); got != want {
		return errs.Corruptf("crc %08x, want %08x", got, want)
	}
	return checkVersions(binary.LittleEndian.Uint16(b[4:]), binary.LittleEndian.Uint16(b[6:]), binary.LittleEndian.Uint32(b[8:]))
}

func checkVersions(version, minReader uint16, flags uint32) error {
	if minReader == 0 || version < minReader {
		return errs.Corruptf("format version %d, min reader version %d", version, minReader)
	}
	if version < OldestReadable {
		return errs.Versionf("format version %d: this snii reads formats %d to %d (pair entries in list or complement form, blocked doc windows, norms, .prx windows v2) and cannot read older segments; rebuild the segment from its documents with this snii", version, OldestReadable, FormatVersion)
	}
	if minReader > FormatVersion {
		return errs.Versionf("needs reader version %d (this reader: %d)", minReader, FormatVersion)
	}
	if flags != 0 {
		return errs.Versionf("unknown flags %#x", flags)
	}
	return nil
}

// Tail is the fixed-size record at the end of a segment.
type Tail struct {
	DirOff, DirLen uint64 // the directory's absolute offset and length
	DirCRC         uint32 // crc32c of the directory bytes
	Version        uint16 // format version of the writer
	MinReader      uint16 // minimum reader version
}

// AppendTail appends the 32-byte tail:
//
//	u64 dirOff | u64 dirLen | u32 dirCRC | u16 version | u16 min reader | "SNIT" | u32 crc32c(bytes 0..27)
//
// Zero Version and MinReader are written as FormatVersion and MinReaderVersion.
func AppendTail(dst []byte, t Tail) []byte {
	if t.Version == 0 {
		t.Version = FormatVersion
	}
	if t.MinReader == 0 {
		t.MinReader = MinReaderVersion
	}
	start := len(dst)
	dst = binary.LittleEndian.AppendUint64(dst, t.DirOff)
	dst = binary.LittleEndian.AppendUint64(dst, t.DirLen)
	dst = binary.LittleEndian.AppendUint32(dst, t.DirCRC)
	dst = binary.LittleEndian.AppendUint16(dst, t.Version)
	dst = binary.LittleEndian.AppendUint16(dst, t.MinReader)
	dst = append(dst, TailMagic...)
	return binary.LittleEndian.AppendUint32(dst, Checksum(dst[start:]))
}

// ParseTail parses the tail in b (exactly TailSize bytes), checking magic, CRC
// and versions (snii.ErrVersion for a newer minimum reader version).
func ParseTail(b []byte) (Tail, error) {
	if len(b) != TailSize {
		return Tail{}, errs.Corruptf("%d bytes, want %d", len(b), TailSize)
	}
	if string(b[24:28]) != TailMagic {
		return Tail{}, errs.Corruptf("bad magic %q (not a snii segment, or truncated)", b[24:28])
	}
	if got, want := Checksum(b[:28]), binary.LittleEndian.Uint32(b[28:]); got != want {
		return Tail{}, errs.Corruptf("crc %08x, want %08x", got, want)
	}
	t := Tail{
		DirOff:    binary.LittleEndian.Uint64(b),
		DirLen:    binary.LittleEndian.Uint64(b[8:]),
		DirCRC:    binary.LittleEndian.Uint32(b[16:]),
		Version:   binary.LittleEndian.Uint16(b[20:]),
		MinReader: binary.LittleEndian.Uint16(b[22:]),
	}
	if err := checkVersions(t.Version, t.MinReader, 0); err != nil {
		return Tail{}, err
	}
	return t, nil
}

// CheckFileSize reports an error wrapping snii.ErrCorrupt unless the directory lies
// between the header and the tail of a file of fileSize bytes and ends where
// the tail starts.
func (t Tail) CheckFileSize(fileSize uint64) error {
	if fileSize < HeaderSize+TailSize || t.DirOff < HeaderSize || t.DirOff > fileSize-TailSize ||
		t.DirLen != fileSize-TailSize-t.DirOff {
		return errs.Corruptf("directory [%d, +%d) does not end at the tail of a %d-byte file", t.DirOff, t.DirLen, fileSize)
	}
	return nil
}

// DirEntry locates the metadata group of one field.
type DirEntry struct {
	Name    string
	MetaOff uint64 // absolute
	MetaLen uint64
	MetaCRC uint32 // crc32c of the metadata group bytes
}

// Directory lists the fields of a segment, sorted by name.
type Directory struct {
	Version  uint64 // format version of the writer
	DocCount uint64 // documents in the segment
	Indexes  []DirEntry
	// The store header (format 8; StoreLen 0: the segment keeps no records).
	StoreOff, StoreLen uint64
	StoreCRC           uint32 // crc32c of the store header
}

// StoreVersion is the first format version whose directory locates a store.
const StoreVersion = 8

// AppendDirectory appends the directory:
//
//	uvarint version | uvarint docCount | uvarint n |
//	n × {uvarint nameLen | name | uvarint metaOff | uvarint metaLen | u32 metaCRC} |
//	uvarint storeOff | uvarint storeLen | u32 storeCRC      (version >= 8)
//
// Indexes must be sorted by name (byte order) with unique, non-empty names;
// a zero Version is written as FormatVersion.
func AppendDirectory(dst []byte, d *Directory) []byte {
	v := d.Version
	if v == 0 {
		v = FormatVersion
	}
	dst = binary.AppendUvarint(dst, v)
	dst = binary.AppendUvarint(dst, d.DocCount)
	dst = binary.AppendUvarint(dst, uint64(len(d.Indexes)))
	for i := range d.Indexes {
		e := &d.Indexes[i]
		dst = binary.AppendUvarint(dst, uint64(len(e.Name)))
		dst = append(dst, e.Name...)
		dst = binary.AppendUvarint(dst, e.MetaOff)
		dst = binary.AppendUvarint(dst, e.MetaLen)
		dst = binary.LittleEndian.AppendUint32(dst, e.MetaCRC)
	}
	if v >= StoreVersion {
		dst = binary.AppendUvarint(dst, d.StoreOff)
		dst = binary.AppendUvarint(dst, d.StoreLen)
		dst = binary.LittleEndian.AppendUint32(dst, d.StoreCRC)
	}
	return dst
}

// minDirEntry is the smallest encoding of a directory entry.
const minDirEntry = 1 + 1 + 1 + 1 + 4

// DecodeDirectory decodes a directory (b is exactly the directory; its CRC is
// checked by the caller against the tail). It checks bounds, version >= 1, a
// doc count <= 2^32, non-empty names in strictly ascending order, metadata
// and store ranges without overflow, and exact consumption.
func DecodeDirectory(b []byte) (Directory, error) {
	r := reader{b: b}
	d := Directory{Version: r.uvarint(), DocCount: r.uvarint()}
	n := r.uvarint()
	if !r.ok() {
		return Directory{}, errs.Corruptf("malformed varint in the version, doc count or index count (%d bytes)", len(b))
	}
	if d.Version == 0 || d.DocCount > math.MaxUint32+1 || n > uint64(r.remaining()/minDirEntry) {
		return Directory{}, errs.Corruptf("version %d, %d docs, %d indexes in %d bytes", d.Version, d.DocCount, n, len(b))
	}
	d.Indexes = make([]DirEntry, n)
	var prev []byte
	for i := range d.Indexes {
		name := r.bytes(r.uvarint())
		e := DirEntry{MetaOff: r.uvarint(), MetaLen: r.uvarint(), MetaCRC: r.u32()}
		if !r.ok() {
			return Directory{}, errs.Corruptf("entry %d truncated", i)
		}
		if len(name) == 0 || (i > 0 && bytes.Compare(name, prev) <= 0) {
			return Directory{}, errs.Corruptf("index name %q empty or out of order", name)
		}
		if e.MetaOff > math.MaxInt64 || e.MetaLen > math.MaxInt64-e.MetaOff {
			return Directory{}, errs.Corruptf("metadata of index %q at [%d, +%d) overflows", name, e.MetaOff, e.MetaLen)
		}
		e.Name = string(name)
		d.Indexes[i] = e
		prev = name
	}
	if d.Version >= StoreVersion {
		d.StoreOff, d.StoreLen, d.StoreCRC = r.uvarint(), r.uvarint(), r.u32()
		if !r.ok() {
			return Directory{}, errs.Corruptf("store entry truncated")
		}
		if d.StoreOff > math.MaxInt64 || d.StoreLen > math.MaxInt64-d.StoreOff || (d.StoreLen == 0) != (d.StoreOff == 0) {
			return Directory{}, errs.Corruptf("store header at [%d, +%d)", d.StoreOff, d.StoreLen)
		}
	}
	if r.remaining() != 0 {
		return Directory{}, errs.Corruptf("%d trailing bytes", r.remaining())
	}
	return d, nil
}

// Lookup returns the entry of the named index, or ok=false.
func (d *Directory) Lookup(name string) (DirEntry, bool) {
	lo, hi := 0, len(d.Indexes)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if d.Indexes[m].Name < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(d.Indexes) && d.Indexes[lo].Name == name {
		return d.Indexes[lo], true
	}
	return DirEntry{}, false
}
