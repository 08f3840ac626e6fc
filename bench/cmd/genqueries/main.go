// Command genqueries writes the benchmark query sets bench/queries/<corpus>.txt.
// The output is deterministic for a given corpus (fixed seed, sorted inputs):
//
//	go run ./cmd/genqueries -corpus agent
//	go run ./cmd/genqueries -corpus service
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/snii-go/snii/bench/peers"
)

// agentVocabulary is agent-log vocabulary: what shell commands, Python
// tracebacks, test runners and the model's THOUGHT text print.
var agentVocabulary = []string{
	"traceback most recent call last",
	"no such file or directory",
	"modulenotfounderror no module named",
	"returncode 0 returncode",
	"thought let me",
	"i need to",
	"the issue is",
	"import pytest",
	"assertionerror",
	"def test",
	"git diff",
	"python reproduce py",
	"self assertequal",
	"raise valueerror",
	"return self",
	"from django db import models",
	"complete task and submit final output",
	"site packages",
}

func main() {
	corpus := flag.String("corpus", peers.CorpusAgent, "agent or service")
	corpora := flag.String("corpora", "", "shared corpora folder (default: found by walking up)")
	out := flag.String("out", "", "output file (default queries/<corpus>.txt)")
	flag.Parse()
	if err := run(*corpus, *corpora, *out); err != nil {
		fmt.Fprintln(os.Stderr, "genqueries:", err)
		os.Exit(1)
	}
}

func run(corpus, root, out string) error {
	if root == "" {
		root = peers.FindCorpora()
	}
	if root == "" {
		return fmt.Errorf("shared/corpora not found (use -corpora)")
	}
	if out == "" {
		out = filepath.Join("queries", corpus+".txt")
	}
	c, err := peers.LoadCorpus(root, corpus)
	if err != nil {
		return err
	}
	var curated [][]string
	if corpus == peers.CorpusAgent {
		for _, p := range agentVocabulary {
			curated = append(curated, peers.Tokenize(p))
		}
	}
	qs, err := peers.GenerateQueries(corpus, c.Docs, filepath.Join(root, "loghub", "2k-templates"), curated)
	if err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	src := "constant parts of loghub/2k-templates/*.csv"
	if corpus == peers.CorpusAgent {
		src = "agent-log vocabulary (a curated list in cmd/genqueries, then phrases sampled from the corpus with a fixed seed); zero-hit phrases from loghub/2k-templates"
	}
	header := fmt.Sprintf(`Query set for the %s corpus, written by: go run ./cmd/genqueries -corpus %s
Deterministic (fixed seed); sources: %s.
Classes were assigned from hit counts on this corpus. Format: kind<TAB>class<TAB>text
(text is analyzed with the shared analyzer; prefix kinds: the last term is the prefix, every expansion counts).`, corpus, corpus, src)
	if err := peers.WriteQueryFile(f, header, qs); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	kinds := map[peers.Kind]int{}
	for _, q := range qs {
		kinds[q.Kind]++
	}
	var parts []string
	for _, k := range []peers.Kind{peers.KindPhrase, peers.KindTerm, peers.KindPrefix, peers.KindPhrasePrefix} {
		parts = append(parts, fmt.Sprintf("%s %d", k, kinds[k]))
	}
	fmt.Fprintf(os.Stderr, "%s: %d queries (%s)\n", out, len(qs), strings.Join(parts, ", "))
	return nil
}
