package main

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/snii-go/snii/internal/s3test"
)

func TestMain(m *testing.M) {
	code := m.Run()
	s3test.StopShared()
	os.Exit(code)
}

// s3env points the CLI at the test server with its credentials.
func s3env(t *testing.T) (endpoint string) {
	t.Helper()
	srv := s3test.Shared(t)
	t.Setenv("AWS_ACCESS_KEY_ID", s3test.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", s3test.SecretKey)
	t.Setenv("AWS_ENDPOINT_URL", "")
	t.Setenv("AWS_ENDPOINT_URL_S3", "")
	srv.MakeBucket(t, "cli")
	return srv.Endpoint
}

// TestS3CLI: build -o s3:// uploads a segment that query, inspect and verify
// then read from S3 with the answers of the local file; a prefix and a glob
// query every segment under them with global ids.
func TestS3CLI(t *testing.T) {
	ep := s3env(t)
	local := t.TempDir() + "/app.snii"
	ok(t, "build", "-q", "-o", local, demoFile("app.log"))
	ok(t, "build", "-q", "-o", "s3://cli/logs/a.snii", "--endpoint", ep, demoFile("app.log"))
	ok(t, "build", "-q", "-o", "s3://cli/logs/b.snii", "--endpoint", ep, demoFile("app.log"))
	q := `"connection refused" OR timeout*`
	var want, got queryReport
	if err := json.Unmarshal([]byte(ok(t, "query", local, q, "--ids", "--json", "--limit", "0").stdout), &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(ok(t, "query", "--endpoint", ep, "s3://cli/logs/a.snii", q, "--ids", "--json", "--limit", "0", "--profile").stdout), &got); err != nil {
		t.Fatal(err)
	}
	if want.Count == 0 || got.Count != want.Count || !slices.Equal(got.Docs, want.Docs) {
		t.Fatalf("from S3: %d docs, local: %d docs", got.Count, want.Count)
	}
	if got.Profile == nil || got.Profile.BytesRead == 0 {
		t.Errorf("no profile from S3: %+v", got.Profile)
	}
	for _, u := range []string{"s3://cli/logs/", "s3://cli/logs/*.snii"} {
		var many manyReport
		if err := json.Unmarshal([]byte(ok(t, "query", "--endpoint", ep, u, q, "--ids", "--json", "--limit", "0").stdout), &many); err != nil {
			t.Fatal(err)
		}
		if len(many.Segments) != 2 || many.Count != 2*want.Count || many.Segments[1].Base != uint64(many.Segments[0].Docs) {
			t.Fatalf("%s: %d segments, %d docs (want %d)", u, len(many.Segments), many.Count, 2*want.Count)
		}
		for i, d := range want.Docs {
			if many.Docs[i] != uint64(d) || many.Docs[len(want.Docs)+i] != many.Segments[1].Base+uint64(d) {
				t.Fatalf("%s: global doc ids differ at %d", u, i)
			}
		}
	}
	// Records: one segment in S3 prints the local file's lines; a prefix
	// prints both segments' lines, in global id order.
	lines := ok(t, "query", local, q, "--color", "never").stdout
	if r := ok(t, "query", "--endpoint", ep, "s3://cli/logs/a.snii", q, "--color", "never"); r.stdout != lines || lines == "" {
		t.Errorf("records from S3 differ from the local ones:\n%s", firstDiff(r.stdout, lines))
	}
	if r := ok(t, "query", "--endpoint", ep, "s3://cli/logs/", q, "--color", "never"); r.stdout != lines+lines {
		t.Errorf("records of a prefix differ from the local ones twice:\n%s", firstDiff(r.stdout, lines+lines))
	}
	if r := ok(t, "query", "--endpoint", ep, "s3://cli/logs/", q, "--json", "-m", "3"); len(jsonLines(t, r.stdout)) != 3 {
		t.Errorf("-m 3 over a prefix:\n%s", r.stdout)
	}
	if r := ok(t, "verify", "--endpoint", ep, "s3://cli/logs/a.snii", "s3://cli/logs/b.snii"); r.stdout != "ok s3://cli/logs/a.snii\nok s3://cli/logs/b.snii\n" {
		t.Errorf("verify: %q", r.stdout)
	}
	var ins inspectReport
	if err := json.Unmarshal([]byte(ok(t, "inspect", "--endpoint", ep, "s3://cli/logs/a.snii", "--json").stdout), &ins); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(local)
	if ins.FileBytes != st.Size() || ins.Docs == 0 {
		t.Errorf("inspect from S3: %d bytes, %d docs; the local file has %d bytes", ins.FileBytes, ins.Docs, st.Size())
	}
}

// TestS3CLIErrors: bad URLs and endpoints are usage errors (2); missing
// buckets, keys and credentials are failures (1), with clear messages.
func TestS3CLIErrors(t *testing.T) {
	ep := s3env(t)
	fails(t, exitUsage, "", []string{"query", "--endpoint", ep, "s3://Bad_Bucket/k", "a"}, "only lowercase letters")
	fails(t, exitUsage, "", []string{"query", "--endpoint", "ftp://x", "s3://cli/k", "a"}, `scheme "ftp"`)
	fails(t, exitUsage, "", []string{"inspect", "--endpoint", ep, "s3://cli/logs/"}, "names many objects")
	fails(t, exitUsage, "", []string{"build", "-o", "s3://cli/", "--endpoint", ep, demoFile("app.log")}, "naming one object")
	fails(t, exitFailure, "", []string{"query", "--endpoint", ep, "s3://nosuchbucket/k.snii", "a"}, `no bucket "nosuchbucket"`)
	fails(t, exitFailure, "", []string{"query", "--endpoint", ep, "s3://cli/missing.snii", "a"}, "no such key")
	fails(t, exitFailure, "", []string{"query", "--endpoint", ep, "s3://cli/none/*.snii", "a"}, "no object matches")
	fails(t, exitFailure, "", []string{"build", "-o", "s3://nosuchbucket/x.snii", "--endpoint", ep, demoFile("app.log")}, "no such bucket")
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	fails(t, exitFailure, "", []string{"verify", "--endpoint", ep, "s3://cli/x.snii"}, "AWS_ACCESS_KEY_ID")
}
