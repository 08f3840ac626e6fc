package grep_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/grep"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

var bg = context.Background()

// build writes a segment of text records (each the value of "text", as
// snii build stores lines) and opens it.
func build(t testing.TB, recs []string, analyzer string) *reader.Segment {
	t.Helper()
	return open(t, buildPath(t, recs, analyzer))
}

// buildPath writes the segment build opens and returns its path.
func buildPath(t testing.TB, recs []string, analyzer string) string {
	t.Helper()
	o := writer.DefaultOptions("text")
	o.RecordFormat, o.TextField = snii.RecordText, "text"
	o.Fields[0].Analyzer = analyzer
	p := filepath.Join(t.TempDir(), "g.snii")
	w, err := writer.Create(context.Background(), p, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if _, err := w.Add(writer.Document{Fields: []writer.Field{{Name: "text", Values: []string{r}}}, Record: []byte(r)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func open(t testing.TB, p string) *reader.Segment {
	t.Helper()
	s, err := reader.Open(p, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var words = []string{"connection", "refused", "reconnection", "timeout", "after", "ms", "user", "failed",
	"NullPointerException", "Error", "error", "at", "db", "host", "Refused", "conn", "ſtop", "stop", "Kelvin"}

// genRecords draws log-like lines: words, numbers and separators.
func genRecords(r *rand.Rand, n int) []string {
	seps := []string{" ", " ", " ", "=", ": ", ".", "-", "_", "/", ", "}
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for k := 1 + r.IntN(9); k > 0; k-- {
			if r.IntN(5) == 0 {
				fmt.Fprintf(&b, "%d", r.IntN(1000))
			} else {
				b.WriteString(words[r.IntN(len(words))])
			}
			if k > 1 {
				b.WriteString(seps[r.IntN(len(seps))])
			}
		}
		out[i] = b.String()
	}
	return out
}

// genRegexp draws a regexp from pieces of a record: literals cut anywhere,
// classes, stars, alternations, anchors and case folding.
func genRegexp(r *rand.Rand, recs []string) string {
	rec := []rune(recs[r.IntN(len(recs))])
	piece := func() string {
		if len(rec) == 0 {
			return "x"
		}
		i := r.IntN(len(rec))
		j := i + 1 + r.IntN(min(12, len(rec)-i))
		return regexp.QuoteMeta(string(rec[i:j]))
	}
	var parts []string
	for k := 1 + r.IntN(3); k > 0; k-- {
		switch r.IntN(9) {
		case 0:
			parts = append(parts, "("+piece()+"|"+piece()+")")
		case 1:
			parts = append(parts, "[0-9]+")
		case 2:
			parts = append(parts, ".*")
		case 3:
			parts = append(parts, `\w+`)
		case 4:
			parts = append(parts, "(?i)"+piece())
		case 5:
			parts = append(parts, "("+piece()+")?")
		case 6:
			parts = append(parts, `\b`+piece())
		default:
			parts = append(parts, piece())
		}
	}
	re := strings.Join(parts, "")
	switch r.IntN(6) {
	case 0:
		re = "^" + re
	case 1:
		re += "$"
	}
	return re
}

// TestCandidatesCoverMatches is the oracle property: for generated records
// and regexps, every record the regexp matches is among the derived query's
// documents, and Grep returns exactly the matching records (brute force).
// It also checks that the index narrows: most regexps get a query.
func TestCandidatesCoverMatches(t *testing.T) {
	for _, analyzer := range []string{"", "whitespace", "keyword", "standard;max_token_bytes=8"} {
		t.Run(analyzer, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, uint64(len(analyzer))))
			recs := genRecords(r, 600)
			s := build(t, recs, analyzer)
			planned, narrowed := 0, 0
			for i := 0; i < 300; i++ {
				expr := genRegexp(r, recs)
				re := regexp.MustCompile(expr)
				var want []uint32
				for id, rec := range recs {
					if re.MatchString(rec) {
						want = append(want, uint32(id))
					}
				}
				q, cands, _, err := grep.Plan(s, re)
				if err != nil {
					t.Fatalf("%s: %s: %v", expr, q, err)
				}
				if q != "" {
					planned++
					for _, id := range want {
						if _, ok := slices.BinarySearch(cands, id); !ok {
							t.Fatalf("%s: query %s drops record %d %q", expr, q, id, recs[id])
						}
					}
					if len(cands) < len(recs) {
						narrowed++
					}
				}
				var got []uint32
				err = grep.Grep(bg, s, re, &grep.Options{Batch: 50}, func(id uint32, rec []byte) error {
					if string(rec) != recs[id] {
						t.Fatalf("record %d: %q, want %q", id, rec, recs[id])
					}
					got = append(got, id)
					return nil
				})
				if err != nil || !slices.Equal(got, want) {
					t.Fatalf("%s: Grep = %v (%v), want %v", expr, got, err, want)
				}
			}
			t.Logf("%d of 300 regexps planned, %d narrowed the candidates", planned, narrowed)
			if (analyzer == "" || analyzer == "whitespace") && narrowed < 100 {
				t.Errorf("only %d of 300 regexps narrowed the candidates: the derivation is too weak", narrowed)
			}
		})
	}
}

// TestPlan: the derived queries of typical regexps.
func TestPlan(t *testing.T) {
	s := build(t, []string{"connection refused by host", "timeout after 30 ms"}, "")
	for expr, want := range map[string]string{
		`conn(ection)? refused`:    `or(patternphrase(text:wildcard"*conn" wildcard"refused*",max=0), patternphrase(text:wildcard"*connection" wildcard"refused*",max=0))`,
		`timeout after [0-9]+ ?ms`: `patternphrase(text:wildcard"*timeout" "after",max=0)`,
		`payment failed: card`:     `patternphrase(text:wildcard"*payment" "failed" wildcard"card*",max=0)`,
		`(?i)refused`:              `or(wildcard(text:"*refused*",max=0), wildcard(text:"*refuſed*",max=0))`,
		`user=\w+ failed`:          `and(wildcard(text:"*user",max=0), wildcard(text:"failed*",max=0))`,
		`^Connection refused$`:     `phrase(text:"connection refused")`,
		`(?i)REFUSED by`:           `or(wildcard(text:"*refused",max=0), wildcard(text:"*refuſed",max=0))`,
		`[0-9]+\.[0-9]+`:           ``,
		`.*`:                       ``,
		`a|refused`:                ``,
	} {
		got, _, note, err := grep.Plan(s, regexp.MustCompile(expr))
		if err != nil {
			t.Fatal(err)
		}
		if got == "" && note == "" {
			t.Errorf("%s: no query and no note", expr)
		}
		if got != want {
			t.Errorf("%s: %s, want %s", expr, got, want)
		}
	}
}

// TestSameLinesAsRipgrep: Grep prints the lines rg prints on the file the
// segment was built from, for regexps with selective literals and without.
func TestSameLinesAsRipgrep(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("rg not installed")
		}
		t.Skip("rg not installed")
	}
	r := rand.New(rand.NewPCG(3, 9))
	recs := genRecords(r, 3000)
	path := filepath.Join(t.TempDir(), "in.log")
	if err := os.WriteFile(path, []byte(strings.Join(recs, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := build(t, recs, "")
	for _, expr := range []string{`conn(ection)? refused`, `timeout after [0-9]+ ?ms`, `user=[a-z]+ failed`,
		`NullPointer[A-Za-z]*`, `^error`, `[0-9]{3}$`, `.*`, `e.r`, `(db|host)[-_/][0-9]+`, `(?i)refused`} {
		for _, invert := range []bool{false, true} {
			args := []string{"--no-config", "--color", "never", expr, path}
			if invert {
				args = append([]string{"-v"}, args...)
			}
			out, err := exec.Command(rg, args...).Output()
			if err != nil && len(out) > 0 {
				t.Fatalf("rg %v: %v", args, err)
			}
			var b bytes.Buffer
			var prof grep.Profile
			err = grep.Grep(bg, s, regexp.MustCompile(expr), &grep.Options{Invert: invert, Profile: &prof}, func(_ uint32, rec []byte) error {
				b.Write(rec)
				b.WriteByte('\n')
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(out) {
				t.Fatalf("%s (invert %v): %d bytes, rg %d", expr, invert, b.Len(), len(out))
			}
			if prof.Matched != bytes.Count(out, []byte("\n")) {
				t.Fatalf("%s: profile says %d matched", expr, prof.Matched)
			}
			t.Logf("%-28s invert=%-5v query %q: %d candidates, %d matched %s", expr, invert, prof.Query, prof.Candidates, prof.Matched, prof.Note)
		}
	}
}

// TestPlanNUL: a NUL in a regexp is a character like any other (the
// whitespace analyzer keeps it inside a token).
func TestPlanNUL(t *testing.T) {
	recs := []string{"xa\x00bc d", "a b"}
	s := build(t, recs, "whitespace")
	re := regexp.MustCompile(`a\x00b`)
	var got []uint32
	if err := grep.Grep(bg, s, re, nil, func(id uint32, _ []byte) error { got = append(got, id); return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []uint32{0}) {
		t.Fatalf("got %v, want [0]", got)
	}
}

// FuzzPlan: for any regexp, the derived query's documents hold every record
// the regexp matches (a fixed set of generated records, standard analyzer).
func FuzzPlan(f *testing.F) {
	r := rand.New(rand.NewPCG(11, 12))
	recs := genRecords(r, 300)
	s := build(f, recs, "")
	for _, seed := range []string{`conn(ection)? refused`, `^Error`, `(?i)STOP\b`, `[0-9]+ms`, `user=\w+ failed`, `a|b`, `ſtop$`, `(db|host)[-_]?[0-9]{2}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		re, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		q, cands, _, err := grep.Plan(s, re)
		if err != nil {
			t.Fatalf("%q: %s: %v", expr, q, err)
		}
		if q == "" {
			return
		}
		for id, rec := range recs {
			if re.MatchString(rec) {
				if _, ok := slices.BinarySearch(cands, uint32(id)); !ok {
					t.Fatalf("%q: query %s drops record %d %q", expr, q, id, rec)
				}
			}
		}
	})
}
