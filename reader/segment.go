package reader

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/limits"
	"github.com/snii-go/snii/objstore"
)

// defaultBlockCacheBytes is the default bound on the decoded dictionary blocks
// a Segment keeps (Options.BlockCacheBytes).
const defaultBlockCacheBytes = 8 << 20

// Options configure how a segment is opened. The zero value gives the defaults.
type Options struct {
	// Limits bound what one .prx window may declare (docs, positions, bytes); a
	// frame over them is rejected as corrupt before anything is allocated. Zero
	// fields mean prx's defaults (the maximum).
	Limits limits.Limits
	// BlockCacheBytes bounds the decoded dictionary blocks kept between lookups:
	// 0 means 8 MiB, negative disables the cache (every lookup
	// decodes its block). Ignored when BlockCache is set.
	BlockCacheBytes int
	// BlockCache, when set, is a cache shared with other segments (see
	// NewBlockCache): the segment keeps its decoded dictionary blocks there,
	// within the cache's one bound, instead of in a cache of its own.
	BlockCache *BlockCache
	// Decoders, when set, is a decoder pool shared with other segments (see
	// NewDecoders; made for these Limits); nil gives the segment a pool of its own.
	Decoders *Decoders
	// MaxUnitBytes caps the RAW payload one ZSTD unit of a .prx window may
	// declare, which decoding it inflates into memory: a unit over it is an error
	// of kind snii.ErrLimit (the data may be sound, but larger than this reader
	// accepts), raised before anything is allocated. 0 means DefaultMaxUnitBytes
	// (16 MiB); at most limits.DefaultMaxBytes. See DefaultMaxUnitBytes for when to
	// raise it.
	MaxUnitBytes int
	// DecodeBudget bounds the inflation buffers held at once by the queries of
	// every segment sharing it (see DecodeBudget). nil means one budget of
	// DefaultDecodeMemory bytes, shared by all segments opened without one.
	DecodeBudget *DecodeBudget
	// NoMmap makes Open read the file with pread (ReadAt) instead of mapping it.
	// OpenReaderAt never maps.
	NoMmap bool
	// Name names the segment in errors (snii.SegmentError.Segment) and in
	// Verify's messages. "" means the path given to Open, or "reader" for
	// OpenReaderAt: give segments read from object storage or memory a name
	// ("s3://bucket/key") so that their errors say which one failed.
	Name string
}

// Segment is an open, immutable segment. It is safe for any number of
// concurrent queries; Close releases it once the running queries and open
// Postings end.
type Segment struct {
	access             // what internal/seam reads (IndexMeta, SegmentWindows)
	name   string      // file name or "reader", for messages
	data   []byte      // the whole file when mapped; nil otherwise
	path   string      // the mapped file's path (fileChanged)
	stat   os.FileInfo // the mapped file as it was opened
	ra     io.ReaderAt // used when data is nil
	size   int64
	unmap  func() error
	file   *os.File
	limits limits.Limits

	maxUnit int           // Options.MaxUnitBytes, normalized
	budget  *DecodeBudget // Options.DecodeBudget, or the default one

	docCount uint32
	dirOff   uint64
	store    *store   // nil: the segment keeps no records
	fields   []*field // sorted by name
	names    []string

	refs   atomic.Int64 // 1 for the open segment + 1 per running query or Postings
	closed atomic.Bool
	relErr error // error of the final release (unmap, file close)
	relMu  sync.Mutex

	dec    *Decoders // Options.Decoders, or the segment's own (ownDec)
	ownDec bool
	ctxs   sync.Pool   // *qctx
	blocks *blockCache // Options.BlockCache's, or the segment's own

	openCost objstore.Cost // what Open read from an objstore.ReaderAt

	// crcs records the regions whose CRC a query verified (mapped segments
	// only; nil otherwise): see crcSet.
	crcs *crcSet
}

