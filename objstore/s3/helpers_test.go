package s3_test

import (
	"net/http"
	"testing"

	"github.com/snii-go/snii/internal/testkit/s3test"
	"github.com/snii-go/snii/limits"
	"github.com/snii-go/snii/objstore"
	"github.com/snii-go/snii/objstore/s3"
)

// client returns a client of endpoint with the test server's credentials
// (unless cfg has some), a
// transport of its own (closed at the end of the test) and fast retries.
func client(t *testing.T, endpoint string, cfg s3.Config, cache *s3.Cache) *s3.Client {
	t.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	cfg.Endpoint = endpoint
	if cfg.AccessKeyID == "" && cfg.SecretAccessKey == "" {
		cfg.AccessKeyID, cfg.SecretAccessKey = s3test.AccessKey, s3test.SecretKey
	}
	cfg.Transport = tr
	if cfg.RetryDelay == 0 {
		cfg.RetryDelay = 2e6 // 2 ms
	}
	c, err := s3.New(cfg, cache)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// rr is a objstore.Range.
func rr(off, n int64) objstore.Range { return objstore.Range{Off: off, Len: n} }

func prxLimits() limits.Limits { return limits.Limits{} }
