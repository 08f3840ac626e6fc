package jsonstr

import (
	"encoding/json"
	"testing"
)

// decode decodes a JSON string's contents unit by unit.
func decode(raw []byte) string {
	var out []byte
	for i := 0; i < len(raw); {
		out, i = AppendUnit(raw, i, out)
	}
	return string(out)
}

// FuzzAppendUnit: for the contents of any string encoding/json accepts, the
// units decode to what encoding/json gives.
func FuzzAppendUnit(f *testing.F) {
	for _, s := range []string{`a\nb \"c\" \u00e9t\u00C9 \ud835\udc9cx \ud800 \\ \/`, "caf\xc3\xa9 \xff", `\ud83d\ude00\ud83d`, `\b\f\r\t`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want string
		if json.Unmarshal([]byte(`"`+s+`"`), &want) != nil {
			return
		}
		if got := decode([]byte(s)); got != want {
			t.Fatalf("%q: got %q, want %q", s, got, want)
		}
	})
}

func TestHex4(t *testing.T) {
	for in, want := range map[string]rune{"0000": 0, "00e9": 0xe9, "FFFF": 0xffff, "d83D": 0xd83d, "12g4": -1, "-123": -1} {
		if got := Hex4([]byte(in)); got != want {
			t.Errorf("Hex4(%q) = %d, want %d", in, got, want)
		}
	}
}
