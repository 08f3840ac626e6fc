package testkit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// AgentLogs is the agent-log corpus (JSONL, text in "content"), relative to
// the corpora directory.
const AgentLogs = "agent-trajectories/mini-swe-agent-gemini-3-pro.part1.jsonl"

// ServiceLogs are the service-log corpora (plain log lines), relative to the
// corpora directory; list their files with CorpusFiles.
var ServiceLogs = []string{"loghub/full", "elastic-examples"}

// FindCorpora returns the shared corpora directory, ../shared/corpora from
// the module root (the first directory holding go.mod, walking up from the
// working directory), or an error when the root or the corpora are absent.
func FindCorpora() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("module root (go.mod) not found above the working directory")
		}
		dir = parent
	}
	c := filepath.Join(dir, "..", "shared", "corpora")
	if _, err := os.Stat(c); err != nil {
		return "", fmt.Errorf("shared corpora not present at ../shared/corpora from the module root: %w", err)
	}
	return c, nil
}

// CorporaDir returns the shared corpora directory (see FindCorpora) or skips
// tb, saying why.
func CorporaDir(tb testing.TB) string {
	tb.Helper()
	c, err := FindCorpora()
	if err != nil {
		tb.Skipf("%v: skipping", err)
	}
	return c
}

// CorpusPath returns the file or directory rel of the shared corpora, or
// skips tb when it is absent.
func CorpusPath(tb testing.TB, rel string) string {
	tb.Helper()
	p := filepath.Join(CorporaDir(tb), rel)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("corpus %s not present (%v): skipping", rel, err)
	}
	return p
}

// CorpusFiles lists the regular files under the given corpus paths (files or
// directories, see CorpusPath), leaving out licences and READMEs, sorted.
func CorpusFiles(tb testing.TB, rels ...string) []string {
	tb.Helper()
	roots := make([]string, len(rels))
	for i, rel := range rels {
		roots[i] = CorpusPath(tb, rel)
	}
	files, err := listFiles(roots)
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// listFiles lists the regular files under roots (files or directories)
// whose names do not start with LICENSE or README, sorted.
func listFiles(roots []string) ([]string, error) {
	var files []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			base := filepath.Base(p)
			if strings.HasPrefix(base, "LICENSE") || strings.HasPrefix(base, "README") {
				return nil
			}
			files = append(files, p)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(files)
	return files, nil
}

// Loghub2kFiles returns the loghub 2k samples (loghub/2k/*.log), sorted, or
// skips tb when there are none.
func Loghub2kFiles(tb testing.TB) []string {
	tb.Helper()
	dir := CorpusPath(tb, "loghub/2k")
	files, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil || len(files) == 0 {
		tb.Skipf("no loghub/2k logs (*.log) in %s: skipping", dir)
	}
	slices.Sort(files)
	return files
}
