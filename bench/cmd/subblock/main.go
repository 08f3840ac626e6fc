// Command subblock prices store blocks cut into zstd blocks at record
// boundaries: the records of a corpus are filled into blocks of -target plain
// bytes (n uvarint lengths, then the records, as the store lays them out);
// each block is one zstd frame at snii's store level (SpeedBetterCompression), either one zstd block (EncodeAll)
// or, with -sub S > 0, a zstd block ended (Flush) at the first record
// boundary at or past every S plain bytes, the lengths in the first. It
// prints the frames' bytes, then decodes -n records drawn uniformly at random
// (fixed seed): -mode whole decodes each record's whole frame (DecodeAll),
// -mode prefix decodes the frame only up to the end of the record (a
// synchronous streaming decoder). Run it under
// valgrind --tool=callgrind --toggle-collect='main.fetch*' to count the
// instructions of the decodes alone.
//
//	subblock -corpus service [-sub 4096] [-mode prefix] [-n 2000]
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/bench/peers"
)

type block struct {
	frame []byte
	n     int // records
	first int // first record's index
	plain int
}

func main() {
	corpus := flag.String("corpus", "service", "service or agent")
	sub := flag.Int("sub", 0, "plain bytes between zstd block ends (0: one zstd block)")
	target := flag.Int("target", 16<<10, "plain bytes a store block is filled to")
	mode := flag.String("mode", "", "whole or prefix: decode -n random records that way")
	n := flag.Int("n", 2000, "records decoded")
	flag.Parse()
	if err := run(*corpus, *sub, *target, *mode, *n); err != nil {
		fmt.Fprintln(os.Stderr, "subblock:", err)
		os.Exit(1)
	}
}

func run(corpus string, sub, target int, mode string, n int) error {
	c, err := peers.LoadCorpus(peers.FindCorpora(), corpus)
	if err != nil {
		return err
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false),
		zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithSingleSegment(true), zstd.WithWindowSize(1<<20))
	if err != nil {
		return err
	}
	var blocks []block
	var lens []byte
	var recs []string
	plainLen := func() int {
		s := len(lens)
		for _, r := range recs {
			s += len(r)
		}
		return s
	}
	first := 0
	flush := func() error {
		var f []byte
		if sub <= 0 {
			plain := append([]byte(nil), lens...)
			for _, r := range recs {
				plain = append(plain, r...)
			}
			f = enc.EncodeAll(plain, nil)
		} else {
			var buf bytes.Buffer
			enc.ResetContentSize(&buf, int64(plainLen()))
			cur := append([]byte(nil), lens...)
			for _, r := range recs {
				cur = append(cur, r...)
				if len(cur) >= sub {
					if _, err := enc.Write(cur); err != nil {
						return err
					}
					if err := enc.Flush(); err != nil {
						return err
					}
					cur = cur[:0]
				}
			}
			if _, err := enc.Write(cur); err != nil {
				return err
			}
			if err := enc.Close(); err != nil {
				return err
			}
			f = buf.Bytes()
		}
		blocks = append(blocks, block{frame: f, n: len(recs), first: first, plain: plainLen()})
		first += len(recs)
		lens, recs = lens[:0], recs[:0]
		return nil
	}
	for _, d := range c.Docs {
		add := binary.PutUvarint(make([]byte, 10), uint64(len(d))) + len(d)
		if len(recs) > 0 && plainLen()+add > target {
			if err := flush(); err != nil {
				return err
			}
		}
		lens = binary.AppendUvarint(lens, uint64(len(d)))
		recs = append(recs, d)
	}
	if err := flush(); err != nil {
		return err
	}
	stored, plain := 0, 0
	for _, b := range blocks {
		stored += len(b.frame)
		plain += b.plain
	}
	fmt.Printf("corpus %s sub %d target %d: %d records, %d blocks, %d plain bytes, %d stored bytes\n", corpus, sub, target, len(c.Docs), len(blocks), plain, stored)
	var st blockStats
	for _, b := range blocks {
		if err := st.add(b.frame); err != nil {
			return err
		}
	}
	fmt.Printf("zstd blocks: %d first of their frame, %d later (%d raw or RLE); of the later compressed ones: literals %d Huffman with a new table, %d treeless (the previous table), %d raw or RLE; %d repeat all three FSE tables, %d some, %d none\n",
		st.first, st.later, st.laterRaw, st.newTable, st.treeless, st.rawLits, st.fseAll, st.fseSome, st.later-st.laterRaw-st.fseAll-st.fseSome)
	if mode == "" {
		return nil
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<28), zstd.WithDecoderMaxWindow(1<<28))
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(34, 38))
	picks := make([]int, n)
	for i := range picks {
		picks[i] = rng.IntN(len(c.Docs))
	}
	blockOf := func(id int) int {
		lo, hi := 0, len(blocks)
		for hi-lo > 1 {
			m := (lo + hi) / 2
			if blocks[m].first <= id {
				lo = m
			} else {
				hi = m
			}
		}
		return lo
	}
	buf := make([]byte, 0, 1<<20)
	var got int
	for _, id := range picks {
		b := blocks[blockOf(id)]
		var rec []byte
		if mode == "whole" {
			rec, err = fetchWhole(dec, b, id-b.first, buf)
		} else {
			rec, err = fetchPrefix(dec, b, id-b.first, buf)
		}
		if err != nil {
			return err
		}
		if string(rec) != c.Docs[id] {
			return fmt.Errorf("record %d: wrong bytes", id)
		}
		got += len(rec)
	}
	fmt.Printf("mode %s: %d records, %d bytes, all equal\n", mode, n, got)
	return nil
}

