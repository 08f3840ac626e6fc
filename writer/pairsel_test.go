package writer_test

import (
	"bytes"
	"cmp"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/writer"
)

// wantPair is a pair of the brute-force selection.
type wantPair struct {
	a, b       string
	docs       []uint32
	co         uint64
	exc        []uint32 // the docs of both terms without the pair
	complement bool     // the complement entry is the smaller
	gain, cost uint64
}

// selectionOracle applies docs/FORMAT.md "Selection (normative)" to the
// oracle's postings of one field, independently of the writer's counting:
// every eligible pair, and the kept ones in (a, b) order.
func selectionOracle(post map[string][]posting, minDF, allowance uint64) (elig []wantPair, kept []wantPair) {
	termDocs := make(map[string]map[uint32]bool)
	type tp struct {
		doc uint32
		pos uint32
	}
	at := make(map[tp][]string) // (doc, position) -> terms with df >= minDF
	for term, ps := range post {
		if uint64(len(ps)) < minDF {
			continue
		}
		termDocs[term] = make(map[uint32]bool)
		for _, p := range ps {
			termDocs[term][p.Doc] = true
			for _, q := range p.Pos {
				at[tp{p.Doc, q}] = append(at[tp{p.Doc, q}], term)
			}
		}
	}
	pairDocs := make(map[[2]string]map[uint32]bool)
	for k, as := range at {
		for _, b := range at[tp{k.doc, k.pos + 1}] {
			for _, a := range as {
				key := [2]string{a, b}
				if pairDocs[key] == nil {
					pairDocs[key] = make(map[uint32]bool)
				}
				pairDocs[key][k.doc] = true
			}
		}
	}
	var enc format.DocWindowEncoder
	for key, ds := range pairDocs {
		if uint64(len(ds)) < minDF {
			continue
		}
		var co uint64
		var exc []uint32
		for d := range termDocs[key[0]] {
			if termDocs[key[1]][d] {
				co++
				if !ds[d] {
					exc = append(exc, d)
				}
			}
		}
		slices.Sort(exc)
		docs := make([]uint32, 0, len(ds))
		for d := range ds {
			docs = append(docs, d)
		}
		slices.Sort(docs)
		// The entry is the smaller of the two forms (the list on a tie).
		cost := uint64(len(format.AppendPairEntry(nil, &enc, []byte(key[0]), []byte(key[1]), docs))) + format.PairEntryOverhead
		ccost := uint64(len(format.AppendPairComplement(nil, &enc, []byte(key[0]), []byte(key[1]), uint64(len(docs)), co, exc))) + format.PairEntryOverhead
		elig = append(elig, wantPair{a: key[0], b: key[1], docs: docs, co: co, exc: exc, complement: ccost < cost, gain: uint64(len(docs)) * co, cost: min(cost, ccost)})
	}
	order := slices.Clone(elig)
	slices.SortFunc(order, func(x, y wantPair) int {
		xh, xl := bits.Mul64(x.gain, y.cost)
		yh, yl := bits.Mul64(y.gain, x.cost)
		if c := cmp.Or(cmp.Compare(yh, xh), cmp.Compare(yl, xl)); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b))
	})
	var spent uint64
	for _, p := range order {
		if spent+p.cost <= allowance {
			spent += p.cost
			kept = append(kept, p)
		}
	}
	slices.SortFunc(kept, func(x, y wantPair) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) })
	return elig, kept
}

// TestPairSelectionOracle: the pairs a build keeps are exactly those of the
// normative selection rule computed by brute force from the documents (every
// adjacent pair, its df and co-occurrence, its exact cost, the greedy walk),
// for budgets tight enough that the order decides, with and without spills
// of the pair counting.
func TestPairSelectionOracle(t *testing.T) {
	docs := genDocs(7, 2500)
	for _, tc := range []struct {
		pairs  writer.Pairs
		memory int64
	}{
		{writer.Pairs{Percent: 2, MinDF: 3}, 0},
		{writer.Pairs{Percent: 5, MinDF: 8}, 0},
		{writer.Pairs{Percent: 2, MinDF: 3}, 256 << 10}, // the counting spills
		{writer.Pairs{Percent: 100, MinDF: 2}, 0},
	} {
		o := genOptions()
		o.Pairs = tc.pairs
		if tc.memory > 0 {
			o.MemoryLimit = tc.memory
		}
		path, _ := build(t, t.TempDir(), "sel.snii", o, docs)
		checkPairSelection(t, fmt.Sprintf("%+v", tc.pairs), path, o, docs, "text", "title")
	}
}

