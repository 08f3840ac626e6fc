package capture

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/limits"
)

// ReaderOptions configure a Reader.
type ReaderOptions struct {
	// MaxRecord bounds a record body in bytes (default and maximum DefaultMaxRecord).
	MaxRecord int
}

// Unit is one captured .prx unit (what the records and counts of a capture
// file call a window; see the package doc).
type Unit struct {
	Index    int    // ordinal of its field (Reader.Indexes)
	Eligible bool   // the window got a zstd frame
	Docs     int    // doc count
	Plain    []byte // plain payload; valid until the next call to Next
	Record   int64  // record number in the file, from 0
	Ordinal  int64  // window number in the file, from 0
}

// Reader reads a capture file record by record.
type Reader struct {
	br      *bufio.Reader
	max     int
	all     bool
	off     int64 // offset of the next record
	record  int64 // number of the next record
	windows int64
	infos   []IndexInfo
	buf     []byte
	done    bool
	err     error // sticky
}

// NewReader reads and checks the header of the capture in r.
func NewReader(r io.Reader, o ReaderOptions) (*Reader, error) {
	max := o.MaxRecord
	if max <= 0 || max > DefaultMaxRecord {
		max = DefaultMaxRecord
	}
	br := bufio.NewReaderSize(r, 32<<10)
	var h [HeaderSize]byte
	n, err := io.ReadFull(br, h[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("capture header: %w", err)
	}
	all, err := parseHeader(h[:n])
	if err != nil {
		return nil, err
	}
	return &Reader{br: br, max: max, all: all, off: HeaderSize}, nil
}

// All reports whether the capture keeps fast-path windows too.
func (r *Reader) All() bool { return r.all }

// Indexes returns the fields declared so far, with the outcomes read so far.
// After Next has returned io.EOF it holds every field of the capture.
func (r *Reader) Indexes() []IndexInfo { return r.infos }

// Next returns the next window, or io.EOF after the end record. Every other error
// names the record and wraps snii.ErrCorrupt (or the underlying read error).
func (r *Reader) Next() (Unit, error) {
	for {
		if r.err != nil {
			return Unit{}, r.err
		}
		if r.done {
			return Unit{}, io.EOF
		}
		w, ok, err := r.step()
		if err != nil {
			r.err = err
			return Unit{}, err
		}
		if ok {
			return w, nil
		}
	}
}

// step reads one record; ok reports a window.
func (r *Reader) step() (w Unit, ok bool, err error) {
	rec, off := r.record, r.off
	where := func(format string, args ...any) error {
		return fmt.Errorf("capture record %d at offset %d: %s: %w", rec, off, fmt.Sprintf(format, args...), errs.Corrupt)
	}
	var lenb [4]byte
	n, err := io.ReadFull(r.br, lenb[:])
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			if n == 0 {
				return w, false, where("truncated capture: the file ends before its end record (%d windows read)", r.windows)
			}
			return w, false, where("truncated record length (%d of 4 bytes)", n)
		}
		return w, false, fmt.Errorf("capture record %d at offset %d: %w", rec, off, err)
	}
	size := binary.LittleEndian.Uint32(lenb[:])
	if size == 0 {
		return w, false, where("empty record")
	}
	if int64(size) > int64(r.max) {
		return w, false, where("record length %d over the limit of %d bytes", size, r.max)
	}
	b, err := r.readN(int(size) + 4)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return w, false, where("truncated record: %d of %d bytes", len(b), int(size)+4)
		}
		return w, false, fmt.Errorf("capture record %d at offset %d: %w", rec, off, err)
	}
	bodyb, sum := b[:size], binary.LittleEndian.Uint32(b[size:])
	if got := crc(bodyb); got != sum {
		return w, false, where("crc %08x, want %08x", got, sum)
	}
	r.record++
	r.off += 4 + int64(size) + 4
	c := body{b: bodyb[1:]}
	switch kind := bodyb[0]; kind {
	case kindIndex:
		info := r.parseIndex(&c)
		c.done()
		if c.err != nil {
			return w, false, where("index: %v", c.err)
		}
		for _, have := range r.infos {
			if have.Name == info.Name {
				return w, false, where("index %q declared twice", info.Name)
			}
		}
		if len(r.infos) >= MaxIndexes {
			return w, false, where("more than %d indexes", MaxIndexes)
		}
		r.infos = append(r.infos, info)
		return w, false, nil
	case kindWindow:
		idx := c.count("index", uint64(len(r.infos)))
		flags := c.byte1("flags")
		docs := c.count("doc count", 1<<32)
		if c.err == nil {
			switch {
			case idx >= int64(len(r.infos)):
				c.fail("undeclared index %d", idx)
			case flags&^FlagEligible != 0:
				c.fail("unknown flags %#x", flags)
			case flags&FlagEligible == 0 && !r.all:
				c.fail("fast-path window in a capture of eligible windows only")
			}
		}
		if c.err == nil {
			if d, _, ok := bitpack.ReadUvarint(c.b, 0); !ok || d != uint64(docs) {
				c.fail("doc count %d does not match the plain payload's", docs)
			}
		}
		if c.err != nil {
			return w, false, where("window %d: %v", r.windows, c.err)
		}
		w = Unit{Index: int(idx), Eligible: flags&FlagEligible != 0, Docs: int(docs), Plain: c.b,
			Record: rec, Ordinal: r.windows}
		r.windows++
		return w, true, nil
	case kindOutcome:
		idx := c.count("index", uint64(len(r.infos)))
		var o Outcome
		for i := range o.Windows {
			o.Windows[i] = c.count("windows", 0)
		}
		for i := range o.Bytes {
			o.Bytes[i] = c.count("bytes", 0)
		}
		bo := &o.Budget
		bo.Eligible = c.count("eligible", 0)
		bo.SumSmallest = c.count("sum of smallest frames", 0)
		bo.Traded = c.count("traded", 0)
		bo.TradedCount = c.count("traded count", 0)
		bo.FinalShare = int(c.count("final share", 100))
		bo.Allowance = c.count("allowance", 0)
		c.done()
		if c.err == nil && idx >= int64(len(r.infos)) {
			c.fail("undeclared index %d", idx)
		}
		if c.err != nil {
			return w, false, where("outcome: %v", c.err)
		}
		info := &r.infos[idx]
		bo.Policy = info.Policy
		info.Recorded = &o
		return w, false, nil
	case kindEnd:
		records := c.count("record count", 0)
		windows := c.count("window count", 0)
		c.done()
		if c.err == nil && (records != rec || windows != r.windows) {
			c.fail("end record counts %d records and %d windows, the file holds %d and %d", records, windows, rec, r.windows)
		}
		if c.err != nil {
			return w, false, where("end: %v", c.err)
		}
		if _, err := r.br.ReadByte(); err == nil {
			return w, false, fmt.Errorf("capture: bytes after the end record (record %d) at offset %d: %w", rec, r.off, errs.Corrupt)
		} else if !errors.Is(err, io.EOF) {
			return w, false, fmt.Errorf("capture: after the end record: %w", err)
		}
		r.done = true
		return w, false, nil
	default:
		return w, false, where("unknown record kind %d", kind)
	}
}

