package reader_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// agentSegment builds the agent-log corpus (content field, one doc per line)
// with the given policy, or skips when the corpus is absent.
func agentSegment(b *testing.B, policy int) *reader.Segment {
	path := testkit.CorpusPath(b, testkit.AgentLogs)
	o := writer.DefaultOptions("content")
	o.Policy = budget.FromPercents(policy, 8)
	seg := filepath.Join(b.TempDir(), "agent.snii")
	w, err := writer.Create(seg, o)
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
	s, err := reader.Open(seg, reader.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
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
	s := agentSegment(b, -1)
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
