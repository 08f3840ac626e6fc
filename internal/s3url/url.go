package s3url

import (
	"path"
	"strings"
	"unicode/utf8"

	"github.com/snii-go/snii/internal/errs"
)

// URL is a parsed s3://bucket/key. A key ending in "/" (or empty) is a
// prefix; a key holding *, ? or [ is a glob (path.Match syntax, where * does
// not cross "/").
type URL struct {
	Bucket, Key string
}

// IsURL reports whether s is meant as an S3 URL (starts with "s3://").
func IsURL(s string) bool { return strings.HasPrefix(s, "s3://") }

// ParseURL parses "s3://bucket/key". The bucket must follow the S3 naming
// rules (3 to 63 lowercase letters, digits, dots and hyphens, starting and
// ending with a letter or digit); the key must be valid UTF-8 of at most 1024
// bytes; a glob must be a valid path.Match pattern. Anything else is an error
// of kind snii.ErrInvalidArgument.
func ParseURL(s string) (URL, error) {
	rest, ok := strings.CutPrefix(s, "s3://")
	if !ok {
		return URL{}, errs.Invalidf("%q: not an s3:// URL (want s3://bucket/key)", s)
	}
	bucket, key, _ := strings.Cut(rest, "/")
	if err := checkBucket(bucket); err != nil {
		return URL{}, errs.Invalidf("%q: %v (want s3://bucket/key)", s, err)
	}
	if len(key) > 1024 {
		return URL{}, errs.Invalidf("%q: the key is %d bytes long (at most 1024)", s, len(key))
	}
	if !utf8.ValidString(key) {
		return URL{}, errs.Invalidf("%q: the key is not valid UTF-8", s)
	}
	for _, part := range strings.Split(key, "/") {
		if part == "." || part == ".." {
			return URL{}, errs.Invalidf("%q: the key holds a %q component", s, part)
		}
	}
	u := URL{Bucket: bucket, Key: key}
	if u.IsGlob() {
		if _, err := path.Match(key, ""); err != nil {
			return URL{}, errs.Invalidf("%q: bad pattern: %v", s, err)
		}
	}
	return u, nil
}

// String renders u as s3://bucket/key.
func (u URL) String() string { return "s3://" + u.Bucket + "/" + u.Key }

// IsPrefix reports whether u names every object under a prefix (its key is
// empty or ends with "/").
func (u URL) IsPrefix() bool { return u.Key == "" || strings.HasSuffix(u.Key, "/") }

// IsGlob reports whether u's key is a pattern.
func (u URL) IsGlob() bool { return strings.ContainsAny(u.Key, "*?[") }

// ListPrefix returns the prefix to list for a prefix or glob URL: the key up
// to its first pattern character.
func (u URL) ListPrefix() string {
	if i := strings.IndexAny(u.Key, "*?[\\"); i >= 0 {
		return u.Key[:i]
	}
	return u.Key
}

type errString string

func (e errString) Error() string { return string(e) }

func checkBucket(b string) error {
	switch {
	case b == "":
		return errString("no bucket")
	case len(b) < 3 || len(b) > 63:
		return errString("bucket \"" + b + "\": want 3 to 63 characters")
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		ok := c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.'
		if !ok {
			return errString("bucket \"" + b + "\": only lowercase letters, digits, '-' and '.' are allowed")
		}
	}
	if !alnum(b[0]) || !alnum(b[len(b)-1]) || strings.Contains(b, "..") {
		return errString("bucket \"" + b + "\": must start and end with a letter or digit, without \"..\"")
	}
	return nil
}

func alnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
