package prx

import (
	"fmt"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/internal/errs"
)

// zstdSlack is the room left after a zstd output so klauspost's decoder can use its
// fast copies up to the last byte; the output must still be exactly the declared length.
const zstdSlack = 32

// Source decodes frames. It owns one zstd decoder (concurrency 1, created at the first
// ZSTD frame) and grow-only buffers that are reused, never cleared, so decoding
// allocates nothing in steady state. A Source is used by one goroutine at a time;
// take one per query per segment from a SourcePool and return it when done.
type Source struct {
	limits Limits
	dec    *zstd.Decoder
	buf    []byte // zstd output
	pfor   pforScratch
	stats  *Stats
	pool   *SourcePool
	docs   int // document count of the window last decoded successfully
	closed bool
}

// NewSource returns a Source that rejects frames over limits. Zero fields are the
// defaults; a field that is negative or above its default is replaced by the default
// (limits are never raised; use Limits.Validate to reject such values).
func NewSource(limits Limits) *Source {
	return &Source{limits: limits.clamped()}
}

// Limits returns the limits the Source applies.
func (s *Source) Limits() Limits { return s.limits }

// WindowDocs returns the document count of the window of the last successful Decode
// or DecodeSelected (0 after a failure), so that a reader can check it against the
// doc-postings window after a selective decode, whose dst holds only the selected docs.
func (s *Source) WindowDocs() int { return s.docs }

// SetStats makes the Source add what it decodes to st; nil disables statistics
// (and every clock read).
func (s *Source) SetStats(st *Stats) { s.stats = st }

// Decode decodes the whole frame at the start of frame (CRC form when withCRC, else the
// inline form) into dst, reusing dst's capacity, and returns the frame's length.
// Bytes after the frame are ignored. The header is checked against the limits before
// anything is allocated and the CRC before the payload is decoded. Errors wrap
// ErrCorrupt (naming the codec and, where it applies, the document ordinal) or
// ErrClosed; on error dst is reset to no documents and the stats are unchanged.
func (s *Source) Decode(frame []byte, withCRC bool, dst *Window) (n int, err error) {
	return s.run(frame, withCRC, nil, true, dst)
}

// DecodeSelected decodes only the documents of the frame whose ordinals (positions in
// the window, strictly ascending) are listed: dst receives their positions in CSR form
// (len(ordinals)+1 offsets). Unselected RAW/ZSTD documents are skipped without
// decoding their deltas, and documents after the last selected one are not parsed
// (the CRC covers them); PFOR frames are unpacked whole. Selecting every document
// decodes the whole window. Ordinals out of order or repeated are an ErrInvalidArgument
// error; an ordinal at or above the window's document count is ErrCorrupt (the doc
// postings and the frame disagree). Otherwise as Decode.
func (s *Source) DecodeSelected(frame []byte, withCRC bool, ordinals []uint32, dst *Window) (n int, err error) {
	for i := 1; i < len(ordinals); i++ {
		if ordinals[i] <= ordinals[i-1] {
			dst.Reset()
			s.docs = 0
			return 0, errs.Invalidf("prx: selected ordinals not strictly ascending at index %d (%d after %d)", i, ordinals[i], ordinals[i-1])
		}
	}
	return s.run(frame, withCRC, ordinals, false, dst)
}

// run decodes the frame (all documents, or the selected ordinals) and keeps the
// stats: nothing is recorded for a failed decode, and the clock is read only when
// stats are on.
func (s *Source) run(frame []byte, withCRC bool, ordinals []uint32, full bool, dst *Window) (int, error) {
	var t0 time.Time
	if s.stats != nil {
		t0 = time.Now()
	}
	var info decodeInfo
	if err := s.decode(frame, withCRC, ordinals, full, dst, &info); err != nil {
		dst.Reset()
		s.docs = 0
		return 0, err
	}
	s.docs = info.docs
	if s.stats != nil {
		s.stats.record(&info, int64(time.Since(t0)))
	}
	return info.frameLen, nil
}

func (s *Source) decode(frame []byte, withCRC bool, ords []uint32, full bool, dst *Window, info *decodeInfo) error {
	if s.closed {
		return fmt.Errorf("prx: decode after Close: %w", errs.Closed)
	}
	h, err := parseFrameHeader(frame, withCRC, &s.limits)
	if err != nil {
		return err
	}
	if withCRC {
		if err := checkCRC(frame, &h); err != nil {
			return err
		}
	}
	payload := frame[h.HeaderLen : h.HeaderLen+h.PayloadLen]
	info.codec, info.frameLen = h.Codec, h.FrameLen
	switch h.Codec {
	case CodecRaw:
		return s.decodePlainPayload(payload, CodecRaw, ords, full, dst, info)
	case CodecZstd:
		plain, err := s.inflate(payload, h.PlainLen)
		if err != nil {
			return err
		}
		return s.decodePlainPayload(plain, CodecZstd, ords, full, dst, info)
	default: // CodecPFOR; parseFrameHeader rejected unknown codecs
		res, err := decodePFOR(payload, &s.limits, &s.pfor, ords, full, dst)
		if err != nil {
			return err
		}
		info.docs, info.positions = res.docs, res.positions
		info.selDocs, info.selPositions = dst.Docs(), res.selected
		return nil
	}
}

