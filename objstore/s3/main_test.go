package s3_test

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/snii-go/snii/internal/testkit/s3test"
)

func TestMain(m *testing.M) {
	code := m.Run()
	s3test.StopShared()
	os.Exit(code)
}

// checkNoLeaks fails t if goroutines of this package or of the S3 client are
// still running (after the connections are closed): every request, retry and
// prefetch must end with its call.
func checkNoLeaks(t *testing.T) {
	t.Helper()
	var stacks string
	for range 100 {
		buf := make([]byte, 1<<20)
		stacks = string(buf[:runtime.Stack(buf, true)])
		leaked := false
		for _, g := range strings.Split(stacks, "\n\n") {
			if strings.Contains(g, "snii/objstore/s3.") && !strings.Contains(g, "testing.tRunner") ||
				strings.Contains(g, "minio-go") {
				leaked = true
			}
		}
		if !leaked {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("leaked goroutines:\n%s", stacks)
}
