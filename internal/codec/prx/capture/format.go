package capture

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/limits"
)

const (
	// Magic opens every capture file.
	Magic = "SNCP"
	// Version is the format version this package writes.
	Version = 1
	// MinReaderVersion is the oldest reader version able to read what this package writes.
	MinReaderVersion = 1
	// HeaderSize is the size of the file header.
	HeaderSize = 16
	// DefaultMaxRecord bounds a record body on read: the largest plain payload of a
	// .prx window (256 MiB) plus room for the record fields.
	DefaultMaxRecord = 256<<20 + 4<<10
	// MaxIndexes bounds the number of fields one capture may declare.
	MaxIndexes = 1 << 16
)

// Header flags.
const (
	flagAll uint32 = 1 << 0
)

// Record kinds.
const (
	kindIndex   byte = 1
	kindWindow  byte = 2
	kindOutcome byte = 3
	kindEnd     byte = 4
)

// Window flags.
const (
	// FlagEligible marks a window that got a zstd frame (the budget saw it).
	FlagEligible byte = 1 << 0
)

// Codec numbers, as in a .prx frame.
const (
	CodecRaw  = 0
	CodecZstd = 1
	CodecPFOR = 2
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func crc(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// IndexInfo describes one field of a capture.
type IndexInfo struct {
	Name string
	// Known says whether Policy, ZstdLevel and Limits were recorded. A capture taken
	// through a hook that only knows the field name leaves them unknown.
	Known     bool
	Policy    budget.Policy
	ZstdLevel int
	Limits    limits.Limits // 0 fields: unknown (the defaults)
	// Recorded is what the field's encoder recorded, when the capture holds it.
	Recorded *Outcome
}

// Outcome is what an encoder recorded for a whole field: windows and
// bytes per codec (indexed by CodecRaw, CodecZstd, CodecPFOR) and the budget's
// accounting over the eligible windows.
type Outcome struct {
	Windows [3]int64
	Bytes   [3]int64
	Budget  budget.Outcome // Policy is the field's policy
}

func appendHeader(dst []byte, all bool) []byte {
	var flags uint32
	if all {
		flags |= flagAll
	}
	dst = append(dst, Magic...)
	dst = binary.LittleEndian.AppendUint16(dst, Version)
	dst = binary.LittleEndian.AppendUint16(dst, MinReaderVersion)
	dst = binary.LittleEndian.AppendUint32(dst, flags)
	return binary.LittleEndian.AppendUint32(dst, crc(dst[len(dst)-12:]))
}

// parseHeader checks a 16-byte header and returns whether the capture keeps all windows.
func parseHeader(b []byte) (all bool, err error) {
	if len(b) < HeaderSize {
		return false, errs.Corruptf("capture header: %d bytes, want %d (truncated file?)", len(b), HeaderSize)
	}
	if string(b[:4]) != Magic {
		return false, errs.Corruptf("capture header: bad magic %q, want %q (not a capture file)", b[:4], Magic)
	}
	if got, want := binary.LittleEndian.Uint32(b[12:16]), crc(b[:12]); got != want {
		return false, errs.Corruptf("capture header: crc %08x, want %08x", got, want)
	}
	version := binary.LittleEndian.Uint16(b[4:6])
	minReader := binary.LittleEndian.Uint16(b[6:8])
	if version < 1 || minReader < 1 || minReader > version {
		return false, errs.Corruptf("capture header: version %d, min reader version %d", version, minReader)
	}
	if minReader > Version {
		return false, errs.Versionf("capture header: format version %d needs a reader of version %d, this one reads %d", version, minReader, Version)
	}
	flags := binary.LittleEndian.Uint32(b[8:12])
	if flags&^flagAll != 0 {
		return false, errs.Corruptf("capture header: unknown flags %#x", flags)
	}
	return flags&flagAll != 0, nil
}

func appendIndexBody(dst []byte, info *IndexInfo) []byte {
	dst = append(dst, kindIndex)
	dst = binary.AppendUvarint(dst, uint64(len(info.Name)))
	dst = append(dst, info.Name...)
	var known byte
	if info.Known {
		known = 1
	}
	dst = append(dst, known)
	minSaving, budgetPercent := info.Policy.Percents()
	dst = binary.AppendVarint(dst, int64(minSaving))
	dst = binary.AppendUvarint(dst, uint64(budgetPercent))
	dst = binary.AppendVarint(dst, int64(info.ZstdLevel))
	dst = binary.AppendUvarint(dst, uint64(info.Limits.MaxDocs))
	dst = binary.AppendUvarint(dst, uint64(info.Limits.MaxPositions))
	return binary.AppendUvarint(dst, uint64(info.Limits.MaxBytes))
}

func appendOutcomeBody(dst []byte, index int, o *Outcome) []byte {
	dst = append(dst, kindOutcome)
	dst = binary.AppendUvarint(dst, uint64(index))
	for _, v := range o.Windows {
		dst = binary.AppendUvarint(dst, uint64(v))
	}
	for _, v := range o.Bytes {
		dst = binary.AppendUvarint(dst, uint64(v))
	}
	b := &o.Budget
	for _, v := range []int64{b.Eligible, b.SumSmallest, b.Traded, b.TradedCount, int64(b.FinalShare), b.Allowance} {
		dst = binary.AppendUvarint(dst, uint64(v))
	}
	return dst
}

// body is a cursor over one record body; the first failure sticks.
type body struct {
	b   []byte
	err error
}

func (c *body) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf(format, args...) // the reader adds the record and errs.Corrupt
	}
}

func (c *body) uvarint(what string) uint64 {
	if c.err != nil {
		return 0
	}
	v, n, ok := bitpack.ReadUvarint(c.b, 0)
	if !ok {
		c.fail("bad %s varint", what)
		return 0
	}
	c.b = c.b[n:]
	return v
}

// count reads a uvarint that must fit a non-negative int64 below max (max <= 0: no bound).
func (c *body) count(what string, max uint64) int64 {
	v := c.uvarint(what)
	if c.err == nil && (v > 1<<62 || (max > 0 && v > max)) {
		c.fail("%s %d out of range", what, v)
		return 0
	}
	return int64(v)
}

func (c *body) varint(what string, lo, hi int64) int64 {
	if c.err != nil {
		return 0
	}
	v, n := binary.Varint(c.b)
	if n <= 0 {
		c.fail("bad %s varint", what)
		return 0
	}
	if v < lo || v > hi {
		c.fail("%s %d out of range %d..%d", what, v, lo, hi)
		return 0
	}
	c.b = c.b[n:]
	return v
}

func (c *body) byte1(what string) byte {
	if c.err != nil {
		return 0
	}
	if len(c.b) == 0 {
		c.fail("missing %s", what)
		return 0
	}
	v := c.b[0]
	c.b = c.b[1:]
	return v
}

func (c *body) bytes(what string, n uint64) []byte {
	if c.err != nil {
		return nil
	}
	if n > uint64(len(c.b)) {
		c.fail("%s of %d bytes overruns the record (%d left)", what, n, len(c.b))
		return nil
	}
	v := c.b[:n]
	c.b = c.b[n:]
	return v
}

func (c *body) done() {
	if c.err == nil && len(c.b) != 0 {
		c.fail("%d trailing bytes", len(c.b))
	}
}

func crc32Update(sum uint32, b []byte) uint32 { return crc32.Update(sum, castagnoli, b) }