// field is the reader's view of one field of the segment.
type field struct {
	seg  *Segment
	idx  int
	meta format.IndexMeta
	// the metadata group's place in the file (for Verify's coverage check)
	metaOff, metaLen uint64
	// pairs caches the opened pair section (see pairTable).
	pairs atomic.Pointer[format.PairTable]
	// blocks[i] caches the decoded dict block i (see blockCache).
	slots []atomic.Pointer[cachedBlock]
	// norms caches the checked norms section (see loadNorms); minNormV its
	// smallest non-zero byte + 1 (0: not computed yet).
	norms    atomic.Pointer[[]byte]
	minNormV atomic.Uint32
	// normInv caches the last BM25 length table computed for this field
	// (see normCache): the same parameters and average length give it again.
	normInv atomic.Pointer[normTable]
	// preludes holds the sums of the windowed terms' preludes verified
	// once (see resolved): a term met again has its prelude's CRC checked,
	// not each of its entries.
	preludes verifiedPreludes
}

// Open opens the segment file at path, memory-mapping it on unix (pread
// elsewhere, or with Options.NoMmap). It reads only the header, tail,
// directory, metadata groups and the store's header. The zero Options are the defaults.
//
// A damaged file gives an error wrapping snii.ErrCorrupt (a
// *snii.SegmentError naming the section), a newer format snii.ErrVersion,
// and a field whose analyzer is not registered (see analysis.Register)
// snii.ErrNotFound.
func Open(path string, o Options) (*Segment, error) {
	s, err := openFile(path, o)
	if err != nil {
		return nil, err
	}
	if err := s.init(context.Background(), o); err != nil {
		s.release()
		return nil, err
	}
	return s, nil
}

// openFile opens the file at path and maps it (or keeps it for pread): the
// segment before init reads it.
func openFile(path string, o Options) (*Segment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, errs.Invalidf("segment %s: is a directory, not a segment file", path)
	}
	size := st.Size()
	name := o.Name
	if name == "" {
		name = path
	}
	s := &Segment{name: name, size: size}
	s.access = seam.NewSegment((*segmentSeam)(s))
	if canMmap && !o.NoMmap {
		data, unmap, err := mapFile(f, size)
		if err != nil {
			f.Close()
			return nil, s.at(place{section: "mmap", window: -1}, err)
		}
		f.Close() // the mapping stays valid after the file is closed
		s.data, s.unmap = data, unmap
		s.path, s.stat = path, st
		s.crcs = newCRCSet(size)
	} else {
		s.ra, s.file = f, f
	}
	return s, nil
}

