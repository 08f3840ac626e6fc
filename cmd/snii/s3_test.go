package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/minio/minio-go/v7"
	"github.com/snii-go/snii/internal/testkit/s3test"
	"github.com/snii-go/snii/internal/tmpfile"
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
	fails(t, exitUsage, "", []string{"query", "--timeout", "-1s", "--endpoint", ep, "s3://cli/k", "a"}, "--timeout")
	t.Setenv("AWS_ACCESS_KEY_ID", "nosuchaccesskey")
	fails(t, exitFailure, "", []string{"query", "--endpoint", ep, "s3://cli/missing.snii", "a"}, "access denied", "AWS_ACCESS_KEY_ID")
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	fails(t, exitFailure, "", []string{"verify", "--endpoint", ep, "s3://cli/x.snii"}, "AWS_ACCESS_KEY_ID")
}

// TestS3CLIFaults: connections closed before their headers are retried (the
// answer is the local one); a server that stalls every request ends the
// query at --timeout, with an error naming it.
func TestS3CLIFaults(t *testing.T) {
	ep := s3env(t)
	local := t.TempDir() + "/app.snii"
	ok(t, "build", "-q", "-o", local, demoFile("app.log"))
	ok(t, "build", "-q", "-o", "s3://cli/faults/a.snii", "--endpoint", ep, demoFile("app.log"))
	q := `"connection refused" OR timeout*`
	want := ok(t, "query", local, q, "--count").stdout
	px := s3test.NewProxy(ep)
	defer px.Close()
	px.Choose = func(n int64, _ *http.Request) s3test.Fault {
		if n%2 == 0 {
			return s3test.Drop
		}
		return s3test.Pass
	}
	if got := ok(t, "query", "--endpoint", px.URL, "s3://cli/faults/a.snii", q, "--count").stdout; got != want {
		t.Errorf("with connections dropped before their headers: %q, want %q", got, want)
	}
	if px.Faults() == 0 {
		t.Error("no connection was dropped")
	}
	for _, f := range []s3test.Fault{s3test.StallHeaders, s3test.StallBody} {
		px.Choose = func(int64, *http.Request) s3test.Fault { return f }
		fails(t, exitFailure, "", []string{"query", "--timeout", "300ms", "--endpoint", px.URL, "s3://cli/faults/a.snii", q},
			"gave up after --timeout 300ms")
	}
}

// TestS3UploadLeftovers: the local copy of an upload lives in an owned
// .snii-upload-* directory of --temp-dir: what a killed build left there is
// removed by snii clean and by the next build; a live run's stays.
func TestS3UploadLeftovers(t *testing.T) {
	ep := s3env(t)
	tmp := t.TempDir()
	killed := func() string { // what a build killed during its upload leaves
		os.WriteFile(filepath.Join(tmp, tmpfile.LockPrefix+"4242"), nil, 0o600)
		d := filepath.Join(tmp, tmpfile.UploadPrefix+"4242-17")
		os.MkdirAll(d, 0o700)
		os.WriteFile(filepath.Join(d, "a.snii"), make([]byte, 5000), 0o600)
		return d
	}
	live, err := tmpfile.Claim(tmp)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Release()
	liveDir, err := live.Mkdir(tmpfile.UploadPrefix)
	if err != nil {
		t.Fatal(err)
	}
	d := killed()
	if r := ok(t, "clean", tmp); !strings.Contains(r.stdout, "removed "+d+" (") {
		t.Errorf("clean: %q, want %s removed", r.stdout, d)
	}
	d = killed()
	r := ok(t, "build", "-o", "s3://cli/up/a.snii", "--temp-dir", tmp, "--endpoint", ep, demoFile("app.log"))
	if !strings.Contains(r.stderr, "removed 2 temp files") {
		t.Errorf("build: stderr %q, want the leftovers removed", r.stderr)
	}
	for _, p := range []string{d, filepath.Join(tmp, tmpfile.LockPrefix+"4242")} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s: %v after the build, want removed", p, err)
		}
	}
	if _, err := os.Stat(liveDir); err != nil {
		t.Errorf("a live run's upload directory: %v, want kept", err)
	}
	// The build itself leaves nothing but the live run's files.
	live.Release()
	os.RemoveAll(liveDir)
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("after the build, %s holds %v", tmp, ents)
	}
}