// checkPairSelection checks the pairs of the segment at path, built from
// docs with o, against selectionOracle for each of fields (the first must
// keep some pair).
func checkPairSelection(t *testing.T, tag, path string, o writer.Options, docs []writer.Document, fields ...string) {
	t.Helper()
	want, _ := oracle(t, o, docs)
	seg := dumpFile(t, path)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	forms := [2]int{} // kept entries in the list and the complement form
	defer func() {
		if forms[0] == 0 || forms[1] == 0 {
			t.Errorf("%s: kept %d list and %d complement entries: both forms must be tested", tag, forms[0], forms[1])
		}
	}()
	for i, field := range fields {
		m := seg.index(t, field).Meta
		elig, kept := selectionOracle(want[field], m.PairsMinDFUsed, m.PairsAllowance)
		for _, k := range kept {
			if k.complement {
				forms[1]++
			} else {
				forms[0]++
			}
		}
		if m.PairsEligible != uint64(len(elig)) {
			t.Errorf("%s %s: %d eligible, oracle %d", tag, field, m.PairsEligible, len(elig))
		}
		if o.Pairs.Percent < 100 && len(kept) == len(elig) {
			t.Errorf("%s %s: the budget keeps every eligible pair (%d): the order is not tested", tag, field, len(elig))
		}
		var got []string
		if m.PairCount > 0 {
			pt, err := format.OpenPairTable(raw[m.PairsOff:m.PairsOff+m.PairsLen], m.PairCount, m.DocCount)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < pt.Len(); i++ {
				e, err := pt.Entry(i)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, string(e.A)+" "+string(e.B))
				if i >= len(kept) || !bytes.Equal(e.A, []byte(kept[i].a)) || !bytes.Equal(e.B, []byte(kept[i].b)) {
					continue
				}
				k := &kept[i]
				if e.Complement() != k.complement {
					t.Errorf("%s %s: pair %q %q: complement form %v, oracle %v", tag, field, e.A, e.B, e.Complement(), k.complement)
					continue
				}
				if e.Complement() {
					exc, err := e.Exceptions(nil)
					if err != nil {
						t.Fatal(err)
					}
					if e.CO != k.co || e.DF != uint64(len(k.docs)) || !slices.Equal(exc, k.exc) {
						t.Errorf("%s %s: pair %q %q: df %d co %d exceptions %v, oracle %d %d %v", tag, field, e.A, e.B, e.DF, e.CO, exc, len(k.docs), k.co, k.exc)
					}
					continue
				}
				ds, err := e.Docs(nil)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(ds, k.docs) {
					t.Errorf("%s %s: pair %q %q: docs differ from the oracle's", tag, field, e.A, e.B)
				}
			}
		}
		var exp []string
		for _, p := range kept {
			exp = append(exp, p.a+" "+p.b)
		}
		if !slices.Equal(got, exp) {
			t.Errorf("%s %s: kept %d pairs, oracle %d (of %d eligible)\n got %q\nwant %q", tag, field, len(got), len(exp), len(elig), got, exp)
		}
		if len(exp) == 0 && i == 0 {
			t.Errorf("%s %s: the oracle keeps no pair: the test proves nothing", tag, field)
		}
	}
}