// OpenReaderAt opens a segment of size bytes read through r (which must stay
// valid until Close; Close does not close it), for example an object in
// object storage behind a ranged-read io.ReaderAt. Options.Name names it in
// errors ("reader" when empty). Otherwise it is Open. ctx is the context of
// its reads: when r is an objstore.ReaderAt the context travels with them,
// the metadata groups are fetched in one round (none when r already holds
// them, as an object opened with a large enough suffix does), and OpenCost
// reports what opening cost.
func OpenReaderAt(ctx context.Context, r io.ReaderAt, size int64, o Options) (*Segment, error) {
	name := o.Name
	if name == "" {
		name = "reader"
	}
	if r == nil || size < 0 {
		return nil, errs.Invalidf("reader: OpenReaderAt(context.Background(), %s) needs a reader and a size >= 0", name)
	}
	s := &Segment{name: name, ra: r, size: size}
	s.access = seam.NewSegment((*segmentSeam)(s))
	if err := s.init(ctx, o); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Segment) init(ctx context.Context, o Options) (err error) {
	if s.guarding() {
		defer s.faultGuard(&err, nil, enableFaults())
	}
	if err := o.Limits.Validate(); err != nil {
		return err
	}
	s.limits = o.Limits.Normalize()
	if o.MaxUnitBytes < 0 || o.MaxUnitBytes > limits.DefaultMaxBytes {
		return errs.Invalidf("reader: MaxUnitBytes = %d (want 0 for the default %d, or 1..%d)", o.MaxUnitBytes, DefaultMaxUnitBytes, limits.DefaultMaxBytes)
	}
	s.maxUnit = o.MaxUnitBytes
	if s.maxUnit == 0 {
		s.maxUnit = DefaultMaxUnitBytes
	}
	s.budget = o.DecodeBudget
	if s.budget == nil {
		s.budget = defaultBudget
	}
	s.refs.Store(1)
	if err := s.useShared(o); err != nil {
		return err
	}

	if s.size < format.HeaderSize+format.TailSize {
		return s.tooShort()
	}
	var buf []byte
	x := &qctx{s: s, ctx: ctx} // attributes remote reads to openCost
	defer func() { s.openCost = x.count.fetch }()
	readAt := func(off, n uint64, buf *[]byte) ([]byte, error) {
		if r := s.remote(); r != nil {
			return x.readRemote(r, off, n, buf)
		}
		return s.readAt(off, n, buf)
	}
	hdr, err := readAt(0, format.HeaderSize, &buf)
	if err != nil {
		return s.wrap(sec("header"), err)
	}
	if err := format.ParseHeader(hdr); err != nil {
		return s.wrap(sec("header"), err)
	}
	tb, err := readAt(uint64(s.size)-format.TailSize, format.TailSize, &buf)
	if err != nil {
		return s.wrap(sec("tail"), err)
	}
	tail, err := format.ParseTail(tb)
	if err != nil {
		return s.wrap(sec("tail"), err)
	}
	if err := tail.CheckFileSize(uint64(s.size)); err != nil {
		return s.wrap(sec("tail"), err)
	}
	db, err := readAt(tail.DirOff, tail.DirLen, &buf)
	if err != nil {
		return s.wrap(sec("directory"), err)
	}
	if err := format.VerifyChecksum(db, tail.DirCRC, "tail"); err != nil {
		return s.wrap(sec("directory"), err)
	}
	dir, err := format.DecodeDirectory(db)
	if err != nil {
		return s.wrap(sec("directory"), err)
	}
	if dir.DocCount > 1<<32-1 {
		return s.corrupt(sec("directory"), "%d documents (doc ids are uint32)", dir.DocCount)
	}
	s.docCount = uint32(dir.DocCount)
	s.dirOff = tail.DirOff
	s.fields = make([]*field, len(dir.Indexes))
	s.names = make([]string, len(dir.Indexes))
	end := tail.DirOff // metadata groups and sections lie before the directory
	metas := make([]objstore.Range, 0, len(dir.Indexes))
	for _, de := range dir.Indexes {
		if de.MetaOff <= end && de.MetaLen <= end-de.MetaOff {
			metas = append(metas, objstore.Range{Off: int64(de.MetaOff), Len: int64(de.MetaLen)})
		}
	}
	if dir.StoreLen > 0 && dir.StoreOff <= end && dir.StoreLen <= end-dir.StoreOff {
		metas = append(metas, objstore.Range{Off: int64(dir.StoreOff), Len: int64(dir.StoreLen)})
	}
	x.prefetch(metas) // one round for them all (none if already held)
	for i, de := range dir.Indexes {
		sec := place{section: "metadata", index: de.Name, window: -1}
		if de.MetaOff < format.HeaderSize || de.MetaOff > end || de.MetaLen > end-de.MetaOff {
			return s.corrupt(sec, "[%d, +%d) outside [%d, %d)", de.MetaOff, de.MetaLen, format.HeaderSize, end)
		}
		mb, err := readAt(de.MetaOff, de.MetaLen, &buf)
		if err != nil {
			return s.wrap(sec, err)
		}
		if err := format.VerifyChecksum(mb, de.MetaCRC, "directory"); err != nil {
			return s.wrap(sec, err)
		}
		m, err := format.DecodeIndexMeta(mb, dir.Version)
		if err != nil {
			return s.wrap(sec, err)
		}
		switch {
		case m.Name != de.Name:
			return s.corrupt(sec, "names index %q", m.Name)
		case m.DocCount != dir.DocCount:
			return s.corrupt(sec, "%d documents, directory says %d", m.DocCount, dir.DocCount)
		case m.PostingOff < format.HeaderSize || m.End() > de.MetaOff:
			return s.corrupt(sec, "sections [%d, %d) overlap the header or the metadata at %d",
				m.PostingOff, m.End(), de.MetaOff)
		}
		if _, err := analysis.New(m.Analyzer); err != nil {
			if errors.Is(err, errs.InvalidArgument) {
				// A stored spec that does not parse is damage, not a bad call.
				return s.corrupt(sec.in("analyzer"), "stored spec %q does not parse", m.Analyzer)
			}
			return s.wrap(sec.in("analyzer"), err)
		}
		s.fields[i] = &field{seg: s, idx: i, meta: m, metaOff: de.MetaOff, metaLen: de.MetaLen,
			slots: make([]atomic.Pointer[cachedBlock], len(m.Blocks))}
		s.names[i] = m.Name
	}
	if dir.StoreLen > 0 {
		if dir.StoreOff < format.HeaderSize || dir.StoreOff > end || dir.StoreLen > end-dir.StoreOff {
			return s.corrupt(sec("store"), "header [%d, +%d) outside [%d, %d)", dir.StoreOff, dir.StoreLen, format.HeaderSize, end)
		}
		hb, err := readAt(dir.StoreOff, dir.StoreLen, &buf)
		if err != nil {
			return s.wrap(sec("store"), err)
		}
		if err := s.openStore(&dir, hb); err != nil {
			return err
		}
	}
	return nil
}

