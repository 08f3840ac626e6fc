package peers

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// Kind is the kind of a benchmark query.
type Kind string

// The query kinds of a query file.
const (
	KindTerm         Kind = "term"         // one term
	KindPhrase       Kind = "phrase"       // 2–6 terms, exact and adjacent
	KindPrefix       Kind = "prefix"       // one prefix, every expansion
	KindPhrasePrefix Kind = "phraseprefix" // a phrase whose last term is a prefix, every expansion
	// KindSloppy is a sloppy phrase (Query.Slop); it is not read from query
	// files: the sloppy comparison (RunSloppy) derives it from their phrases.
	KindSloppy Kind = "sloppy"
	// KindRegexp is a regular expression matched against whole terms, every
	// expansion; written so that RE2 (snii) and Lucene's RegExp read it the
	// same (CheckPattern). Terms holds the expression.
	KindRegexp Kind = "regexp"
	// KindWildcard is a wildcard matched against whole terms ('*' any run,
	// '?' one character, '\' quotes), every expansion. Terms holds it.
	KindWildcard Kind = "wildcard"
)

// Query is one line of a query file, analyzed with the shared analyzer.
type Query struct {
	ID    int      // line order in the file, from 0 (comments excluded)
	Kind  Kind     // what kind of query
	Class string   // free label from the file: rare, common, zero, ...
	Text  string   // the text as written in the file
	Terms []string // analyzed terms; for prefix kinds the last one is the prefix
	Slop  int      // KindSloppy: the slop
}

// String renders q for messages and reports.
func (q *Query) String() string {
	s := strings.Join(q.Terms, " ")
	switch q.Kind {
	case KindPrefix, KindPhrasePrefix:
		s += "*"
	case KindSloppy:
		return fmt.Sprintf("%s:%q~%d", q.Kind, s, q.Slop)
	case KindRegexp:
		return fmt.Sprintf("%s:/%s/", q.Kind, q.Text)
	case KindWildcard:
		return fmt.Sprintf("%s:%s", q.Kind, q.Text)
	}
	return fmt.Sprintf("%s:%q", q.Kind, s)
}

// Leading returns the terms before the prefix of a phrase prefix query.
func (q *Query) Leading() []string { return q.Terms[:len(q.Terms)-1] }

// Last returns the last term (the prefix of prefix kinds).
func (q *Query) Last() string { return q.Terms[len(q.Terms)-1] }

// ParseQueries reads a query file: one query a line, `kind<TAB>class<TAB>text`;
// blank lines and lines starting with '#' are ignored. The text is analyzed
// with the shared analyzer; the term count must fit the kind.
func ParseQueries(r io.Reader) ([]*Query, error) {
	var out []*Query
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		s := sc.Text()
		if strings.TrimSpace(s) == "" || strings.HasPrefix(s, "#") {
			continue
		}
		parts := strings.SplitN(s, "\t", 3)
		if len(parts) != 3 {
			return nil, fmt.Errorf("query file line %d: want kind<TAB>class<TAB>text, got %q", line, s)
		}
		q := &Query{ID: len(out), Kind: Kind(parts[0]), Class: parts[1], Text: parts[2]}
		if q.Kind == KindRegexp || q.Kind == KindWildcard {
			if err := CheckPattern(q.Kind, q.Text); err != nil {
				return nil, fmt.Errorf("query file line %d: %w", line, err)
			}
			q.Terms = []string{q.Text}
			out = append(out, q)
			continue
		}
		for _, t := range Tokenize(q.Text) {
			if t == "" {
				return nil, fmt.Errorf("query file line %d: token longer than %d bytes", line, MaxTokenBytes)
			}
			q.Terms = append(q.Terms, t)
		}
		n := len(q.Terms)
		ok := false
		switch q.Kind {
		case KindTerm, KindPrefix:
			ok = n == 1
		case KindPhrase:
			ok = n >= 2
		case KindPhrasePrefix:
			ok = n >= 2
		default:
			return nil, fmt.Errorf("query file line %d: unknown kind %q", line, q.Kind)
		}
		if !ok {
			return nil, fmt.Errorf("query file line %d: %s query with %d terms (%q)", line, q.Kind, n, q.Text)
		}
		out = append(out, q)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// LoadQueries parses the query file at path.
func LoadQueries(path string) ([]*Query, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	qs, err := ParseQueries(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return qs, nil
}
