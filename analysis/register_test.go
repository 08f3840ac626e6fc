package analysis

import (
	"errors"
	"strings"
	"testing"

	"github.com/snii-go/snii"
)

type upper struct{}

func (upper) Analyze(text string, emit func([]byte, uint32)) (uint32, uint32) {
	var pos uint32
	for _, f := range strings.Fields(text) {
		emit([]byte(strings.ToUpper(f)), pos)
		pos++
	}
	return pos, 0
}

func TestRegisterAndSpec(t *testing.T) {
	Register("test-upper", 2, func(Spec) (Analyzer, error) { return upper{}, nil })
	a, err := New("test-upper@2")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	a.Analyze("a b", func(term []byte, _ uint32) { got = append(got, string(term)) })
	if strings.Join(got, ",") != "A,B" {
		t.Errorf("got %v", got)
	}
	if _, err := New("test-upper"); !errors.Is(err, snii.ErrNotFound) {
		t.Errorf("version 1 of test-upper: err = %v, want ErrNotFound", err)
	}
	for _, bad := range []string{"standard@0", "standard@x", "standard;foo=1", "standard;max_token_bytes=0", "standard;max_token_bytes=99999999"} {
		if _, err := New(bad); !errors.Is(err, snii.ErrInvalidArgument) {
			t.Errorf("New(%q): err = %v, want ErrInvalidArgument", bad, err)
		}
	}
	for in, want := range map[string]string{"": "standard", "standard@1": "standard", "keyword;max_token_bytes=255": "keyword",
		"whitespace;max_token_bytes=1024": "whitespace;max_token_bytes=1024", "test-upper@2": "test-upper@2"} {
		sp, err := ParseSpec(in)
		if err != nil || sp.String() != want {
			t.Errorf("ParseSpec(%q) = %v, %v; want %q", in, sp, err, want)
		}
	}
	if n := Names(); n[0] != Standard || n[len(n)-1] != "test-upper@2" {
		t.Errorf("Names() = %v", n)
	}
	defer func() {
		if recover() == nil {
			t.Error("duplicate Register did not panic")
		}
	}()
	Register("test-upper", 2, func(Spec) (Analyzer, error) { return upper{}, nil })
}

func TestMaxTokenBytesSetting(t *testing.T) {
	long := strings.Repeat("ab", 200) // 400 bytes
	for _, name := range []string{Standard, Whitespace, Keyword} {
		a, _ := New(name)
		n := 0
		pos, skipped := a.Analyze("x "+long, func([]byte, uint32) { n++ })
		if name == Keyword {
			if n != 0 || pos != 1 || skipped != 1 {
				t.Errorf("%s default: %d terms, %d positions, %d skipped", name, n, pos, skipped)
			}
		} else if n != 1 || pos != 2 || skipped != 1 {
			t.Errorf("%s default: %d terms, %d positions, %d skipped", name, n, pos, skipped)
		}
		a, err := New(name + ";max_token_bytes=1024")
		if err != nil {
			t.Fatal(err)
		}
		n = 0
		_, skipped = a.Analyze("x "+long, func([]byte, uint32) { n++ })
		if skipped != 0 || n == 0 {
			t.Errorf("%s 1024: %d terms, %d skipped", name, n, skipped)
		}
	}
}