// tooShort is the error for a file too short for a header and a tail: "not a
// snii segment" unless its first bytes are the header's magic (a truncated
// segment).
func (s *Segment) tooShort() error {
	if s.size == 0 {
		return s.corrupt(sec("file"), "empty, not a snii segment")
	}
	var buf []byte
	n := min(uint64(s.size), uint64(len(format.HeaderMagic)))
	b, err := s.readAt(0, n, &buf)
	if err != nil {
		return s.wrap(sec("file"), err)
	}
	if string(b) != format.HeaderMagic[:n] {
		return s.corrupt(sec("file"), "not a snii segment (%d bytes, starting %q)", s.size, b)
	}
	return s.corrupt(sec("file"), "%d bytes, shorter than a header and a tail (a truncated segment)", s.size)
}

// place is where in the segment an error happened: the fields of a
// snii.SegmentError but the segment's name.
type place struct {
	section, index, term string
	window               int // -1: none
}

// sec returns the place of a whole section ("header", "directory", ...).
func sec(section string) place { return place{section: section, window: -1} }

// in returns p with its section set (a term's "prelude").
func (p place) in(section string) place { p.section = section; return p }

// String renders p the way a snii.SegmentError does (without the segment).
func (p place) String() string {
	e := snii.SegmentError{Section: p.section, Index: p.index, Term: p.term, Window: p.window}
	return strings.TrimPrefix(e.Error(), "segment : ")
}

// at returns a *snii.SegmentError placing err in s. An error already placed
// (it holds a *snii.SegmentError) is returned as it is: the inner place is the
// more precise one, and a message names each place once.
func (s *Segment) at(p place, err error) error {
	if errs.Placed(err) {
		return err
	}
	return &snii.SegmentError{Segment: s.name, Section: p.section, Index: p.index, Term: p.term, Window: p.window, Err: err}
}

// corrupt returns an ErrCorrupt error placed in s (a *snii.SegmentError).
func (s *Segment) corrupt(p place, format string, args ...any) error {
	return s.at(p, errs.Corruptf(format, args...))
}

// wrap places err in s (a *snii.SegmentError wrapping err).
func (s *Segment) wrap(p place, err error) error { return s.at(p, err) }

// readAt returns the n bytes at off: a sub-slice of the mapping, or bytes read
// into *buf (grown as needed) through the ReaderAt. Reads outside the file are
// corruption errors (a truncated or damaged locator).
func (s *Segment) readAt(off, n uint64, buf *[]byte) ([]byte, error) {
	if off > uint64(s.size) || n > uint64(s.size)-off {
		return nil, errs.Corruptf("range [%d, +%d) beyond the end of the %d-byte file", off, n, s.size)
	}
	if s.data != nil {
		return s.data[off : off+n : off+n], nil
	}
	b := grow(buf, n)
	if err := readFull(s.ra, b, int64(off)); err != nil {
		return nil, fmt.Errorf("read [%d, +%d): %w", off, n, err)
	}
	return b, nil
}

