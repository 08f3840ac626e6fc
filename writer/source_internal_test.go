package writer

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNextDocSkipsPositions checks that nextDoc gives next's doc ids over
// records whose varints (1 to 5 bytes) are cut into chunks at every size.
func TestNextDocSkipsPositions(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var stream []byte
	var want []uint32
	doc := uint32(0)
	for i := range 200 {
		delta := uint32(1 + r.IntN(1<<uint(r.IntN(28))))
		if i == 0 {
			delta = uint32(r.IntN(3))
		}
		doc += delta
		want = append(want, doc)
		stream = binary.AppendUvarint(stream, uint64(delta))
		n := 1 + r.IntN(6)
		stream = binary.AppendUvarint(stream, uint64(n))
		for range n {
			stream = binary.AppendUvarint(stream, uint64(r.IntN(1<<uint(r.IntN(31)))))
		}
	}
	for size := 1; size <= 17; size++ {
		for _, docsOnly := range []bool{false, true} {
			rest := stream
			cr := chunkReader{more: func() ([]byte, error) {
				if len(rest) == 0 {
					t.Fatal("read past the stream")
				}
				c := rest[:min(size, len(rest))]
				rest = rest[len(c):]
				return c, nil
			}}
			var d postingDecoder
			d.start(uint64(len(want)))
			var got []uint32
			for {
				var id uint32
				var ok bool
				var err error
				if docsOnly {
					id, ok, err = d.nextDoc(&cr)
				} else {
					id, _, ok, err = d.next(&cr)
				}
				if err != nil {
					t.Fatalf("chunks of %d, docs only %v: %v", size, docsOnly, err)
				}
				if !ok {
					break
				}
				got = append(got, id)
			}
			if !slices.Equal(got, want) || len(rest) != 0 || len(cr.buf) != 0 {
				t.Fatalf("chunks of %d, docs only %v: %d docs (want %d), %d bytes left", size, docsOnly, len(got), len(want), len(rest)+len(cr.buf))
			}
		}
	}
}
