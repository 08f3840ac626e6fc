package reader_test

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// agentSegment builds the agent-log corpus (content field, one doc per line)
// with the given policy, or skips when the corpus is absent.
func agentSegment(b testing.TB, policy int) *reader.Segment {
	s, err := reader.Open(agentBuild(b, policy), reader.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// agentBuild writes the agent-log segment of agentSegment and returns its path.
func agentBuild(b testing.TB, policy int) string {
	path := testkit.CorpusPath(b, testkit.AgentLogs)
	o := writer.DefaultOptions("content")
	o.Policy = budget.FromPercents(policy, 8)
	seg := filepath.Join(b.TempDir(), "agent.snii")
	w, err := writer.Create(context.Background(), seg, o)
	if err != nil {
		b.Fatal(err)
	}
	testkit.EachLine(b, []string{path}, func(line []byte) {
		s, err := testkit.AgentContent(line)
		if err != nil {
			b.Fatal(err)
		}
		d := writer.Doc("content", s)
		d.Record = line // the JSON line, as snii build stores it
		if _, err := w.Add(d); err != nil {
			b.Fatal(err)
		}
	})
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return seg
}

var agentPhrases = []string{
	"traceback most recent call last", "no such file or directory", "timed out",
	"def test", "import numpy as np", "self assertequal", "return self", "the following",
	"returncode 0", "returncode output", "from the", "let s verify the", "bash python test",
}

// BenchmarkAgentPhrase counts phrase queries on the agent logs (budget and
// policy 0 segments); skipped without the corpus.
func BenchmarkAgentPhrase(b *testing.B) {
	for _, policy := range []int{-1, 0} {
		s := agentSegment(b, policy)
		qs := make([]reader.Query, len(agentPhrases))
		for i, p := range agentPhrases {
			qs[i] = reader.Phrase("content", strings.Fields(p)...)
		}
		name := map[int]string{-1: "budget", 0: "policy0"}[policy]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := s.Count(bg, qs[i%len(qs)], nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAgentFetch counts a phrase query's hits and loads the records of
// its first 20 hits (the JSON lines), as a search page does; it reports the
// record bytes loaded per query. Skipped without the corpus.
func BenchmarkAgentFetch(b *testing.B) {
	path := agentBuild(b, -1)
	s, err := reader.Open(path, reader.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	st, _ := s.Store()
	b.Logf("store: %d records, %d blocks, %d bytes of %d raw", st.Records, st.Blocks, st.Bytes, st.RawBytes)
	var qs []reader.Query
	for _, p := range agentPhrases {
		q := reader.Phrase("content", strings.Fields(p)...)
		if n, err := s.Count(bg, q, nil); err != nil {
			b.Fatal(err)
		} else if n > 0 {
			qs = append(qs, q)
		}
	}
	logDecodeVolume(b, s, path, qs)
	for _, records := range []bool{false, true} {
		b.Run(map[bool]string{false: "count+docs", true: "count+docs+records"}[records], func(b *testing.B) {
			b.ReportAllocs()
			var recBytes int64
			for i := 0; i < b.N; i++ {
				q := qs[i%len(qs)]
				if _, err := s.Count(bg, q, nil); err != nil {
					b.Fatal(err)
				}
				ids, err := s.Docs(bg, q, &reader.SearchOptions{Limit: 20})
				if err != nil {
					b.Fatal(err)
				}
				if !records {
					continue
				}
				if err := s.Records(bg, ids, func(_ uint32, rec []byte) error { recBytes += int64(len(rec)); return nil }); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(recBytes)/float64(b.N), "recbytes/op")
		})
	}
}

// logDecodeVolume logs what the pages of BenchmarkAgentFetch decode: the plain
// bytes of the distinct store blocks holding the first 20 hits of each
// query, and the store's size, for the segment's blocks and for blocks cut
// by the writer's rule at other targets (computed from the record lengths).
func logDecodeVolume(b *testing.B, s *reader.Segment, path string, qs []reader.Query) {
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	dirOff := binary.LittleEndian.Uint64(raw[len(raw)-32:])
	dir, err := format.DecodeDirectory(raw[dirOff : len(raw)-32])
	if err != nil {
		b.Fatal(err)
	}
	m, err := format.DecodeStoreMeta(raw[dir.StoreOff:dir.StoreOff+dir.StoreLen], dir.DocCount)
	if err != nil {
		b.Fatal(err)
	}
	lens := make([]int, s.DocCount())
	all := make([]uint32, s.DocCount())
	for i := range all {
		all[i] = uint32(i)
	}
	if err := s.Records(bg, all, func(id uint32, rec []byte) error { lens[id] = len(rec); return nil }); err != nil {
		b.Fatal(err)
	}
	var pages [][]uint32
	for _, q := range qs {
		ids, err := s.Docs(bg, q, &reader.SearchOptions{Limit: 20})
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, ids)
	}
	// blocks cut at target: first doc and plain length of each
	cut := func(target int) (first []uint32, plain []int) {
		n, size := 0, 0
		for id, l := range lens {
			rl := l + len(binary.AppendUvarint(nil, uint64(l)))
			if n > 0 && size+rl > target {
				plain = append(plain, size)
				n, size = 0, 0
			}
			if n == 0 {
				first = append(first, uint32(id))
			}
			n++
			size += rl
		}
		return first, append(plain, size)
	}
	for _, target := range []int{16 << 10, 32 << 10, 64 << 10, 128 << 10} {
		first, plain := cut(target)
		var decoded, blocks int
		for _, ids := range pages {
			seen := map[int]bool{}
			for _, id := range ids {
				k := sort.Search(len(first), func(i int) bool { return first[i] > id }) - 1
				if !seen[k] {
					seen[k] = true
					decoded += plain[k]
					blocks++
				}
			}
		}
		note := ""
		if target == format.StoreBlockTarget {
			if len(first) != len(m.Blocks) {
				b.Fatalf("the writer's rule at %d gives %d blocks, the segment has %d", target, len(first), len(m.Blocks))
			}
			note = " (this segment)"
		}
		b.Logf("blocks of %3d KiB%s: %d blocks; a page of 20 hits decodes %.1f blocks, %.0f plain bytes on average (%d pages)",
			target>>10, note, len(first), float64(blocks)/float64(len(pages)), float64(decoded)/float64(len(pages)), len(pages))
	}
}