// decodePlainPayload decodes a plain payload (a RAW payload or an inflated ZSTD one).
func (s *Source) decodePlainPayload(src []byte, c Codec, ords []uint32, full bool, dst *Window, info *decodeInfo) error {
	info.plain = len(src)
	if !full && len(ords) > 0 {
		// Every document selected (strictly ascending 0..n-1): decode the whole window.
		if n, _, err := readDocCount(src, &s.limits, c, false); err == nil && n == len(ords) && int(ords[n-1]) == n-1 {
			full = true
		}
	}
	if full {
		positions, err := decodePlain(src, &s.limits, dst, c, false)
		if err != nil {
			return err
		}
		info.docs, info.positions = dst.Docs(), positions
		info.selDocs, info.selPositions = info.docs, positions
		return nil
	}
	res, err := decodePlainSelected(src, &s.limits, ords, dst, c)
	if err != nil {
		return err
	}
	info.docs, info.positions = res.docs, res.positions
	info.selDocs, info.selPositions = len(ords), res.selected
	return nil
}

// inflate decompresses a ZSTD payload into the Source's buffer; the output must be
// exactly plainLen bytes (already checked against the limit by the header parser).
func (s *Source) inflate(payload []byte, plainLen int) ([]byte, error) {
	// The zstd frame must declare the same content size before anything is allocated
	// (snii writes single-segment frames, which always declare it).
	var zh zstd.Header
	if err := zh.Decode(payload); err != nil {
		return nil, corruptf(CodecZstd, "zstd header: %v", err)
	}
	if zh.Skippable || !zh.HasFCS || zh.FrameContentSize != uint64(plainLen) || zh.DictionaryID != 0 {
		return nil, corruptf(CodecZstd, "zstd header declares %d bytes (known %v, dictionary %d), the frame says %d",
			zh.FrameContentSize, zh.HasFCS, zh.DictionaryID, plainLen)
	}
	if err := checkZstdBlocks(payload, zh.HeaderSize, zh.HasCheckSum); err != nil {
		return nil, err
	}
	if s.dec == nil {
		d, err := zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxMemory(uint64(s.limits.MaxBytes)),
			zstd.WithDecodeAllCapLimit(true),
			zstd.IgnoreChecksum(true), // snii writes none; the frame's CRC32C covers the payload
		)
		if err != nil {
			return nil, fmt.Errorf("prx: zstd decoder: %w", err)
		}
		s.dec = d
	}
	need := plainLen + zstdSlack
	if cap(s.buf) < need {
		c := max(need, min(2*cap(s.buf), s.limits.MaxBytes+zstdSlack))
		s.buf = make([]byte, c)
	}
	// The capacity bounds the output (WithDecodeAllCapLimit): the declared content
	// size fits it, and klauspost fails a frame whose blocks produce more than declared.
	out, err := s.dec.DecodeAll(payload, s.buf[:0:need])
	if err != nil {
		return nil, corruptf(CodecZstd, "zstd: %v", err)
	}
	if len(out) != plainLen {
		return nil, corruptf(CodecZstd, "zstd produced %d bytes, the header says %d", len(out), plainLen)
	}
	return out, nil
}

// checkZstdBlocks walks the block headers of the zstd frame at the start of payload
// (its frame header is hdr bytes) and checks that the frame ends exactly at the end
// of payload: a ZSTD payload is one zstd frame, nothing after it.
func checkZstdBlocks(payload []byte, hdr int, checksum bool) error {
	p := hdr
	for {
		if p+3 > len(payload) {
			return corruptf(CodecZstd, "zstd block header truncated at byte %d", p)
		}
		bh := int(payload[p]) | int(payload[p+1])<<8 | int(payload[p+2])<<16
		p += 3
		switch size := bh >> 3; bh >> 1 & 3 {
		case 0, 2: // raw, compressed
			p += size
		case 1: // RLE: one byte repeated
			p++
		default:
			return corruptf(CodecZstd, "zstd reserved block type")
		}
		if p > len(payload) {
			return corruptf(CodecZstd, "zstd block truncated")
		}
		if bh&1 != 0 { // last block
			break
		}
	}
	if checksum {
		p += 4
	}
	if p != len(payload) {
		return corruptf(CodecZstd, "zstd frame of %d bytes in a payload of %d", p, len(payload))
	}
	return nil
}

// Close releases the zstd decoder and the buffers. A closed Source returns errors
// wrapping ErrClosed; Close is idempotent.
func (s *Source) Close() {
	if s.dec != nil {
		s.dec.Close()
		s.dec = nil
	}
	s.buf, s.pfor = nil, pforScratch{}
	s.stats = nil
	s.closed = true
}
