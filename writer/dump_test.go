package writer_test

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/internal/codec/chooser"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/prx"
)

// This file decodes a segment independently of the writer (and of the
// reader package): tail → directory → metadata → dict blocks → entries →
// doc windows and prx frames, checking every CRC and every cross-reference
// on the way, and recounts the codec outcome from the frames.

type posting struct {
	Doc uint32
	Pos []uint32
}

type frameRec struct {
	codec    prx.Codec
	stored   int // bytes in the file (inline frames: without CRC)
	inline   bool
	docs     int
	window   prx.Window
	plainLen int
	units    []frameRec // the window's units (the codec is chosen per unit)
}

type termDump struct {
	Term     string
	Entry    format.Entry
	Postings []posting
	Frames   []frameRec
	Windows  []format.WindowInfo // windowed terms only
	units    []frameRec
}

type fieldDump struct {
	Meta  format.IndexMeta
	Terms []termDump
	Norms []byte // nil when the field stores none
}

type segDump struct {
	Size     int
	DocCount uint64
	Indexes  []fieldDump
}

func (s *segDump) index(t *testing.T, name string) *fieldDump {
	t.Helper()
	for i := range s.Indexes {
		if s.Indexes[i].Meta.Name == name {
			return &s.Indexes[i]
		}
	}
	t.Fatalf("index %q not in segment", name)
	return nil
}

// postings returns term → postings of one field.
func (d *fieldDump) postings() map[string][]posting {
	m := make(map[string][]posting, len(d.Terms))
	for _, t := range d.Terms {
		m[t.Term] = t.Postings
	}
	return m
}

func dumpFile(t *testing.T, path string) *segDump {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := dumpSegment(b)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return d
}

func dumpSegment(b []byte) (*segDump, error) {
	if len(b) < format.HeaderSize+format.TailSize {
		return nil, fmt.Errorf("file of %d bytes", len(b))
	}
	if err := format.ParseHeader(b[:format.HeaderSize]); err != nil {
		return nil, err
	}
	tail, err := format.ParseTail(b[len(b)-format.TailSize:])
	if err != nil {
		return nil, err
	}
	if err := tail.CheckFileSize(uint64(len(b))); err != nil {
		return nil, err
	}
	db := b[tail.DirOff : tail.DirOff+tail.DirLen]
	if format.Checksum(db) != tail.DirCRC {
		return nil, fmt.Errorf("directory crc")
	}
	dir, err := format.DecodeDirectory(db)
	if err != nil {
		return nil, err
	}
	seg := &segDump{Size: len(b), DocCount: dir.DocCount}
	next := uint64(format.HeaderSize)
	for _, de := range dir.Indexes {
		mb := b[de.MetaOff : de.MetaOff+de.MetaLen]
		if format.Checksum(mb) != de.MetaCRC {
			return nil, fmt.Errorf("index %q: metadata crc", de.Name)
		}
		m, err := format.DecodeIndexMeta(mb, dir.Version)
		if err != nil {
			return nil, err
		}
		if m.Name != de.Name || m.DocCount != dir.DocCount {
			return nil, fmt.Errorf("index %q: metadata names %q, %d docs", de.Name, m.Name, m.DocCount)
		}
		if m.PostingOff != next || m.End() != de.MetaOff {
			return nil, fmt.Errorf("index %q: sections not contiguous: posting at %d (want %d), sections end %d, meta at %d",
				m.Name, m.PostingOff, next, m.End(), de.MetaOff)
		}
		next = de.MetaOff + de.MetaLen
		id, err := dumpIndex(b, &m)
		if err != nil {
			return nil, fmt.Errorf("index %q: %w", m.Name, err)
		}
		seg.Indexes = append(seg.Indexes, *id)
	}
	if dir.StoreLen > 0 {
		sm, err := format.DecodeStoreMeta(b[dir.StoreOff:dir.StoreOff+dir.StoreLen], dir.DocCount)
		if err != nil {
			return nil, err
		}
		if sm.BlocksOff != next || sm.BlocksOff+sm.BlocksLen() != dir.StoreOff {
			return nil, fmt.Errorf("store blocks at [%d, +%d), want them from %d to the header at %d", sm.BlocksOff, sm.BlocksLen(), next, dir.StoreOff)
		}
		next = dir.StoreOff + dir.StoreLen
	}
	if next != tail.DirOff {
		return nil, fmt.Errorf("directory at %d, last metadata ends at %d", tail.DirOff, next)
	}
	return seg, nil
}

