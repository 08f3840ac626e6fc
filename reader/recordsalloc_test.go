package reader_test

import (
	"bytes"
	"testing"

	"github.com/snii-go/snii/writer"
)

// TestRecordsAllocs: a warmed Records call over ascending ids (a Docs result)
// allocates nothing, however many blocks it decodes (one hit in each of
// several blocks, or many hits in one), and hands every record byte-equal to
// the one added.
func TestRecordsAllocs(t *testing.T) {
	allocTest(t)
	recs := genRecords(5, 3000)
	s := open(t, buildRecords(t, recs, writer.DefaultOptions("text")))
	defer s.Close()
	info, _ := s.Store()
	if info.Blocks < 4 {
		t.Fatalf("%d store blocks: the test needs several", info.Blocks)
	}
	scattered := []uint32{3, 700, 1400, 2100, 2999}
	clustered := []uint32{10, 11, 12, 13, 14, 15, 16, 17, 18, 19}
	for _, ids := range [][]uint32{scattered, clustered} {
		bad := 0
		run := func() {
			err := s.Records(bg, ids, func(id uint32, rec []byte) error {
				if !bytes.Equal(rec, recs[id]) {
					bad++
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		on := gcOff()
		for range 5 {
			run()
		}
		if a := testing.AllocsPerRun(50, run); a != 0 {
			t.Errorf("Records of %d ids: %.0f allocs, want 0", len(ids), a)
		}
		on()
		if bad != 0 {
			t.Errorf("Records of %d ids: %d records differ from the ones added", len(ids), bad)
		}
	}
}
