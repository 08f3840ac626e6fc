package peers

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Corpus is a list of documents of one text field, doc id = index.
type Corpus struct {
	Name    string
	Docs    []string
	Bytes   int64    // sum of document lengths
	Sources []string // files read, relative to the corpora root
}

// Corpus names accepted by LoadCorpus.
const (
	CorpusAgent   = "agent"   // agent-trajectories/...part1.jsonl, field content, one doc per line
	CorpusService = "service" // loghub/full/*.log + elastic-examples/**, one doc per line
)

// AgentFile is the agent-log corpus, relative to the corpora root.
const AgentFile = "agent-trajectories/mini-swe-agent-gemini-3-pro.part1.jsonl"

// FindCorpora walks up from the working directory looking for shared/corpora
// (the layout is <root>/main/bench and <root>/shared/corpora). It returns ""
// when there is none.
func FindCorpora() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		c := filepath.Join(dir, "shared", "corpora")
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// LoadCorpus reads a named corpus from the corpora root.
func LoadCorpus(root, name string) (*Corpus, error) {
	c := &Corpus{Name: name}
	switch name {
	case CorpusAgent:
		if err := c.readJSONL(root, AgentFile, "content"); err != nil {
			return nil, err
		}
	case CorpusService:
		logs, err := filepath.Glob(filepath.Join(root, "loghub", "full", "*.log"))
		if err != nil {
			return nil, err
		}
		sort.Strings(logs)
		var ex []string
		err = filepath.WalkDir(filepath.Join(root, "elastic-examples"), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			// The license text is not a log.
			if d.Type().IsRegular() && !strings.HasPrefix(d.Name(), "LICENSE") {
				ex = append(ex, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(ex)
		if len(logs) == 0 || len(ex) == 0 {
			return nil, fmt.Errorf("service corpus: no files under %s", root)
		}
		for _, p := range append(logs, ex...) {
			rel, _ := filepath.Rel(root, p)
			if err := c.readLines(p, rel); err != nil {
				return nil, err
			}
		}
	default:
		return nil, fmt.Errorf("unknown corpus %q (want %s or %s)", name, CorpusAgent, CorpusService)
	}
	for _, d := range c.Docs {
		c.Bytes += int64(len(d))
	}
	return c, nil
}

// readLines adds one document per line of a file (the last line counts even
// without a final newline; the line keeps any '\r').
func (c *Corpus) readLines(path, rel string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	c.Sources = append(c.Sources, rel)
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			c.Docs = append(c.Docs, string(b))
			break
		}
		c.Docs = append(c.Docs, string(b[:i]))
		b = b[i+1:]
	}
	return nil
}

// readJSONL adds the string field of every line of a JSON-lines file.
func (c *Corpus) readJSONL(root, rel, field string) error {
	f, err := os.Open(filepath.Join(root, rel))
	if err != nil {
		return err
	}
	defer f.Close()
	c.Sources = append(c.Sources, rel)
	r := bufio.NewReaderSize(f, 1<<20)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var m map[string]json.RawMessage
			if jerr := json.Unmarshal(line, &m); jerr != nil {
				return fmt.Errorf("%s line %d: %w", rel, n, jerr)
			}
			var s string
			if raw, ok := m[field]; ok {
				if jerr := json.Unmarshal(raw, &s); jerr != nil {
					return fmt.Errorf("%s line %d field %s: %w", rel, n, field, jerr)
				}
			}
			c.Docs = append(c.Docs, s)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// WriteDocsFile writes docs as the harness's exchange format read by every
// builder (Go and Java alike): for each doc a big-endian u32 length and the
// raw bytes.
func WriteDocsFile(path string, docs []string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var hdr [4]byte
	for _, d := range docs {
		binary.BigEndian.PutUint32(hdr[:], uint32(len(d)))
		w.Write(hdr[:])
		w.WriteString(d)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// EachDoc streams the docs file at path, calling fn with each doc in order.
// The string is a fresh allocation per doc.
func EachDoc(path string, fn func(id int, text string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	var hdr [4]byte
	var buf []byte
	for id := 0; ; id++ {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("%s: doc %d: %w", path, id, err)
		}
		n := binary.BigEndian.Uint32(hdr[:])
		if cap(buf) < int(n) {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if _, err := io.ReadFull(r, buf); err != nil {
			return fmt.Errorf("%s: doc %d: %w", path, id, err)
		}
		if err := fn(id, string(buf)); err != nil {
			return err
		}
	}
}