func dumpIndex(b []byte, m *format.IndexMeta) (*fieldDump, error) {
	zdec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	defer zdec.Close()
	decompress := func(dst, src []byte) ([]byte, error) { return zdec.DecodeAll(src, dst) }
	src := prx.NewSource(m.Limits)
	defer src.Close()
	post := b[m.PostingOff : m.PostingOff+m.PostingLen]
	dict := b[m.DictOff : m.DictOff+m.DictLen]
	d := &fieldDump{Meta: *m}
	if m.HasNorms {
		d.Norms = b[m.NormsOff : m.NormsOff+m.DocCount]
		if err := format.CheckNorms(d.Norms, m.DocCount, m.NormsCRC); err != nil {
			return nil, err
		}
	}
	var (
		offset                           uint64
		sumDF, sumTTF, docBytes, prelude uint64
		prxBytes, inlineFrames           uint64
		classes                          [3]uint64
		prev                             []byte
	)
	for bi, info := range m.Blocks {
		blk, err := format.DecodeBlock(dict[info.Offset:info.Offset+uint64(info.StoredLen)], info, decompress, nil)
		if err != nil {
			return nil, err
		}
		if err := blk.Check(); err != nil {
			return nil, err
		}
		it := blk.Iter()
		for i := 0; ; i++ {
			var e format.Entry
			term, ok, err := it.Next(&e)
			if err != nil {
				return nil, err
			}
			if !ok {
				break
			}
			if i == 0 && !bytes.Equal(term, m.FirstTerms[bi]) {
				return nil, fmt.Errorf("block %d: first term %q, sampled index says %q", bi, term, m.FirstTerms[bi])
			}
			if prev != nil && bytes.Compare(term, prev) <= 0 {
				return nil, fmt.Errorf("term %q after %q", term, prev)
			}
			prev = append(prev[:0], term...)
			td := termDump{Term: string(term), Entry: e}
			td.Entry.Docs, td.Entry.Frame = bytes.Clone(e.Docs), bytes.Clone(e.Frame)
			if err := e.CheckLocator(m.PostingLen); err != nil {
				return nil, err
			}
			classes[e.Class]++
			sumDF += e.DF
			sumTTF += e.TTF
			switch e.Class {
			case format.ClassInline:
				docs, err := format.DecodeDocWindow(e.Docs, int(e.DF), 0, false, nil)
				if err != nil {
					return nil, fmt.Errorf("term %q: %w", term, err)
				}
				fr, err := decodeFrame(src, e.Frame, false, len(e.Frame))
				if err != nil {
					return nil, fmt.Errorf("term %q: %w", term, err)
				}
				td.Frames = append(td.Frames, fr)
				docBytes += uint64(len(e.Docs))
				inlineFrames += uint64(len(e.Frame))
				if err := td.addWindow(docs, &fr); err != nil {
					return nil, err
				}
			case format.ClassSlim:
				if e.Offset != offset {
					return nil, fmt.Errorf("term %q at %d, want %d (posting region not contiguous)", term, e.Offset, offset)
				}
				p := post[e.Offset : e.Offset+e.PrxLen+e.DocLen]
				fr, err := decodeFrame(src, p[:e.PrxLen], true, int(e.PrxLen))
				if err != nil {
					return nil, fmt.Errorf("term %q: %w", term, err)
				}
				docs, err := format.DecodeDocWindow(p[e.PrxLen:], int(e.DF), 0, true, nil)
				if err != nil {
					return nil, fmt.Errorf("term %q: %w", term, err)
				}
				td.Frames = append(td.Frames, fr)
				if err := td.addWindow(docs, &fr); err != nil {
					return nil, err
				}
				offset += e.PrxLen + e.DocLen
				prxBytes += e.PrxLen
				docBytes += e.DocLen
			case format.ClassWindowed:
				if e.Offset != offset {
					return nil, fmt.Errorf("term %q at %d, want %d (posting region not contiguous)", term, e.Offset, offset)
				}
				frames := post[e.Offset : e.Offset+e.PrxLen]
				span := post[e.Offset+e.PrxLen : e.Offset+e.PrxLen+e.DocLen]
				pre, n, err := format.ParsePrelude(span)
				if err != nil {
					return nil, fmt.Errorf("term %q: %w", term, err)
				}
				if pre.DocCount() != e.DF || pre.PrxBytes() != e.PrxLen || uint64(n)+pre.DocBytes() != e.DocLen {
					return nil, fmt.Errorf("term %q: prelude says %d docs, %d prx bytes, %d doc bytes; entry %d, %d, %d",
						term, pre.DocCount(), pre.PrxBytes(), pre.DocBytes(), e.DF, e.PrxLen, e.DocLen)
				}
				var docOff, prxOff uint64
				for w := 0; w < pre.Len(); w++ {
					wi, err := pre.Window(w)
					if err != nil {
						return nil, err
					}
					if wi.DocOff != docOff || wi.PrxOff != prxOff {
						return nil, fmt.Errorf("term %q window %d: offsets %d/%d, want %d/%d", term, w, wi.DocOff, wi.PrxOff, docOff, prxOff)
					}
					docOff += wi.DocLen
					prxOff += wi.PrxLen
					docs, err := format.DecodeDocWindow(span[uint64(n)+wi.DocOff:uint64(n)+wi.DocOff+wi.DocLen], int(wi.Docs), wi.Base, true, nil)
					if err != nil {
						return nil, fmt.Errorf("term %q window %d: %w", term, w, err)
					}
					if docs[len(docs)-1] != wi.LastDoc {
						return nil, fmt.Errorf("term %q window %d: last doc %d, prelude says %d", term, w, docs[len(docs)-1], wi.LastDoc)
					}
					fr, err := decodeFrame(src, frames[wi.PrxOff:wi.PrxOff+wi.PrxLen], true, int(wi.PrxLen))
					if err != nil {
						return nil, fmt.Errorf("term %q window %d: %w", term, w, err)
					}
					td.Frames = append(td.Frames, fr)
					td.Windows = append(td.Windows, wi)
					if err := td.addWindow(docs, &fr); err != nil {
						return nil, err
					}
				}
				offset += e.PrxLen + e.DocLen
				prxBytes += e.PrxLen
				docBytes += e.DocLen
				prelude += uint64(n)
			}
			if uint64(len(td.Postings)) != e.DF {
				return nil, fmt.Errorf("term %q: %d postings, df %d", term, len(td.Postings), e.DF)
			}
			var ttf uint64
			for _, p := range td.Postings {
				ttf += uint64(len(p.Pos))
			}
			if ttf != e.TTF {
				return nil, fmt.Errorf("term %q: %d positions, ttf %d", term, ttf, e.TTF)
			}
			d.Terms = append(d.Terms, td)
		}
	}
	if offset != m.PostingLen {
		return nil, fmt.Errorf("terms cover %d posting bytes of %d", offset, m.PostingLen)
	}
	got := [...]uint64{uint64(len(d.Terms)), sumDF, sumTTF, classes[0], classes[1], classes[2], docBytes, prelude, prxBytes, inlineFrames}
	want := [...]uint64{m.TermCount, m.SumDF, m.SumTTF, m.InlineTerms, m.SlimTerms, m.WindowedTerms, m.DocBytes, m.PreludeBytes, m.PrxBytes, m.InlineFrameBytes}
	if got != want {
		return nil, fmt.Errorf("recount terms,sumDF,sumTTF,inline,slim,windowed,docBytes,prelude,prx,inlineFrames = %v, metadata says %v", got, want)
	}
	return d, nil
}