func (r *Reader) parseIndex(c *body) IndexInfo {
	var info IndexInfo
	nameLen := c.uvarint("name length")
	info.Name = string(c.bytes("name", nameLen))
	known := c.byte1("known")
	if c.err == nil && known > 1 {
		c.fail("bad known flag %d", known)
	}
	info.Known = known == 1
	minSaving := int(c.varint("min saving percent", -1, 100))
	info.Policy = budget.FromPercents(minSaving, int(c.count("budget percent", 100)))
	info.ZstdLevel = int(c.varint("zstd level", -1<<20, 1<<20))
	info.Limits = limits.Limits{
		MaxDocs:      int(c.count("max docs", limits.DefaultMaxDocs)),
		MaxPositions: int(c.count("max positions", limits.DefaultMaxPositions)),
		MaxBytes:     int(c.count("max bytes", limits.DefaultMaxBytes)),
	}
	return info
}

// readN reads exactly n bytes into the reader's buffer, growing it only as bytes
// arrive, so that a lying length in a short file allocates no more than the file holds.
func (r *Reader) readN(n int) ([]byte, error) {
	const chunk = 1 << 20
	buf := r.buf[:0]
	for len(buf) < n {
		k := min(n-len(buf), chunk)
		buf = slices.Grow(buf, k)
		m, err := io.ReadFull(r.br, buf[len(buf):len(buf)+k])
		buf = buf[:len(buf)+m]
		if err != nil {
			r.buf = buf
			return buf, err
		}
	}
	r.buf = buf
	return buf, nil
}

// ReadAll reads every window of the capture, copying their payloads, and returns
// them with the capture's fields. It is meant for captures that fit in memory.
func ReadAll(rd io.Reader, o ReaderOptions) ([]Unit, []IndexInfo, bool, error) {
	r, err := NewReader(rd, o)
	if err != nil {
		return nil, nil, false, err
	}
	var out []Unit
	for {
		w, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, r.Indexes(), r.All(), nil
		}
		if err != nil {
			return nil, nil, false, err
		}
		w.Plain = slices.Clone(w.Plain)
		out = append(out, w)
	}
}