// acquire takes a reference for a query; it fails after Close.
func (s *Segment) acquire() error {
	for {
		r := s.refs.Load()
		if r <= 0 || s.closed.Load() {
			return s.at(place{window: -1}, errs.Closed)
		}
		if s.refs.CompareAndSwap(r, r+1) {
			return nil
		}
	}
}

// release drops a reference; the last one unmaps the file.
func (s *Segment) release() {
	if s.refs.Add(-1) > 0 {
		return
	}
	s.relMu.Lock()
	defer s.relMu.Unlock()
	if s.dec != nil && s.ownDec {
		s.dec.close() // idle decode sources and zstd decoders
	}
	if s.blocks != nil {
		s.blocks.purge(s) // a shared cache must not keep a closed segment's blocks
	}
	if s.unmap != nil {
		s.relErr = s.unmap()
		s.unmap = nil
		s.data = nil
	}
	if s.file != nil {
		if err := s.file.Close(); s.relErr == nil {
			s.relErr = err
		}
		s.file = nil
	}
}

// Close releases the segment. Queries and Postings still running keep it alive
// until they end; new queries fail with an error wrapping snii.ErrClosed. Closing
// twice is a no-op.
func (s *Segment) Close() error {
	if !s.closed.CompareAndSwap(false, true) {
		return nil
	}
	s.release()
	s.relMu.Lock()
	defer s.relMu.Unlock()
	return s.relErr
}

// OpenCost returns what opening the segment read through an objstore.ReaderAt
// (zero otherwise), not counting what the reader fetched before it was
// given to OpenReaderAt.
func (s *Segment) OpenCost() objstore.Cost { return s.openCost }

// DocCount returns the number of documents in the segment.
func (s *Segment) DocCount() uint32 { return s.docCount }

// Fields returns the names of the segment's fields, in byte order.
func (s *Segment) Fields() []string { return append([]string(nil), s.names...) }

// Analyze runs the analyzer recorded for a field over text and returns its terms
// in order (skipped over-long tokens are left out). An unknown field gives an
// error wrapping snii.ErrNotFound, a closed segment snii.ErrClosed.
func (s *Segment) Analyze(name, text string) ([]string, error) {
	if s.closed.Load() {
		return nil, s.at(place{window: -1}, errs.Closed)
	}
	a, err := s.analyzer(name)
	if err != nil {
		return nil, err
	}
	var out []string
	_, _ = a.Analyze(text, func(term []byte, _ uint32) { out = append(out, string(term)) })
	return out, nil
}

// analyzer returns a fresh analyzer of the named field.
func (s *Segment) analyzer(name string) (analysis.Analyzer, error) {
	f, err := s.field(name)
	if err != nil {
		return nil, err
	}
	a, err := analysis.New(f.meta.Analyzer)
	if err != nil {
		return nil, s.at(place{index: name, window: -1}, err)
	}
	return a, nil
}

// field returns the named field or an ErrNotFound error listing them.
func (s *Segment) field(name string) (*field, error) {
	lo, hi := 0, len(s.fields)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.names[m] < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(s.fields) && s.names[lo] == name {
		return s.fields[lo], nil
	}
	return nil, s.at(place{window: -1}, errs.NotFoundf("no field %q (fields: %s)", errs.Excerpt(name), strings.Join(s.names, ", ")))
}

// grow returns (*buf)[:n], growing *buf first when it is too small (buf may
// be nil: a fresh buffer).
func grow(buf *[]byte, n uint64) []byte {
	if buf == nil {
		return make([]byte, n)
	}
	if uint64(cap(*buf)) < n {
		*buf = make([]byte, n)
	}
	return (*buf)[:n]
}

// readFull fills b from r at off. io.ReaderAt lets a reader return io.EOF
// with all the bytes asked for (at the end of its data); fewer bytes than
// asked is an error wrapping io.ErrUnexpectedEOF whatever the reader said, so
// that a short read never leaves stale bytes in b to be taken as data.
func readFull(r io.ReaderAt, b []byte, off int64) error {
	n, err := r.ReadAt(b, off)
	if n == len(b) && (err == nil || errors.Is(err, io.EOF)) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return fmt.Errorf("got %d of %d bytes: %w", n, len(b), io.ErrUnexpectedEOF)
	}
	return err
}
