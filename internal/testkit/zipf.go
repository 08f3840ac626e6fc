package testkit

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/snii-go/snii/internal/testkit/oracle"
)

// LogOptions shapes the corpus of GenLogs. The zero value of each field
// means its default. Different parameter sets give different documents for
// the same seed; tests whose expectations depend on the exact documents keep
// their own set.
type LogOptions struct {
	// Vocab is the number of distinct words (default 5000, at least 50).
	Vocab int
	// Exponent is the Zipf exponent s > 1 of the word draws (default 1.2).
	Exponent float64
	// Levels are the log levels drawn for the header (default INFO, WARN,
	// ERROR, DEBUG).
	Levels []string
	// Header is the fmt format of each text's start, given the minute,
	// the second and the level (default "2026-11-30T07:%02d:%02d %s ").
	Header string
	// A text has MinWords + rand[0, WordSpread) words (defaults 3 and 25).
	MinWords, WordSpread int
	// HostMissingOneIn, when > 0, leaves the host out of one document in
	// HostMissingOneIn (drawn); 0 gives every document a host, with no draw.
	HostMissingOneIn int
	// Fields are the fields generated, among "text", "host" and "title"
	// (default all three). An absent field takes no random draws.
	Fields []string
}

func (o LogOptions) withDefaults() LogOptions {
	if o.Vocab == 0 {
		o.Vocab = 5000
	}
	if o.Exponent == 0 {
		o.Exponent = 1.2
	}
	if o.Levels == nil {
		o.Levels = []string{"INFO", "WARN", "ERROR", "DEBUG"}
	}
	if o.Header == "" {
		o.Header = "2026-11-30T07:%02d:%02d %s "
	}
	if o.MinWords == 0 {
		o.MinWords = 3
	}
	if o.WordSpread == 0 {
		o.WordSpread = 25
	}
	return o
}

// GenLogs generates n log-like documents from seed, deterministically: a
// "text" field with a header, words from a Zipf vocabulary (a few terms in
// almost every document, many in one), ids and numbers (terms in one
// document) and sometimes "connection reset by peer"; a keyword-like "host"
// field (one of five hosts); and a two-value "title" field in a third of the
// documents.
func GenLogs(seed uint64, n int, o LogOptions) []oracle.Doc {
	o = o.withDefaults()
	r := rand.New(rand.NewPCG(seed, 42))
	vocab := make([]string, o.Vocab)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%x", i*7919%100003)
	}
	zipf := rand.NewZipf(r, o.Exponent, 1, uint64(len(vocab)-1))
	hosts := []string{"db-1", "db-2", "web-1", "cache-1", "queue-1"}
	has := func(f string) bool { return len(o.Fields) == 0 || slices.Contains(o.Fields, f) }
	docs := make([]oracle.Doc, n)
	var sb strings.Builder
	for i := range docs {
		sb.Reset()
		fmt.Fprintf(&sb, o.Header, r.IntN(60), r.IntN(60), o.Levels[r.IntN(len(o.Levels))])
		words := o.MinWords + r.IntN(o.WordSpread)
		for j := 0; j < words; j++ {
			switch r.IntN(12) {
			case 0:
				fmt.Fprintf(&sb, "id=%016x ", r.Uint64())
			case 1:
				fmt.Fprintf(&sb, "%d ", r.IntN(100000))
			default:
				sb.WriteString(vocab[zipf.Uint64()])
				sb.WriteByte(' ')
			}
		}
		if r.IntN(4) == 0 {
			sb.WriteString("connection reset by peer")
		}
		var d oracle.Doc
		if has("text") {
			d = append(d, oracle.Field{Name: "text", Values: []string{sb.String()}})
		}
		if has("host") && (o.HostMissingOneIn == 0 || r.IntN(o.HostMissingOneIn) != 0) {
			d = append(d, oracle.Field{Name: "host", Values: []string{hosts[r.IntN(len(hosts))]}})
		}
		if has("title") && r.IntN(3) == 0 {
			d = append(d, oracle.Field{Name: "title", Values: []string{"job " + vocab[r.IntN(50)], "retry " + fmt.Sprint(r.IntN(5))}})
		}
		docs[i] = d
	}
	return docs
}
