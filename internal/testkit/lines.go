package testkit

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// MaxLine is the longest line ScanLines and EachLine accept.
const MaxLine = 64 << 20

// ScanLines calls fn with every line of the file at path (without the
// newline; the slice is only valid during the call) and stops at fn's first
// error, which it returns.
func ScanLines(path string, fn func(line []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), MaxLine)
	for sc.Scan() {
		if err := fn(sc.Bytes()); err != nil {
			return err
		}
	}
	return sc.Err()
}

// EachLine calls fn with every line of the files in order (see ScanLines)
// and fails tb on a read error.
func EachLine(tb testing.TB, files []string, fn func(line []byte)) {
	tb.Helper()
	for _, p := range files {
		err := ScanLines(p, func(line []byte) error {
			fn(line)
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// AgentContent returns the "content" of one agent-log JSON line, or "" and
// the error when the line is not valid JSON of that shape.
func AgentContent(line []byte) (string, error) {
	var m struct {
		Content string `json:"content"`
	}
	if err := json.Unmarshal(line, &m); err != nil {
		return "", err
	}
	return m.Content, nil
}