func decodeFrame(src *prx.Source, b []byte, withCRC bool, want int) (frameRec, error) {
	var w prx.Window
	n, err := src.Decode(b, withCRC, &w)
	if err != nil {
		return frameRec{}, err
	}
	if n != want {
		return frameRec{}, fmt.Errorf("frame of %d bytes in a %d-byte slot", n, want)
	}
	fr := frameRec{codec: prx.Codec(b[0]), stored: n, inline: !withCRC, docs: w.Docs(), window: w, plainLen: prx.PlainSize(&w)}
	// The codec is chosen per unit: keep each unit as its own record.
	for _, u := range src.Units() {
		var sub prx.Window
		w.Slice(u.Lo, u.Hi, &sub)
		sub.Positions = append([]uint32(nil), sub.Positions...)
		fr.units = append(fr.units, frameRec{codec: u.Codec, stored: u.Len, inline: !withCRC, docs: u.Hi - u.Lo, window: sub, plainLen: u.PlainLen})
	}
	return fr, nil
}

// allUnits lists the units of the term's windows in order (kept in td.units).
func (td *termDump) allUnits() []frameRec {
	td.units = td.units[:0]
	for _, f := range td.Frames {
		td.units = append(td.units, f.units...)
	}
	return td.units
}

func (td *termDump) addWindow(docs []uint32, fr *frameRec) error {
	if fr.docs != len(docs) {
		return fmt.Errorf("term %q: frame of %d docs for a doc window of %d", td.Term, fr.docs, len(docs))
	}
	for i, doc := range docs {
		td.Postings = append(td.Postings, posting{Doc: doc, Pos: append([]uint32(nil), fr.window.Doc(i)...)})
	}
	return nil
}

