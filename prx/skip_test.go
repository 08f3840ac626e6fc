package prx

import (
	"math/rand/v2"
	"testing"
)

// skipRecordsBytewise is the reference: it skips n records at src[p:] one byte at
// a time and returns where record i ends (ends[i], exclusive) and its position
// count; ok is false when a record runs past the end of src (ends then holds the
// records that fit).
func skipRecordsBytewise(src []byte, p, n int) (ends, pcs []int, multi []bool, ok bool) {
	for r := 0; r < n; r++ {
		if p >= len(src) {
			return ends, pcs, multi, false
		}
		v, q, good := readUvarint32(src, p)
		if !good {
			return ends, pcs, multi, false
		}
		m := q-p > 1
		p = q
		for left := int(v); left > 0; p++ {
			if p >= len(src) {
				return ends, pcs, multi, false
			}
			left -= int(^src[p] >> 7)
		}
		ends, pcs, multi = append(ends, p), append(pcs, int(v)), append(multi, m)
	}
	return ends, pcs, multi, true
}

// genRecords writes n records with counts up to maxPC (a few multi-byte) whose
// uvarints take 1 to 5 bytes.
func genRecords(rng *rand.Rand, n, maxPC int) []byte {
	var b []byte
	for i := 0; i < n; i++ {
		pc := rng.IntN(maxPC + 1)
		if rng.IntN(50) == 0 {
			pc = 128 + rng.IntN(100) // a two-byte count
		}
		b = appendUvarint(b, uint32(pc))
		for j := 0; j < pc; j++ {
			var v uint32
			switch rng.IntN(8) {
			case 0:
				v = rng.Uint32()
			case 1, 2:
				v = rng.Uint32N(1 << 14)
			default:
				v = rng.Uint32N(128)
			}
			b = appendUvarint(b, v)
		}
	}
	return b
}

// TestSkipRecordsMatchesBytewise checks the word-at-a-time skip against the
// byte-wise walk from every offset of generated payloads (valid records and
// random bytes), for counts of records 0..n: same end, same positions, and it
// only gives up where it must (a multi-byte count, or a record ending past the
// last whole word of src).
func TestSkipRecordsMatchesBytewise(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var bufs [][]byte
	for _, maxPC := range []int{0, 1, 3, 7, 8, 9, 20, 70} {
		for _, n := range []int{1, 2, 5, 40} {
			bufs = append(bufs, genRecords(rng, n, maxPC))
		}
	}
	for i := 0; i < 40; i++ { // random bytes: terminators anywhere
		b := make([]byte, rng.IntN(80))
		for j := range b {
			b[j] = byte(rng.UintN(256))
		}
		bufs = append(bufs, b)
	}
	checks := 0
	for bi, src := range bufs {
		for p := 0; p <= len(src); p++ {
			for _, n := range []int{0, 1, 2, 3, 7, 1000} {
				next, docs, positions := skipRecords(src, p, n)
				ends, pcs, multi, _ := skipRecordsBytewise(src, p, n)
				if docs > n || docs > len(ends) {
					t.Fatalf("buf %d p %d n %d: skipped %d records, the byte-wise walk %d", bi, p, n, docs, len(ends))
				}
				wantNext, wantPos := p, 0
				for r := 0; r < docs; r++ {
					wantNext, wantPos = ends[r], wantPos+pcs[r]
				}
				if next != wantNext || positions != wantPos {
					t.Fatalf("buf %d p %d n %d: %d records to %d (%d positions), byte-wise to %d (%d)", bi, p, n, docs, next, positions, wantNext, wantPos)
				}
				if docs < n && docs < len(ends) {
					// It stopped before a record the byte-wise walk completes:
					// only allowed for a multi-byte count or an end past the last whole word.
					reach := next + (len(src)-next)/8*8
					if !multi[docs] && ends[docs] <= reach {
						t.Fatalf("buf %d p %d n %d: stopped at record %d (ends at %d, reach %d)", bi, p, n, docs, ends[docs], reach)
					}
				}
				checks++
			}
		}
	}
	t.Logf("%d checks", checks)
}

func BenchmarkSkipRecords(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	src := genRecords(rng, 1024, 8)
	b.SetBytes(int64(len(src)))
	b.Run("word", func(b *testing.B) {
		for range b.N {
			p, n := 0, 0
			for n < 1024 {
				q, d, _ := skipRecords(src, p, 1024-n)
				if d == 0 {
					v, r, _ := readUvarint32(src, p)
					for left := int(v); left > 0; r++ {
						left -= int(^src[r] >> 7)
					}
					q, d = r, 1
				}
				p, n = q, n+d
			}
		}
	})
	b.Run("bytewise", func(b *testing.B) {
		for range b.N {
			p := 0
			for n := 0; n < 1024; n++ {
				pc := 0
				if src[p] < 0x80 {
					pc = int(src[p])
					p++
				} else {
					v, q, _ := readUvarint32(src, p)
					pc, p = int(v), q
				}
				for pc > 0 {
					pc -= int(^src[p] >> 7)
					p++
				}
			}
		}
	})
}
