package testkit_test

import (
	"encoding/binary"
	"testing"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/testkit"
)

// SetVersions writes what format's parsers read back: the versions in the
// header and the tail, with valid CRCs.
func TestSetVersions(t *testing.T) {
	b := format.AppendHeader(nil)
	b = append(b, make([]byte, 40)...)
	b = format.AppendTail(b, format.Tail{DirOff: 16, DirLen: 40})
	testkit.SetVersions(b, 6, 5)
	if err := format.ParseHeader(b[:format.HeaderSize]); err != nil {
		t.Fatal(err)
	}
	if binary.LittleEndian.Uint16(b[4:]) != 6 || binary.LittleEndian.Uint16(b[6:]) != 5 {
		t.Fatalf("header versions % x", b[4:8])
	}
	tl, err := format.ParseTail(b[len(b)-format.TailSize:])
	if err != nil || tl.Version != 6 || tl.MinReader != 5 {
		t.Fatalf("tail %+v, %v", tl, err)
	}
}
