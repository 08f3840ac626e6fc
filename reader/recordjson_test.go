package reader

import (
	"encoding/json"
	"testing"
)

var jsonSeeds = []string{
	`{"msg": "a\nb \"c\" \u00e9t\u00C9 \ud835\udc9cx \ud800 \\ \/", "n": -1.5e3, "t": [true, false, null, {"a": "b"}]}`,
	`{"a.b": "x", "a": {"b": "y"}, "a": "z"}`, "{\"k\": \"\xff\xfe caf\xc3\xa9\"}", `{}`, ` {"x": [] } `, `{"x": 01}`,
	`{"x": "\ud83d\ude00\ud83d"}`, `{"x": "\u12"}`, `[1]`, `"s"`, `{"x": "tab	"}`,
}

// FuzzRecordJSON: parseJSONObject accepts exactly the JSON objects
// encoding/json accepts; each string decodes as encoding/json decodes it; and
// each decoded byte maps to the raw escape or character it comes from: the
// units tile the raw bytes in order, and each unit decodes alone to its bytes.
func FuzzRecordJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, rec []byte) {
		v, ok := parseJSONObject(rec)
		var obj map[string]any
		want := json.Unmarshal(rec, &obj) == nil && obj != nil
		if ok != want {
			t.Fatalf("%q: parsed %v, encoding/json %v", rec, ok, want)
		}
		if !ok {
			return
		}
		var walk func(v *jsonValue)
		walk = func(v *jsonValue) {
			for k := range v.elems {
				walk(&v.elems[k])
			}
			if v.kind != 's' {
				return
			}
			raw := rec[v.raw[0]:v.raw[1]]
			var ref string
			if err := json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &ref); err != nil {
				t.Fatalf("%q: string %q: %v", rec, raw, err)
			}
			dec, units := decodeJSONString(raw, true)
			if dec != ref || len(units) != 2*len(dec) {
				t.Fatalf("%q: %q decodes to %q (%d units), encoding/json %q", rec, raw, dec, len(units)/2, ref)
			}
			if plain, _ := decodeJSONString(raw, false); plain != dec {
				t.Fatalf("%q: without units %q, with %q", rec, plain, dec)
			}
			if !v.hasEscap && dec != string(raw) {
				t.Fatalf("%q: %q marked plain but decodes to %q", rec, raw, dec)
			}
			at := 0
			for k := 0; k < len(dec); {
				a, b := int(units[2*k]), int(units[2*k+1])
				if a != at || b <= a || b > len(raw) {
					t.Fatalf("%q: byte %d of %q maps to [%d,%d), want from %d", rec, k, dec, a, b, at)
				}
				n := k
				for n < len(dec) && int(units[2*n]) == a {
					if int(units[2*n+1]) != b {
						t.Fatalf("%q: bytes of one unit map to different ends", rec)
					}
					n++
				}
				if alone, _ := decodeJSONString(raw[a:b], false); alone != dec[k:n] {
					t.Fatalf("%q: unit %q decodes to %q, in context %q", rec, raw[a:b], alone, dec[k:n])
				}
				at, k = b, n
			}
			if at != len(raw) {
				t.Fatalf("%q: units end at %d of %d", rec, at, len(raw))
			}
		}
		walk(&v)
	})
}