// recount recomputes a field's codec outcome from its frames, in the
// canonical order (terms in byte order, windows ascending), with exact sizes
// from a fresh encoder; it replays the policy on a fresh chooser.Chooser in
// that order and checks every stored frame against the replayed decision,
// the budget's bound after every window, and the recorded outcome.
func recount(t *testing.T, d *fieldDump) prx.Outcome {
	t.Helper()
	m := &d.Meta
	enc, err := prx.NewEncoder(prx.EncoderOptions{ZstdLevel: m.ZstdLevel, Limits: m.Limits, Policy: m.Policy})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	ch, err := chooser.New(m.Policy)
	if err != nil {
		t.Fatal(err)
	}
	var out prx.Outcome
	out.Budget.Policy = m.Policy
	for _, td := range d.Terms {
		for i := range td.allUnits() {
			fr := &td.units[i]
			size := fr.stored
			if fr.inline {
				size += prx.CRCSize
			}
			out.Windows[fr.codec]++
			out.Bytes[fr.codec] += int64(size)
			raw := sizeOf(t, enc, &fr.window, prx.CodecRaw)
			pfor := sizeOf(t, enc, &fr.window, prx.CodecPFOR)
			singleton := fr.docs == 1 && len(fr.window.Positions) == 1
			if singleton || !prx.Eligible(&fr.window) {
				want, wantCodec := raw, prx.CodecRaw
				if !singleton && pfor > 0 && pfor <= raw {
					want, wantCodec = pfor, prx.CodecPFOR
				}
				if size != want || fr.codec != wantCodec {
					t.Errorf("term %q window %d: fast path stored %v %d bytes, want %v %d", td.Term, i, fr.codec, size, wantCodec, want)
				}
				continue
			}
			z := sizeOf(t, enc, &fr.window, prx.CodecZstd)
			fast, isPFOR := chooser.FastSize(raw, pfor, pfor > 0)
			ev := chooser.Evaluate(fast, z)
			out.Budget.Eligible++
			out.Budget.SumSmallest += int64(ev.Smallest)
			// Replay the policy in the canonical order: the writer must have
			// made exactly the same decision for this window.
			storeZstd, _ := ch.Choose(fast, z)
			want, wantCodec := fast, prx.CodecRaw
			if isPFOR {
				wantCodec = prx.CodecPFOR
			}
			if storeZstd {
				want, wantCodec = z, prx.CodecZstd
			}
			if size != want || fr.codec != wantCodec {
				t.Errorf("term %q window %d: stored %v %d bytes, the policy replayed in canonical order gives %v %d (raw %d pfor %d zstd %d)",
					td.Term, i, fr.codec, size, wantCodec, want, raw, pfor, z)
			}
			if !storeZstd && ev.ZstdWins {
				out.Budget.Traded += int64(ev.Trade)
				out.Budget.TradedCount++
				if minSavingPercent(m.Policy) == 0 {
					t.Errorf("term %q window %d: policy 0 stored fast %d bytes, smallest %d", td.Term, i, size, ev.Smallest)
				}
				if s := minSavingPercent(m.Policy); s > 0 && ev.Saving >= s {
					t.Errorf("term %q window %d: share %d stored fast at saving %d", td.Term, i, s, ev.Saving)
				}
			}
			if minSavingPercent(m.Policy) == -1 && 100*out.Budget.Traded > int64(budgetPercent(m.Policy))*out.Budget.SumSmallest {
				t.Errorf("term %q window %d: budget bound broken: traded %d of %d smallest bytes at %d%%", td.Term, i,
					out.Budget.Traded, out.Budget.SumSmallest, budgetPercent(m.Policy))
			}
		}
	}
	got, want := out, m.Outcome
	if got.Windows != want.Windows || got.Bytes != want.Bytes || got.Budget.Eligible != want.Budget.Eligible ||
		got.Budget.SumSmallest != want.Budget.SumSmallest || got.Budget.Traded != want.Budget.Traded ||
		got.Budget.TradedCount != want.Budget.TradedCount {
		t.Errorf("index %q: recounted outcome %+v, recorded %+v", m.Name, got, want)
	}
	if co := ch.Outcome(); co.FinalShare != want.Budget.FinalShare || co.Allowance != want.Budget.Allowance {
		t.Errorf("index %q: replayed share %d, allowance %d; recorded %d, %d", m.Name, co.FinalShare, co.Allowance, want.Budget.FinalShare, want.Budget.Allowance)
	}
	return out
}

// sizeOf returns the exact frame size of w under codec c (0 when c cannot encode it).
func sizeOf(t *testing.T, enc *prx.Encoder, w *prx.Window, c prx.Codec) int {
	t.Helper()
	f, err := enc.EncodeCodec(w, c)
	if err != nil {
		if c == prx.CodecPFOR {
			return 0
		}
		t.Fatalf("EncodeCodec %v: %v", c, err)
	}
	return len(f.Bytes)
}
