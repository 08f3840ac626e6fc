package s3

import (
	"errors"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"github.com/snii-go/snii/internal/errs"
)

// Defaults of Config.
const (
	// DefaultRegion is the region used when neither Config.Region nor
	// AWS_REGION / AWS_DEFAULT_REGION is set. A region is always set, so the
	// client never spends a round trip asking the bucket where it lives.
	DefaultRegion = "us-east-1"
	// DefaultEndpoint is the endpoint used when neither Config.Endpoint nor
	// AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL is set.
	DefaultEndpoint = "https://s3.amazonaws.com"
	// DefaultRetries is the number of retries of one request (Config.Retries).
	DefaultRetries = 4
	// DefaultRetryDelay is the first retry's delay; each further retry doubles
	// it (with jitter), up to MaxRetryDelay.
	DefaultRetryDelay = 50 * time.Millisecond
	// MaxRetryDelay caps the delay between two attempts.
	MaxRetryDelay = 2 * time.Second
	// DefaultProgressTimeout is the progress deadline of a request
	// (Config.ProgressTimeout): far above the first-byte latency of object
	// stores under load (tens to hundreds of milliseconds, rarely seconds),
	// short enough that a stalled server costs seconds, not a hang.
	DefaultProgressTimeout = 10 * time.Second
	// DefaultParallel is the number of requests of one round run at once.
	DefaultParallel = 16
	// DefaultGap is the largest gap between two ranges of a round fetched as
	// one request (see docs/BENCHMARKS.md for its measurement).
	DefaultGap = 16 << 10
	// DefaultSuffix is the length of the object's end fetched by OpenSegment in its
	// first round: the tail, the directory and the metadata groups of most
	// segments fit in it (opening then needs no second round).
	DefaultSuffix = 256 << 10
)

// Config says where the object store is and how to talk to it. The zero value
// takes everything from the environment (see Resolve).
type Config struct {
	// Endpoint is the S3 endpoint URL ("http://127.0.0.1:7070",
	// "https://s3.eu-west-1.amazonaws.com"); a bare "host:port" means https.
	// "" means AWS_ENDPOINT_URL_S3, then AWS_ENDPOINT_URL, then DefaultEndpoint.
	Endpoint string
	// Region; "" means AWS_REGION, then AWS_DEFAULT_REGION, then DefaultRegion.
	Region string
	// AccessKeyID, SecretAccessKey and SessionToken: "" means AWS_ACCESS_KEY_ID,
	// AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN.
	AccessKeyID, SecretAccessKey, SessionToken string
	// Anonymous sends unsigned requests (public buckets): no credentials needed.
	Anonymous bool
	// Retries is the number of retries of a read failing with a 5xx status,
	// SlowDown, a stall, a connection refused, reset or closed, or a
	// truncated body: 0 means DefaultRetries, negative none.
	Retries int
	// RetryDelay is the first retry's delay (0: DefaultRetryDelay).
	RetryDelay time.Duration
	// ProgressTimeout is the progress deadline of every request: one that
	// neither sends nor receives a byte for this long (connecting, waiting
	// for or reading the response headers, reading the body) is canceled
	// and fails with ErrStalled, which reads retry (0:
	// DefaultProgressTimeout). A read thus waits at most (Retries+1) x
	// ProgressTimeout plus the retry delays; the caller's context bounds
	// the whole call.
	ProgressTimeout time.Duration
	// Parallel bounds the requests of one round run at once (0: DefaultParallel).
	Parallel int
	// Gap is the largest gap between two ranges of a round fetched as one
	// request (0: DefaultGap; negative: never merge ranges that do not touch).
	// The gaps of a round merged into its requests add up to at most the
	// bytes it asks for.
	Gap int64
	// Suffix is how much of an object's end OpenSegment fetches in its first
	// round (0: DefaultSuffix).
	Suffix int64
	// Transport carries the requests (nil: a default transport of this client).
	Transport http.RoundTripper
}

// ErrNoCredentials is wrapped (with snii.ErrInvalidArgument) by the error of
// New when no credentials were given or found in the environment.
var ErrNoCredentials = errors.New("no S3 credentials")

// ErrAccessDenied is wrapped (with snii.ErrInvalidArgument) by the error of
// a request the server refused: an unknown access key, a wrong secret, an
// expired token, or credentials without the permission.
var ErrAccessDenied = errors.New("S3 access denied")

