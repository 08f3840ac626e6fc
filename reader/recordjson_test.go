package reader

import (
	"encoding/json"
	"testing"

	"github.com/snii-go/snii/internal/jsonstr"
)

var jsonSeeds = []string{
	`{"msg": "a\nb \"c\" \u00e9t\u00C9 \ud835\udc9cx \ud800 \\ \/", "n": -1.5e3, "t": [true, false, null, {"a": "b"}]}`,
	`{"a.b": "x", "a": {"b": "y"}, "a": "z"}`, "{\"k\": \"\xff\xfe caf\xc3\xa9\"}", `{}`, ` {"x": [] } `, `{"x": 01}`,
	`{"x": "\ud83d\ude00\ud83d"}`, `{"x": "\u12"}`, `[1]`, `"s"`, `{"x": "tab	"}`,
}

// FuzzRecordJSON: parseJSONObject accepts exactly the JSON objects
// encoding/json accepts; each string decodes as encoding/json decodes it; its
// units (escapes, characters) tile its raw bytes, each decoding alone to its
// part; and a unitCursor maps decoded ranges to the raw units they come from.
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
			dec := decodeJSONString(raw)
			if dec != ref {
				t.Fatalf("%q: %q decodes to %q, encoding/json %q", rec, raw, dec, ref)
			}
			if !v.hasEscap && dec != string(raw) {
				t.Fatalf("%q: %q marked plain but decodes to %q", rec, raw, dec)
			}
			// The units tile raw and each decodes alone to its part of dec.
			type unit struct{ rs, re, ds, de int }
			var units []unit
			var out []byte
			for i := 0; i < len(raw); {
				n := len(out)
				var next int
				out, next = jsonstr.AppendUnit(raw, i, out)
				if next <= i || next > len(raw) || len(out) == n {
					t.Fatalf("%q: unit at %d of %q ends at %d, %d bytes", rec, i, raw, next, len(out)-n)
				}
				if alone := decodeJSONString(raw[i:next]); alone != string(out[n:]) {
					t.Fatalf("%q: unit %q decodes to %q, in context %q", rec, raw[i:next], alone, out[n:])
				}
				units = append(units, unit{i, next, n, len(out)})
				i = next
			}
			if string(out) != dec {
				t.Fatalf("%q: units decode to %q, the string to %q", rec, out, dec)
			}
			// A cursor maps each decoded byte, in order, to its unit; and
			// ranges of two units to both.
			c := unitCursor{raw: raw}
			for _, u := range units {
				for k := u.ds; k < u.de; k++ {
					if rs, re := c.rawRange(k, k+1); rs != u.rs || re != u.re {
						t.Fatalf("%q: decoded byte %d of %q maps to [%d,%d), its unit is [%d,%d)", rec, k, dec, rs, re, u.rs, u.re)
					}
				}
			}
			c = unitCursor{raw: raw}
			for j := 0; j+1 < len(units); j += 2 {
				if rs, re := c.rawRange(units[j].ds, units[j+1].de); rs != units[j].rs || re != units[j+1].re {
					t.Fatalf("%q: units %d and %d map to [%d,%d)", rec, j, j+1, rs, re)
				}
			}
		}
		walk(&v)
	})
}
