// Command storeblocks re-encodes the records of a segment's store with other
// block layouts and prints the bytes each takes: blocks filled to -target
// plain bytes (n uvarint lengths, then the records, as the store lays them
// out), each one zstd frame at -level whose matches reach at most -window
// bytes back (the encoder cuts a frame into zstd blocks of at most the
// window). It counts the frames only (no block index).
//
//	storeblocks -seg S [-target 16384] [-window 1048576] [-level 3]
package main

import (
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"os"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/reader"
)

func main() {
	seg := flag.String("seg", "store.snii", "segment with a store")
	target := flag.Int("target", 16<<10, "plain bytes a block is filled to")
	window := flag.Int("window", 1<<20, "zstd window (and zstd block size when smaller than a frame)")
	level := flag.Int("level", 3, "zstd level")
	flag.Parse()
	if err := run(*seg, *target, *window, *level); err != nil {
		fmt.Fprintln(os.Stderr, "storeblocks:", err)
		os.Exit(1)
	}
}

func run(path string, target, window, level int) error {
	s, err := reader.Open(path, reader.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false),
		zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)), zstd.WithWindowSize(window))
	if err != nil {
		return err
	}
	defer enc.Close()
	ids := make([]uint32, s.DocCount())
	for i := range ids {
		ids[i] = uint32(i)
	}
	var lens, recs, frame []byte
	n, blocks, stored, raw := 0, 0, 0, 0
	flush := func() {
		frame = enc.EncodeAll(append(lens, recs...), frame[:0])
		stored += len(frame)
		blocks++
		lens, recs, n = lens[:0], recs[:0], 0
	}
	err = s.Records(context.Background(), ids, func(_ uint32, rec []byte) error {
		if n > 0 && len(lens)+len(recs)+binary.PutUvarint(make([]byte, binary.MaxVarintLen64), uint64(len(rec)))+len(rec) > target {
			flush()
		}
		lens = binary.AppendUvarint(lens, uint64(len(rec)))
		recs = append(recs, rec...)
		raw += len(rec)
		n++
		return nil
	})
	if err != nil {
		return err
	}
	if n > 0 {
		flush()
	}
	fmt.Printf("target %d window %d level %d: %d records (%d bytes) in %d blocks, %d bytes stored\n", target, window, level, len(ids), raw, blocks, stored)
	return nil
}
