package prx

import (
	"bytes"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/zstdopt"
	"github.com/snii-go/snii/limits"
)

var update = flag.Bool("update", false, "rewrite testdata/prx/*.golden from the encoder's output")

const goldenDir = "../../../testdata/prx"

// readGolden reads a hex golden file: '#' lines are comments, whitespace is ignored.
func readGolden(t testing.TB, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(goldenDir, name))
	if err != nil {
		t.Fatalf("%v (run go test ./internal/codec/prx -run Golden -update to create it)", err)
	}
	var hx strings.Builder
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		hx.WriteString(strings.Join(strings.Fields(line), ""))
	}
	b, err := hex.DecodeString(hx.String())
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return b
}

func writeGolden(t *testing.T, name, comment string, b []byte) {
	t.Helper()
	var sb strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(comment), "\n") {
		sb.WriteString("# " + l + "\n")
	}
	for i := 0; i < len(b); i += 32 {
		sb.WriteString(hex.EncodeToString(b[i:min(i+32, len(b))]) + "\n")
	}
	if err := os.MkdirAll(goldenDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(goldenDir, name), []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

type goldenCase struct {
	file, comment string
	window        *Window
	codecs        []Codec // the codec Encode (policy 0) chooses for each unit
	inline        bool    // the golden is the inline form
	hand          []byte  // hand-assembled frame; nil for zstd
	table         uint32  // the shared literal table a zstd frame names (0: none)
}

func goldenCases() []goldenCase {
	// RAW: docs {100, 127} {40}: tf-1 column 01 00; values 100, 27, zigzag(40-100) = 119.
	raw := withCRC([]byte{0x00, 0x02, 0x01, 0x00, 0x03, 0x64, 0x1b, 0x77})

	// PFOR: one doc of 16 positions; values 10, then deltas 1 2 1 2 1000 1 2 1 2 1 2 1 2 1 2.
	// tf column: one block [15]: width 4 → 04 0f. Positions: width 2 with two
	// exceptions (1000 at index 5: 1000>>2 = 250 = fa 01; 10 at index 0: 10>>2 = 2).
	pforPos := []uint32{10, 11, 13, 14, 16, 1016, 1017, 1019, 1020, 1022, 1023, 1025, 1026, 1028, 1029, 1031}
	pfor := withCRC([]byte{0x02, 0x01, 0x04, 0x0f, 0x0a,
		0x82,                   // token: width 2, 2 exceptions
		0x66, 0x92, 0x99, 0x99, // 16 fields of 2 bits, LSB first: 2 1 2 1 | 2 0 1 2 | 1 2 1 2 | 1 2 1 2
		0x00, 0x02, // exception: index 0, 10>>2
		0x05, 0xfa, 0x01, // exception: index 5, 1000>>2
	})

	// PFOR with a long token: one doc of 16 positions, values 3, then deltas
	// 1 2 1 2 1000 1 2 1000 1 2 1000 1 2 1000 1. tf column: 04 0f. Positions:
	// width 3 with four exceptions (1000 at indexes 5, 8, 11 and 14: 1000>>3 =
	// 125 = 7d), more than a short token counts: token 33+3 = 0x24, count 4.
	pforLongPos := []uint32{3, 4, 6, 7, 9, 1009, 1010, 1012, 2012, 2013, 2015, 3015, 3016, 3018, 4018, 4019}
	pforLong := withCRC([]byte{0x02, 0x01, 0x04, 0x0f, 0x10,
		0x24, 0x04, // long token: width 3, 4 exceptions
		0x8b, 0x22, 0x44, 0x88, 0x10, 0x21, // 16 fields of 3 bits, LSB first: 3 1 2 1 2 0 1 2 0 1 2 0 1 2 0 1
		0x05, 0x7d, 0x08, 0x7d, 0x0b, 0x7d, 0x0e, 0x7d, // exceptions: (index, 1000>>3)
	})

	// ZSTD: 128 docs {1,2,3,4}: 512 values, RAW payload 518 bytes; very compressible.
	var zw Window
	for i := 0; i < 128; i++ {
		zw.AppendDoc([]uint32{1, 2, 3, 4})
	}

	// ZSTD with a shared literal table (sharedWindow).
	sw := sharedWindow()

	// Multi-unit: doc 0 has 1024 positions 7, doc 1 the position 9: unit 0 (doc 0,
	// eligible, PFOR) and unit 1 (doc 1, a singleton: RAW).
	big := make([]uint32, 1024)
	for i := range big {
		big[i] = 7
	}
	u0 := []byte{0x02, 0x01, 0x0a, 0xff, 0x03, 0x0a, 0x40, 0x00, 0x07, 0, 0, 0, 0, 0, 0, 0}
	u0 = withCRC(u0)
	u1 := withCRC([]byte{0x00, 0x01, 0x00, 0x01, 0x09})
	mh := withCRC([]byte{0x03, 0x02, 0x01, byte(len(u0)), 0x01, byte(len(u1))})
	multi := append(append(mh, u0...), u1...)

	// Inline: docs {5} {6} {4} {8}: tf column 00 (width 0); values 5, then the
	// zigzag deltas to the block's first doc: zigzag(1) = 2, zigzag(-1) = 1,
	// zigzag(3) = 6, at width 3: 55 0c. No CRC.
	inline := []byte{0x02, 0x04, 0x00, 0x03, 0x03, 0x55, 0x0c}

	return []goldenCase{
		{"raw.golden", "prx v3 RAW unit frame: docs {100, 127} {40}\nhand-assembled in golden_test.go; annotated in docs/FORMAT.md",
			newWindow([]uint32{100, 127}, []uint32{40}), []Codec{CodecRaw}, false, raw, 0},
		{"pfor.golden", "prx v3 PFOR unit frame: one doc {10 11 13 14 16 1016 1017 1019 1020 1022 1023 1025 1026 1028 1029 1031}\n" +
			"(two exceptions); hand-assembled in golden_test.go; annotated in docs/FORMAT.md",
			newWindow(pforPos), []Codec{CodecPFOR}, false, pfor, 0},
		{"pfor-long.golden", "prx v3 PFOR unit frame with a long token: one doc {3 4 6 7 9 1009 1010 1012 2012 2013 2015 3015 3016 3018 4018 4019}\n" +
			"(four exceptions); hand-assembled in golden_test.go; annotated in docs/FORMAT.md",
			newWindow(pforLongPos), []Codec{CodecPFOR}, false, pforLong, 0},
		{"zstd.golden", "prx v3 ZSTD unit frame: 128 docs {1,2,3,4} (RAW payload 518 bytes), policy 0\n" +
			"payload from github.com/klauspost/compress v1.20.4 (SpeedDefault, single segment, no zstd checksum);\n" +
			"another klauspost version may compress differently: regenerate with -update and review",
			&zw, []Codec{CodecZstd}, false, nil, 0},
		{"zstd-shared.golden", "prx v3 ZSTD unit frame with shared literal table 16: 512 docs of one position\n" +
			"(8 8 8 8 8 7 8 8 7 7 7 7 8, then 13, or 14 where i mod 97 < 3), policy 0; payload from\n" +
			"github.com/klauspost/compress v1.20.4 then zstdopt.Sharer: regenerate with -update and review",
			sw, []Codec{CodecZstd}, false, nil, 16},
		{"zstd-4x.golden", "prx v3 ZSTD unit frame whose 267 literals take four streams and shared table 24:\n" +
			"85 docs of six positions (fourStreamsWindow), policy 0; payload from\n" +
			"github.com/klauspost/compress v1.20.4 then zstdopt.Sharer: regenerate with -update and review",
			fourStreamsWindow(), []Codec{CodecZstd}, false, nil, 24},
		{"multi.golden", "prx v3 multi-unit window: doc {7 x 1024}, doc {9}: a PFOR unit and a RAW singleton\nhand-assembled in golden_test.go; annotated in docs/FORMAT.md",
			newWindow(big, []uint32{9}), []Codec{CodecPFOR, CodecRaw}, false, multi, 0},
		{"inline.golden", "prx v3 PFOR unit frame, inline form (no CRC): docs {5} {6} {4} {8}\nhand-assembled in golden_test.go; annotated in docs/FORMAT.md",
			newWindow([]uint32{5}, []uint32{6}, []uint32{4}, []uint32{8}), []Codec{CodecPFOR}, true, inline, 0},
	}
}

func TestGoldenFrames(t *testing.T) {
	for _, gc := range goldenCases() {
		t.Run(gc.file, func(t *testing.T) {
			e := newTestEncoder(t, budget.Policy{Kind: budget.Smallest}) // policy 0: the smallest frame
			f, err := e.Encode(gc.window)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Units) != len(gc.codecs) {
				t.Fatalf("%d units, want %d", len(f.Units), len(gc.codecs))
			}
			for i, u := range f.Units {
				if u.Codec != gc.codecs[i] {
					t.Fatalf("unit %d: the encoder chose %s (sizes %+v), want %s", i, u.Codec, u.Sizes, gc.codecs[i])
				}
			}
			out := f.Bytes
			if gc.inline {
				out = f.Inline()
			}
			if gc.hand != nil {
				if d := cmp.Diff(gc.hand, out); d != "" {
					t.Fatalf("encoder output differs from the hand-assembled frame (-hand +encoder):\n%s", d)
				}
			}
			if *update {
				writeGolden(t, gc.file, gc.comment, out)
			}
			golden := readGolden(t, gc.file)
			if !bytes.Equal(golden, out) {
				t.Fatalf("encoder output differs from %s:\n got %x\nwant %x", gc.file, out, golden)
			}
			src := NewSource(limits.Limits{})
			defer src.Close()
			var got Window
			if n, err := src.Decode(golden, !gc.inline, &got); err != nil || n != len(golden) {
				t.Fatalf("decode: %d, %v", n, err)
			}
			if d := diffWindow(gc.window, &got); d != "" {
				t.Fatalf("golden decodes differently (-want +got):\n%s", d)
			}
			if gc.codecs[0] == CodecZstd {
				// The envelope around the pinned zstd payload, and a stock decoder
				// inflating it to the RAW payload.
				h := parseHead(t, golden)
				payload := golden[h.payloadAt : h.payloadAt+h.compLen]
				vals, tfs := refStream(gc.window, 0, gc.window.Docs())
				raw := refRawPayload(vals)
				env := uv([]byte{byte(CodecZstd)}, uint64(gc.window.Docs()))
				env = refPackedColumn(env, tfs)
				env = uv(env, uint64(len(raw)), uint64(len(payload)))
				if d := cmp.Diff(withCRC(append(env, payload...)), golden); d != "" {
					t.Fatalf("zstd envelope (-hand +golden):\n%s", d)
				}
				// A stock decoder given the shared tables as dictionaries.
				dec, _ := zstd.NewReader(nil, zstd.WithDecoderDicts(zstdopt.Tables[:]...))
				defer dec.Close()
				plain, err := dec.DecodeAll(payload, nil)
				if err != nil || !bytes.Equal(plain, raw) {
					t.Fatalf("stock zstd decode of the payload: %v", err)
				}
				var zh zstd.Header
				if err := zh.Decode(payload); err != nil {
					t.Fatal(err)
				}
				if zh.DictionaryID != gc.table {
					t.Fatalf("the frame names dictionary %d, want %d", zh.DictionaryID, gc.table)
				}
			}
		})
	}
}
