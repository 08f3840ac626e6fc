package format

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/snii-go/snii/internal/errs"
)

// indexedTable opens sec twice: one table that answers by binary search and
// one whose hash index is built (nil when it builds none).
func indexedTable(t *testing.T, sec []byte, n int) (search, indexed *PairTable) {
	t.Helper()
	search, err := OpenPairTable(sec, uint64(n), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	indexed, err = OpenPairTable(sec, uint64(n), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for indexed.index.Load() == nil && indexed.searches.Load() <= pairIndexAfter {
		if _, err := indexed.Find(nil, nil); err != nil && !errors.Is(err, errs.Corrupt) {
			t.Fatal(err)
		}
	}
	return search, indexed
}

// TestPairTableSearchEqualsIndex: over random tables, the binary search and
// the hash index give every present and absent key the same answer.
func TestPairTableSearchEqualsIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	word := func() string {
		b := make([]byte, r.IntN(4))
		for i := range b {
			b[i] = byte('a' + r.IntN(3))
		}
		return string(b)
	}
	for round := range 200 {
		ps := randPairs(r, 1+r.IntN(40))
		search, indexed := indexedTable(t, pairSection(ps), len(ps))
		if indexed.index.Load() == nil {
			t.Fatalf("round %d: no index", round)
		}
		keys := make([][2]string, 0, len(ps)+60)
		for _, p := range ps {
			keys = append(keys, [2]string{p.a, p.b})
		}
		for range 60 {
			keys = append(keys, [2]string{word(), word()})
		}
		for _, k := range keys {
			want := slices.IndexFunc(ps, func(p testPair) bool { return p.a == k[0] && p.b == k[1] })
			i, err := search.search([]byte(k[0]), []byte(k[1]))
			j, err2 := indexed.Find([]byte(k[0]), []byte(k[1]))
			if i != want || j != want || err != nil || err2 != nil {
				t.Fatalf("round %d: %q: search %d (%v), index %d (%v); want %d", round, k, i, err, j, err2, want)
			}
		}
	}
}

// TestPairTableMisorderedKeys: a section whose keys do not ascend strictly
// (two entries swapped, or a key written twice; the entries' CRCs intact)
// gives every key the same answer before and after the table has served
// pairIndexAfter lookups.
func TestPairTableMisorderedKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	for round := range 100 {
		ps := randPairs(r, 2+r.IntN(30))
		switch i := r.IntN(len(ps) - 1); round % 2 {
		case 0: // two entries swapped
			j := i + 1 + r.IntN(len(ps)-1-i)
			ps[i], ps[j] = ps[j], ps[i]
		case 1: // a key written twice
			ps[i+1].a, ps[i+1].b = ps[i].a, ps[i].b
		}
		search, indexed := indexedTable(t, pairSection(ps), len(ps))
		for _, p := range ps {
			i, err := search.Find([]byte(p.a), []byte(p.b))
			j, err2 := indexed.Find([]byte(p.a), []byte(p.b))
			if i != j || err != nil || err2 != nil {
				t.Fatalf("round %d: %q %q: %d (%v) before the index, %d (%v) after", round, p.a, p.b, i, err, j, err2)
			}
		}
	}
}

// TestPairTableConcurrentAnswers: goroutines looking up present and absent
// keys at once while the table crosses pairIndexAfter get, for every key,
// the answer a lone binary search gives: on an intact table (which builds its
// index), on one with two entries swapped and on one whose first key does
// not decode (which build none). Run with -race.
func TestPairTableConcurrentAnswers(t *testing.T) {
	r := rand.New(rand.NewPCG(45, 46))
	ps := randPairs(r, 24)
	intact := pairSection(ps)
	swapped := slices.Clone(ps)
	swapped[3], swapped[17] = swapped[17], swapped[3]
	undecodable := pairSection(ps)
	undecodable[0] = 0x7f // entry 0's len(a) runs past the entry
	keys := [][2]string{{"a", "zz"}, {"", ""}, {"g", "a"}, {"aa", "a"}, {"c", ""}, {"f", "fc"}}
	for _, p := range ps {
		keys = append(keys, [2]string{p.a, p.b})
	}
	for _, c := range []struct {
		name  string
		sec   []byte
		index bool
	}{{"intact", intact, true}, {"swapped", pairSection(swapped), false}, {"undecodable", undecodable, false}} {
		ref, err := OpenPairTable(c.sec, uint64(len(ps)), 2000)
		if err != nil {
			t.Fatal(err)
		}
		type answer struct {
			i   int
			bad bool
		}
		want := make([]answer, len(keys))
		for k, key := range keys {
			i, err := ref.search([]byte(key[0]), []byte(key[1]))
			want[k] = answer{i, err != nil}
		}
		tab, err := OpenPairTable(c.sec, uint64(len(ps)), 2000)
		if err != nil {
			t.Fatal(err)
		}
		errc := make(chan error, 8)
		for g := range 8 {
			go func() {
				var err error
				defer func() { errc <- err }()
				for round := range 6 {
					for k := range keys {
						k = (k + 7*g + round) % len(keys)
						i, ferr := tab.Find([]byte(keys[k][0]), []byte(keys[k][1]))
						if got := (answer{i, ferr != nil}); got != want[k] || (ferr != nil && !errors.Is(ferr, errs.Corrupt)) {
							err = fmt.Errorf("%s: find %q = %d, %v; want %+v", c.name, keys[k], i, ferr, want[k])
							return
						}
					}
				}
			}()
		}
		for range 8 {
			if err := <-errc; err != nil {
				t.Error(err)
			}
		}
		if built := tab.index.Load() != nil; built != c.index {
			t.Errorf("%s: index built %v after %d lookups, want %v", c.name, built, 8*6*len(keys), c.index)
		}
	}
}