// lengths parses the uvarint lengths at the head of plain, resuming after
// the *got lengths already parsed (ending at *off, their sum *sum); it
// records in rec the start (relative to the records) and length of record k.
// It returns false when plain ends before the n-th length.
func lengths(plain []byte, n, k int, got, off, sum *int, rec *[2]int) bool {
	for *got < n {
		v, m := binary.Uvarint(plain[*off:])
		if m <= 0 {
			return false
		}
		if *got == k {
			rec[0], rec[1] = *sum, int(v)
		}
		*off += m
		*sum += int(v)
		*got++
	}
	return true
}

func fetchWhole(dec *zstd.Decoder, b block, k int, buf []byte) ([]byte, error) {
	plain, err := dec.DecodeAll(b.frame, buf[:0])
	if err != nil {
		return nil, err
	}
	var got, off, sum int
	var rec [2]int
	if !lengths(plain, b.n, k, &got, &off, &sum, &rec) {
		return nil, io.ErrUnexpectedEOF
	}
	s := off + rec[0]
	return plain[s : s+rec[1]], nil
}

func fetchPrefix(dec *zstd.Decoder, b block, k int, buf []byte) ([]byte, error) {
	if err := dec.Reset(bytes.NewReader(b.frame)); err != nil {
		return nil, err
	}
	plain := buf[:0]
	var got, off, sum int
	var rec [2]int
	want := b.n // at least one byte per length
	for {
		m, err := io.ReadFull(dec, plain[len(plain):want])
		plain = plain[:len(plain)+m]
		if err != nil {
			return nil, err
		}
		if lengths(plain, b.n, k, &got, &off, &sum, &rec) {
			break
		}
		want = len(plain) + (b.n - got) // at least one byte per length left
	}
	end := off + rec[0] + rec[1]
	if end > len(plain) {
		m, err := io.ReadFull(dec, plain[len(plain):end])
		plain = plain[:len(plain)+m]
		if err != nil {
			return nil, err
		}
	}
	return plain[off+rec[0] : end], nil
}

// blockStats counts, over frames, the zstd blocks after a frame's first and
// how they code their literals and sequences (RFC 8878, sections 3.1.1.2 and
// 3.1.1.3): a block that repeats the previous block's Huffman table
// (treeless literals) or FSE tables (Repeat_Mode) saves their decoding.
type blockStats struct {
	first, later, laterRaw                       int
	newTable, treeless, rawLits, fseAll, fseSome int
}

func (s *blockStats) add(f []byte) error {
	bad := fmt.Errorf("frame of %d bytes: malformed", len(f))
	if len(f) < 6 {
		return bad
	}
	fhd := f[4]
	p := 5
	single := fhd&0x20 != 0
	if !single {
		p++
	}
	p += []int{0, 1, 2, 4}[fhd&3]
	fcs := []int{0, 2, 4, 8}[fhd>>6]
	if fhd>>6 == 0 && single {
		fcs = 1
	}
	p += fcs
	for i := 0; ; i++ {
		if p+3 > len(f) {
			return bad
		}
		h := int(f[p]) | int(f[p+1])<<8 | int(f[p+2])<<16
		p += 3
		last, typ, size := h&1 != 0, (h>>1)&3, h>>3
		body := size
		if typ == 1 {
			body = 1
		}
		if p+body > len(f) {
			return bad
		}
		if i == 0 {
			s.first++
		} else {
			s.later++
			if typ != 2 {
				s.laterRaw++
			} else if err := s.compressed(f[p : p+body]); err != nil {
				return err
			}
		}
		p += body
		if last {
			return nil
		}
	}
}

// compressed counts a compressed block's literal type and FSE modes.
func (s *blockStats) compressed(b []byte) error {
	if len(b) < 5 {
		return fmt.Errorf("compressed block of %d bytes", len(b))
	}
	lt, sf := b[0]&3, (b[0]>>2)&3
	var n int // literals section length
	switch {
	case lt <= 1:
		var hdr, size int
		switch sf {
		case 0, 2:
			hdr, size = 1, int(b[0]>>3)
		case 1:
			hdr, size = 2, int(b[0]>>4)|int(b[1])<<4
		default:
			hdr, size = 3, int(b[0]>>4)|int(b[1])<<4|int(b[2])<<12
		}
		if lt == 1 {
			size = 1
		}
		n = hdr + size
		s.rawLits++
	default:
		h := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 | uint64(b[4])<<32
		switch sf {
		case 0, 1:
			n = 3 + int(h>>14&0x3ff)
		case 2:
			n = 4 + int(h>>18&0x3fff)
		default:
			n = 5 + int(h>>22&0x3ffff)
		}
		if lt == 2 {
			s.newTable++
		} else {
			s.treeless++
		}
	}
	if n >= len(b) {
		return fmt.Errorf("literals of %d bytes in a block of %d", n, len(b))
	}
	q := b[n:]
	switch {
	case q[0] == 0:
		return nil // no sequences
	case q[0] < 128:
		q = q[1:]
	case q[0] < 255:
		q = q[2:]
	default:
		q = q[3:]
	}
	if len(q) == 0 {
		return fmt.Errorf("sequences header truncated")
	}
	rep := 0
	for _, sh := range []uint{6, 4, 2} {
		if q[0]>>sh&3 == 3 {
			rep++
		}
	}
	switch rep {
	case 3:
		s.fseAll++
	case 0:
	default:
		s.fseSome++
	}
	return nil
}
