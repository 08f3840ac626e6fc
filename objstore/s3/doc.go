// Package s3 reads snii segments from S3-compatible object storage:
// Client.OpenSegment opens an object through an io.ReaderAt that implements
// objstore.ReaderAt, so the reader plans each stage of a query as one round
// of parallel ranged GETs instead of one round trip per read.
//
// # Client
//
// Requests go through minio-go v7 (Apache-2.0): one module with few
// dependencies, against the dozens of modules of aws-sdk-go-v2, and it speaks
// to any S3-compatible endpoint (AWS, MinIO, versitygw, Ceph, R2, ...) with
// path-style addressing and SigV4 signing. Only its low-level ranged GET is
// used; retries are this package's own (minio's are off).
//
// Endpoint, region and credentials come from Config, else from the standard
// environment variables: AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL,
// AWS_REGION / AWS_DEFAULT_REGION (default us-east-1, always set so that no
// request is spent on the bucket's location), AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN.
//
// # Rounds
//
// What a remote query costs is its number of sequential round trips (rounds),
// not its bytes. Opening an object is one round of two parallel requests: the first 16
// bytes (the header) and the last Suffix bytes (tail, directory and the
// metadata groups of most segments), which also give the object's size and
// etag; reader.OpenReaderAt then fetches the metadata groups the
// suffix missed in a second round, if any. Each query stage (dictionary
// blocks, postings heads, doc windows and .prx headers, .prx units) hands
// its ranges to Prefetch, which fetches the ones the cache lacks in one
// round: neighbours closer than Config.Gap become one request, the smallest
// gaps first, as long as the gaps merged add up to no more than the bytes
// asked for; up to Config.Parallel requests run at once.
//
//	query stage ranges --> minus cached --> sort, merge gaps <= Gap within the bytes asked --> GET Range: bytes=a-b  (parallel)
//	                                                                      |
//	ReadAtContext <-- copy from the Cache <-- spans kept (LRU, byte-bounded, shared by objects)
//
// # Failures
//
// Every request has a deadline on progress (Config.ProgressTimeout, default
// DefaultProgressTimeout = 10 s): one that neither sends nor receives a byte
// for that long (connecting, awaiting or reading the response headers,
// reading the body) is canceled and fails with ErrStalled. A request
// failing with a 5xx status, SlowDown, a stall, a connection refused, reset
// or closed before, within or after the response headers, or a truncated
// body is retried (Config.Retries times, jittered exponential backoff from
// Config.RetryDelay), within the caller's context: a read waits at most
// (Retries+1) x ProgressTimeout plus the retry delays, and never past the
// context's deadline, which is the overall deadline of a query (none unless
// the caller sets one). Transport failures are recognized structurally: the
// client's transport is wrapped, and the wrapper records each attempt's
// failures as the HTTP transport reports them, whatever minio-go makes of
// them. A response shorter than its range is never data: after the retries
// it is an error wrapping io.ErrUnexpectedEOF.
//
// Every request after the open carries If-Match with the etag seen then: an
// object replaced meanwhile fails with ErrChanged (kind snii.ErrCorrupt)
// rather than mixing two versions; Client.OpenSegment opens an object
// replaced during its open again. A missing bucket or key is
// snii.ErrNotFound; credentials the server refuses are ErrAccessDenied,
// missing credentials ErrNoCredentials, a malformed endpoint
// snii.ErrInvalidArgument (all three of that kind).
//
// # Uploads
//
// Client.Upload sends a file in one PUT, or as a multipart upload above
// 16 MiB. A process killed during a multipart upload leaves an
// incomplete upload on the server: not an object, but parts stored until
// aborted, by Client.AbortIncomplete (snii clean s3://bucket/prefix) or a
// bucket lifecycle rule (AbortIncompleteMultipartUpload).
package s3
