package reader

import (
	"encoding/binary"

	"github.com/snii-go/snii/internal/codec/format"
)

// Version describes the format versions a segment records: the version of
// the writer that made it and the oldest reader version able to read it.
type Version struct {
	Format    uint16 // format version of the writer (header and tail agree)
	MinReader uint16 // minimum reader version
}

// Version returns the format versions recorded in the segment's header and
// tail (Open has checked that this reader can read them). A header and a
// tail that disagree are a corruption error.
func (s *Segment) Version() (_ Version, err error) {
	if err := s.acquire(); err != nil {
		return Version{}, err
	}
	defer s.release()
	if s.guarding() {
		defer s.faultGuard(&err, nil, enableFaults())
	}
	var buf []byte
	h, err := s.readAt(0, format.HeaderSize, &buf)
	if err != nil {
		return Version{}, s.wrap(sec("header"), err)
	}
	hv := Version{Format: binary.LittleEndian.Uint16(h[4:]), MinReader: binary.LittleEndian.Uint16(h[6:])}
	var tbuf []byte
	tb, err := s.readAt(uint64(s.size)-format.TailSize, format.TailSize, &tbuf)
	if err != nil {
		return Version{}, s.wrap(sec("tail"), err)
	}
	t, err := format.ParseTail(tb)
	if err != nil {
		return Version{}, s.wrap(sec("tail"), err)
	}
	if t.Version != hv.Format || t.MinReader != hv.MinReader {
		return Version{}, s.corrupt(sec("tail"), "format version %d (min reader %d), header says %d (min reader %d)",
			t.Version, t.MinReader, hv.Format, hv.MinReader)
	}
	return hv, nil
}