// TestPairMinDFTokens: under the default rule the minimum pair df grows with
// the field's tokens (ceil(sumTTF / per), per = 65536, here lowered through
// the faults so that a small corpus reaches it), on every counting path; the
// pairs kept are the selection oracle's under it; and the documents given
// twice make exactly the same pairs eligible (each pair's df and the minimum
// both double, up to rounding that admits no other pair), where a fixed
// minimum admits the pairs of half its df.
func TestPairMinDFTokens(t *testing.T) {
	const per = 256
	docs := genDocs(7, 2500)
	twice := append(slices.Clip(docs), docs...)
	minDF := func(m format.IndexMeta) uint64 {
		return max(writer.DefaultPairsMinDF, (m.DocCount+writer.PairsMinDFDocs-1)/writer.PairsMinDFDocs, (m.SumTTF+per-1)/per)
	}
	var eligible []uint64
	var onceMin uint64
	for _, tc := range []struct {
		name   string
		docs   []writer.Document
		faults writer.Faults
		memory int64
	}{
		{"forward index", docs, writer.Faults{FailAfter: -1, PairTokens: per}, 0},
		{"postings", docs, writer.Faults{FailAfter: -1, PairTokens: per, PairNoFwd: true}, 0},
		{"spilled", docs, writer.Faults{FailAfter: -1, PairTokens: per}, 256 << 10},
		{"twice", twice, writer.Faults{FailAfter: -1, PairTokens: per}, 0},
	} {
		o := genOptions()
		o.Pairs = writer.Pairs{Percent: 3}
		if tc.memory > 0 {
			o.MemoryLimit = tc.memory
		}
		o = writer.WithFaults(o, &tc.faults)
		path, _ := build(t, t.TempDir(), "tok.snii", o, tc.docs)
		m := dumpFile(t, path).index(t, "text").Meta
		if want := minDF(m); m.PairsMinDFUsed != want || want <= writer.DefaultPairsMinDF {
			t.Fatalf("%s: min df %d, the rule gives %d for %d docs, %d tokens (must be the tokens' bound, over %d)", tc.name, m.PairsMinDFUsed, want, m.DocCount, m.SumTTF, writer.DefaultPairsMinDF)
		}
		checkPairSelection(t, tc.name, path, o, tc.docs, "text")
		eligible = append(eligible, m.PairsEligible)
		if len(eligible) == 1 {
			onceMin = m.PairsMinDFUsed
			checkMergeTokens(t, path, docs, per)
		}
	}
	if eligible[3] != eligible[0] {
		t.Errorf("the documents twice make %d pairs eligible, once %d", eligible[3], eligible[0])
	}
	// A fixed minimum (the one of the documents once) admits more pairs of
	// the documents twice: the property above is the rule's, not the corpus'.
	o := genOptions()
	o.Pairs = writer.Pairs{Percent: 3, MinDF: int(onceMin)}
	path, _ := build(t, t.TempDir(), "fixed.snii", o, twice)
	if m := dumpFile(t, path).index(t, "text").Meta; m.PairsEligible <= eligible[0] {
		t.Errorf("a fixed min df %d makes %d pairs of the documents twice eligible, once %d: the corpus cannot tell the rules apart", onceMin, m.PairsEligible, eligible[0])
	}
}

// checkMergeTokens: a merge of two halves of docs (BuildFromSources, which
// counts the pairs not knowing the field's tokens) gives the bytes of whole,
// built from docs under the same tokens per unit of df.
func checkMergeTokens(t *testing.T, whole string, docs []writer.Document, per uint64) {
	t.Helper()
	o := genOptions()
	o.Pairs = writer.Pairs{Percent: 3}
	opts := func() writer.Options { return writer.WithFaults(o, &writer.Faults{FailAfter: -1, PairTokens: per}) }
	dir := t.TempDir()
	cut := len(docs) / 3
	a, _ := build(t, dir, "a.snii", opts(), docs[:cut])
	b, _ := build(t, dir, "b.snii", opts(), docs[cut:])
	ins := concatInputs(t, o, dumpFile(t, a), dumpFile(t, b), cut)
	merged := filepath.Join(dir, "merged.snii")
	if _, err := writer.BuildFromSources(t.Context(), merged, opts(), uint64(len(docs)), ins, segRecords(t, whole)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(testkit.ReadFile(t, merged), testkit.ReadFile(t, whole)) {
		t.Error("merged segment differs from the segment built in one go")
	}
}
