package s3url_test

import (
	"errors"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/s3url"
)

func TestParseURL(t *testing.T) {
	good := []struct {
		in           string
		bucket, key  string
		prefix, glob bool
		listPrefix   string
	}{
		{"s3://logs/a/b.snii", "logs", "a/b.snii", false, false, "a/b.snii"},
		{"s3://logs/a/", "logs", "a/", true, false, "a/"},
		{"s3://logs", "logs", "", true, false, ""},
		{"s3://logs/", "logs", "", true, false, ""},
		{"s3://my.bucket-1/d/*.snii", "my.bucket-1", "d/*.snii", false, true, "d/"},
	}
	for _, g := range good {
		u, err := s3url.ParseURL(g.in)
		if err != nil {
			t.Errorf("%s: %v", g.in, err)
			continue
		}
		if u.Bucket != g.bucket || u.Key != g.key || u.IsPrefix() != g.prefix || u.IsGlob() != g.glob || u.ListPrefix() != g.listPrefix {
			t.Errorf("%s: %+v prefix %v glob %v list %q", g.in, u, u.IsPrefix(), u.IsGlob(), u.ListPrefix())
		}
	}
	for _, bad := range []string{"", "s3:/x/y", "http://b/k", "s3://", "s3:///k", "s3://ab/k", "s3://Upper/k",
		"s3://-bad/k", "s3://a..b/k", "s3://b_b/k", "s3://bucket/../k", "s3://bucket/a/./k", "s3://bucket/\xff",
		"s3://bucket/d/[a.snii", "s3://bucket/d/[]a].snii"} {
		if _, err := s3url.ParseURL(bad); !errors.Is(err, snii.ErrInvalidArgument) {
			t.Errorf("%q: %v, want ErrInvalidArgument", bad, err)
		}
	}
}

// FuzzParseURL: ParseURL never panics, accepts only s3:// URLs, and what it
// accepts renders back to a URL that parses to the same value.
func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"s3://logs/a/b.snii", "s3://logs/", "s3://a.b-c/x*/[ab]?", "s3://x", "s3://bucket/../k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := s3url.ParseURL(s)
		if err != nil {
			if !errors.Is(err, snii.ErrInvalidArgument) {
				t.Fatalf("%q: error of another kind: %v", s, err)
			}
			return
		}
		if !s3url.IsURL(s) {
			t.Fatalf("%q accepted without s3://", s)
		}
		v, err := s3url.ParseURL(u.String())
		if err != nil || v != u {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", s, u, u.String(), v, err)
		}
	})
}