// TestS3CleanUploads: clean s3://bucket/prefix aborts the incomplete
// multipart uploads under the prefix older than --older-than, and only those.
func TestS3CleanUploads(t *testing.T) {
	ep := s3env(t)
	mc, err := s3test.Shared(t).Client()
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	core := minio.Core{Client: mc}
	for _, key := range []string{"mpu/a.snii", "keep/b.snii"} {
		id, err := core.NewMultipartUpload(ctx, "cli", key, minio.PutObjectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := core.PutObjectPart(ctx, "cli", key, id, 1, strings.NewReader("part"), 4, minio.PutObjectPartOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if r := ok(t, "clean", "--endpoint", ep, "s3://cli/mpu/"); r.stdout != "0 incomplete uploads aborted under s3://cli/mpu/, 0 B\n" {
		t.Errorf("clean of a fresh upload: %q, want none aborted", r.stdout)
	}
	r := ok(t, "clean", "--endpoint", ep, "--older-than", "0", "s3://cli/mpu/")
	if !strings.Contains(r.stdout, "aborted the upload of s3://cli/mpu/a.snii begun ") || !strings.HasSuffix(r.stdout, "1 incomplete upload aborted under s3://cli/mpu/, 4 B\n") {
		t.Errorf("clean --older-than 0: %q", r.stdout)
	}
	left := map[string]bool{}
	for u := range mc.ListIncompleteUploads(ctx, "cli", "", true) {
		left[u.Key] = true
	}
	if left["mpu/a.snii"] || !left["keep/b.snii"] {
		t.Errorf("incomplete uploads left: %v, want keep/b.snii only", left)
	}
	fails(t, exitUsage, "", []string{"clean", "--endpoint", ep, "s3://cli/*.snii"}, "not a pattern")
	fails(t, exitUsage, "", []string{"clean", "--older-than", "-1h", "s3://cli/"}, "--older-than")
	ok(t, "clean", "-q", "--endpoint", ep, "--older-than", "0", "s3://cli/keep/")
}

// TestS3DamagedStoreIndex: on S3 as on a local file, a query without a
// match on a segment whose store block index is damaged prints nothing and
// succeeds; one with matches, alone or under a prefix, and verify report
// the damage.
func TestS3DamagedStoreIndex(t *testing.T) {
	ep := s3env(t)
	seg := damagedStoreIndex(t, t.TempDir())
	b, err := os.ReadFile(seg)
	if err != nil {
		t.Fatal(err)
	}
	s3test.Shared(t).Put(t, "cli", "damaged/a.snii", b)
	const u = "s3://cli/damaged/a.snii"
	for _, args := range [][]string{{u, `"zzqx no such words"`}, {u, `"zzqx no such words"`, "-C", "1"}, {"s3://cli/damaged/", `"zzqx no such words"`}} {
		if r := ok(t, append([]string{"query", "--endpoint", ep}, args...)...); r.stdout != "" {
			t.Errorf("query %q: printed %q", args, r.stdout)
		}
	}
	for _, args := range [][]string{{"query", u, "error"}, {"query", "s3://cli/damaged/", "error"}, {"get", u, "0"}, {"verify", u}} {
		args = append([]string{args[0], "--endpoint", ep}, args[1:]...)
		if r := cli(t, "", args...); r.code != exitFailure || !strings.Contains(r.stderr, "corrupt") {
			t.Errorf("snii %q: exit %d, stderr %q; want 1, corrupt", args, r.code, r.stderr)
		}
	}
}
