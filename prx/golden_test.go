package prx

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/budget"
)

var update = flag.Bool("update", false, "rewrite testdata/prx/*.golden from the encoder's output")

const goldenDir = "../testdata/prx"

// readGolden reads a hex golden file: '#' lines are comments, whitespace is ignored.
func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(goldenDir, name))
	if err != nil {
		t.Fatalf("%v (run go test ./prx -run Golden -update to create it)", err)
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

// words appends little-endian u32 words.
func words(dst []byte, ws ...uint32) []byte {
	for _, w := range ws {
		dst = binary.LittleEndian.AppendUint32(dst, w)
	}
	return dst
}

type goldenCase struct {
	file, comment string
	window        *Window
	codec         Codec
	hand          []byte // hand-assembled frame; nil for zstd
}

func goldenCases() []goldenCase {
	// RAW: docs {1,5,5} {} {2^32-1}; the running positions overflow, so no PFOR.
	rawPlain := []byte{0x03, 0x03, 0x01, 0x04, 0x00, 0x00, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f}
	raw := assemble(CodecRaw, rawPlain, uint32(len(rawPlain)))

	// PFOR: 130 docs, each with the single position 0.
	var pw Window
	for i := 0; i < 130; i++ {
		pw.AppendDoc([]uint32{0})
	}
	pp := []byte{0x82, 0x01, 0x82, 0x01} // doc_count 130, total_positions 130
	// offsets column 1..130: bit-packed group of 128 (first value 1, 4 groups of width 1:
	// deltas 0,1,1,... then all 1), then a variable-byte block of 2 values: 129 (81 01), 1 (01), pad 80.
	pp = words(pp, 128, 8, 1, 0x01010101, 0xfffffffe, 0xffffffff, 0xffffffff, 0xffffffff)
	pp = words(pp, 2, 3, 0x81010180)
	// running column: 130 zeros: bit-packed group of 128 (width 0), then 2 values 00 00, pad 80 80.
	pp = words(pp, 128, 4, 0, 0x00000000)
	pp = words(pp, 2, 3, 0x00008080)
	pfor := assemble(CodecPFOR, pp, uint32(len(pp)))

	// ZSTD: 200 docs {1,2,3,4}: plain 1002 bytes, very compressible.
	var zw Window
	for i := 0; i < 200; i++ {
		zw.AppendDoc([]uint32{1, 2, 3, 4})
	}
	return []goldenCase{
		{"raw.golden", "prx RAW frame: docs {1,5,5} {} {4294967295}\nhand-assembled in golden_test.go; format in docs/FORMAT.md", newWindow([]uint32{1, 5, 5}, []uint32{}, []uint32{maxUint32}), CodecRaw, raw},
		{"pfor.golden", "prx PFOR frame: 130 docs, each with the single position 0\nhand-assembled in golden_test.go; format in docs/FORMAT.md", &pw, CodecPFOR, pfor},
		{"zstd.golden", "prx ZSTD frame: 200 docs {1,2,3,4} (plain payload 1002 bytes), policy 0\n" +
			"payload from github.com/klauspost/compress v1.20.4 (SpeedDefault, single segment, no zstd checksum);\n" +
			"another klauspost version may compress differently: regenerate with -update and review", &zw, CodecZstd, nil},
	}
}

func TestGoldenFrames(t *testing.T) {
	for _, gc := range goldenCases() {
		t.Run(gc.file, func(t *testing.T) {
			e := newTestEncoder(t, budget.Policy{}) // policy 0: the smallest frame
			f, err := e.Encode(gc.window)
			if err != nil {
				t.Fatal(err)
			}
			if f.Codec != gc.codec {
				t.Fatalf("encoder chose %s (sizes %+v), want %s", f.Codec, f.Sizes, gc.codec)
			}
			if gc.hand != nil {
				if d := cmp.Diff(gc.hand, f.Bytes); d != "" {
					t.Fatalf("encoder output differs from the hand-assembled frame (-hand +encoder):\n%s", d)
				}
			}
			if *update {
				writeGolden(t, gc.file, gc.comment, f.Bytes)
			}
			golden := readGolden(t, gc.file)
			if !bytes.Equal(golden, f.Bytes) {
				t.Fatalf("encoder output differs from %s:\n got %x\nwant %x", gc.file, f.Bytes, golden)
			}
			src := NewSource(Limits{})
			defer src.Close()
			var got Window
			if _, err := src.Decode(golden, true, &got); err != nil {
				t.Fatal(err)
			}
			if d := diffWindow(gc.window, &got); d != "" {
				t.Fatalf("golden decodes differently (-want +got):\n%s", d)
			}
			if gc.codec == CodecZstd {
				// Hand-assemble the envelope around the pinned zstd payload.
				h, err := ParseFrameHeader(golden, true, Limits{})
				if err != nil {
					t.Fatal(err)
				}
				payload := golden[h.HeaderLen : h.HeaderLen+h.PayloadLen]
				if d := cmp.Diff(assemble(CodecZstd, payload, 1002, uint32(len(payload))), golden); d != "" {
					t.Fatalf("zstd envelope (-hand +golden):\n%s", d)
				}
				dec, _ := zstd.NewReader(nil)
				defer dec.Close()
				plain, err := dec.DecodeAll(payload, nil)
				if err != nil || !bytes.Equal(plain, AppendPlain(nil, gc.window)) {
					t.Fatalf("stock zstd decode of the payload: %v", err)
				}
			}
		})
	}
}
