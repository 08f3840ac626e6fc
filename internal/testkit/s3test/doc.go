// Package s3test runs a real S3 server for tests: versitygw (Apache-2.0) on
// loopback over a POSIX directory, and a loopback proxy in front of it that
// injects faults (latency, 503 SlowDown, reset and dropped connections,
// stalls in the headers and the body, truncated bodies).
//
// Tests skip when the versitygw binary is absent, with a message saying how
// to install it, except under CI (CI=true), where its absence is a failure.
package s3test