// ErrChanged is wrapped (with snii.ErrCorrupt: the bytes of one version
// cannot be trusted with the other's) by the error of a read of an object
// replaced on the server since it was opened. Nothing of the new version was
// read as the old one; opening the object again reads the new version
// (Client.OpenSegment does so itself when the object changes while it opens).
var ErrChanged = errors.New("S3 object changed since it was opened")

// resolved is a Config with every default and environment variable applied.
type resolved struct {
	Config
	secure bool
	host   string // host[:port] of the endpoint
}

// env reads an environment variable (a variable so tests can replace it).
var env = os.Getenv

// resolve applies the environment and the defaults, and checks the endpoint
// and the credentials: a bad endpoint or missing credentials are errors of
// kind snii.ErrInvalidArgument.
func (c Config) resolve() (resolved, error) {
	r := resolved{Config: c}
	if r.Endpoint == "" {
		r.Endpoint = firstNonEmpty(env("AWS_ENDPOINT_URL_S3"), env("AWS_ENDPOINT_URL"), DefaultEndpoint)
	}
	if r.Region == "" {
		r.Region = firstNonEmpty(env("AWS_REGION"), env("AWS_DEFAULT_REGION"), DefaultRegion)
	}
	if !r.Anonymous {
		if r.AccessKeyID == "" && r.SecretAccessKey == "" {
			r.AccessKeyID, r.SecretAccessKey = env("AWS_ACCESS_KEY_ID"), env("AWS_SECRET_ACCESS_KEY")
			if r.SessionToken == "" {
				r.SessionToken = env("AWS_SESSION_TOKEN")
			}
		}
		if r.AccessKeyID == "" || r.SecretAccessKey == "" {
			return r, errs.Wrapf(errs.InvalidArgument, ErrNoCredentials, "s3: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY "+
				"(and AWS_SESSION_TOKEN for temporary ones), or pass them explicitly; public buckets need anonymous access")
		}
	}
	if r.Retries == 0 {
		r.Retries = DefaultRetries
	} else if r.Retries < 0 {
		r.Retries = 0
	}
	if r.RetryDelay <= 0 {
		r.RetryDelay = DefaultRetryDelay
	}
	if r.ProgressTimeout <= 0 {
		r.ProgressTimeout = DefaultProgressTimeout
	}
	if r.Parallel <= 0 {
		r.Parallel = DefaultParallel
	}
	if r.Gap == 0 {
		r.Gap = DefaultGap
	} else if r.Gap < 0 {
		r.Gap = 0
	}
	ep := r.Endpoint
	if !strings.Contains(ep, "://") {
		ep = "https://" + ep
	}
	u, err := url.Parse(ep)
	if err != nil {
		return r, errs.Invalidf("s3: endpoint %q: %v", r.Endpoint, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return r, errs.Invalidf("s3: endpoint %q: scheme %q (want http or https)", r.Endpoint, u.Scheme)
	}
	if u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil {
		return r, errs.Invalidf("s3: endpoint %q: want scheme://host[:port] and nothing else", r.Endpoint)
	}
	r.secure, r.host = u.Scheme == "https", u.Host
	return r, nil
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// newMinio builds the minio client of a resolved config. minio's own retries
// are off: this package retries, with its own bound and backoff. Its
// transport is the configured one inside a watchTransport (progress
// deadlines, transport failures recorded for retryable).
func (r resolved) newMinio() (*minio.Client, error) {
	creds := credentials.NewStaticV4(r.AccessKeyID, r.SecretAccessKey, r.SessionToken)
	if r.Anonymous {
		creds = credentials.New(&credentials.Static{Value: credentials.Value{SignerType: credentials.SignatureAnonymous}})
	}
	tr := r.Transport
	if tr == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64
		tr = t
	}
	tr = &watchTransport{next: tr, stall: r.ProgressTimeout}
	mc, err := minio.New(r.host, &minio.Options{
		Creds:        creds,
		Secure:       r.secure,
		Region:       r.Region,
		Transport:    tr,
		BucketLookup: minio.BucketLookupPath,
		MaxRetries:   1,
	})
	if err != nil {
		return nil, errs.Invalidf("s3: endpoint %q: %v", r.Endpoint, err)
	}
	return mc, nil
}
