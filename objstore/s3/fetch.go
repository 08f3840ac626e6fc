package s3

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/objstore"
	"golang.org/x/sync/errgroup"
)

// rng is a byte range [off, off+n).
type rng struct{ off, n int64 }

func (r rng) end() int64 { return r.off + r.n }

// errShortBody marks a response body that ended before its range did.
var errShortBody = errors.New("s3: response body shorter than its range")

// kindOf maps a final request error to the error the package returns: a
// missing bucket or key is snii.ErrNotFound, a changed object snii.ErrCorrupt,
// a truncated body io.ErrUnexpectedEOF; a stall and the rest are wrapped as
// they are.
func (o *object) kindOf(err error, what string) error {
	where := "s3://" + o.bucket + "/" + o.key
	er := minio.ToErrorResponse(err)
	var se *stallError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("%s: %s: %w", where, what, err)
	case errors.Is(err, errShortBody) || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s: %s: truncated response: %w", where, what, io.ErrUnexpectedEOF)
	case denied(er):
		return fmt.Errorf("%s: %s: %w: %s (%s): check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, "+
			"and that they may read the bucket: %w", where, what, ErrAccessDenied, er.Message, er.Code, errs.InvalidArgument)
	case er.Code == minio.NoSuchBucket:
		return errs.Wrapf(errs.NotFound, err, "%s: %s: no bucket %q", where, what, o.bucket)
	case er.Code == minio.NoSuchKey || er.Code == "NotFound" || er.StatusCode == http.StatusNotFound:
		return errs.Wrapf(errs.NotFound, err, "%s: %s: no such key", where, what)
	case er.Code == "PreconditionFailed" || er.StatusCode == http.StatusPreconditionFailed:
		return o.changed(what)
	case er.Code == "InvalidRange" || er.StatusCode == http.StatusRequestedRangeNotSatisfiable:
		return errs.Wrapf(errs.Corrupt, err, "%s: %s: range outside the object", where, what)
	}
	return fmt.Errorf("%s: %s: %w", where, what, err)
}

// changed returns the error of a read of an object replaced since Open.
func (o *object) changed(what string) error {
	return fmt.Errorf("s3://%s/%s: %s: %w (etag %s): run again to read the new version: %w",
		o.bucket, o.key, what, ErrChanged, o.etag, errs.Corrupt)
}

// denied reports whether the server refused the request's credentials or
// their permissions.
func denied(er minio.ErrorResponse) bool {
	switch er.Code {
	case "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "ExpiredToken", "InvalidToken",
		"TokenRefreshRequired", "AllAccessDisabled", "InvalidSecurity", "AuthorizationHeaderMalformed",
		"XAdminUserNotFound": // versitygw's answer (404) to an unknown access key
		return true
	}
	return er.StatusCode == http.StatusForbidden || er.StatusCode == http.StatusUnauthorized
}

// confirmMissing returns notFound, the error of a HEAD request saying that
// a bucket or key does not exist, unless a GET of the bucket's listing (whose
// error has a body, unlike a HEAD's) says the credentials are refused: some
// servers answer 404 to a HEAD with unknown credentials.
func (c *Client) confirmMissing(ctx context.Context, bucket string, notFound error) error {
	er := minio.ToErrorResponse(notFound)
	if er.Code != minio.NoSuchBucket && er.Code != minio.NoSuchKey && er.Code != "NotFound" && er.StatusCode != http.StatusNotFound {
		return notFound
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the listing after its first answer
	info, ok := <-c.mc.ListObjects(ctx, bucket, minio.ListObjectsOptions{MaxKeys: 1})
	if ok && info.Err != nil && denied(minio.ToErrorResponse(info.Err)) {
		return info.Err
	}
	return notFound
}

// retryable reports whether a failed attempt may succeed when repeated: a 5xx
// status, SlowDown and its kin, a truncated body, or a transport failure the
// attempt recorded (a connection refused, reset or closed before, within or
// after the response headers, a stall), except an unknown host or a refused
// certificate.
func retryable(err error, at *attempt) bool {
	er := minio.ToErrorResponse(err)
	switch er.Code {
	case "SlowDown", "ServiceUnavailable", "InternalError", "RequestTimeout", "RequestTimeTooSkewed", "Throttling":
		return true
	}
	if er.StatusCode >= 500 || er.StatusCode == http.StatusTooManyRequests {
		return true
	}
	if errors.Is(err, errShortBody) {
		return true
	}
	if te := at.failure(); te != nil {
		return !permanent(te)
	}
	return false
}

// withRetry runs attempt until it succeeds, fails for good, or the retries
// or ctx run out, sleeping a jittered exponential delay between attempts.
// Each attempt gets a context recording its transport failures. It returns
// the number of attempts made.
func (c *Client) withRetry(ctx context.Context, attempt func(context.Context) error) (int, error) {
	delay := c.cfg.RetryDelay
	for n := 1; ; n++ {
		actx, at := withAttempt(ctx)
		err := attempt(actx)
		if err == nil {
			return n, nil
		}
		if ctx.Err() != nil {
			return n, fmt.Errorf("%w (last attempt: %v)", ctx.Err(), err)
		}
		if te := at.failure(); te != nil && !errors.Is(err, te) {
			err = fmt.Errorf("%w (%w)", err, te) // the transport's own error, whatever the client made of it
		}
		if n > c.cfg.Retries || !retryable(err, at) {
			if n > 1 {
				err = fmt.Errorf("after %d attempts: %w", n, err)
			}
			return n, err
		}
		d := delay/2 + rand.N(delay/2+1)
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return n, fmt.Errorf("%w (last attempt: %v)", ctx.Err(), err)
		case <-t.C:
		}
		delay = min(2*delay, MaxRetryDelay)
	}
}

// get fetches the range r of the object into p (len(p) == r.n), or with a
// negative r.off the last r.n bytes, with retries. It returns the object's
// size (from Content-Range) and etag, and the attempts made and bytes received.
func (o *object) get(ctx context.Context, p []byte, r rng) (size int64, etag string, f objstore.Cost, err error) {
	c := o.c
	n, err := c.withRetry(ctx, func(ctx context.Context) error {
		opts := minio.GetObjectOptions{}
		if o.etag != "" {
			if err := opts.SetMatchETag(o.etag); err != nil {
				return err
			}
		}
		var err error
		if r.off < 0 {
			err = opts.SetRange(0, -r.n)
		} else {
			err = opts.SetRange(r.off, r.end()-1)
		}
		if err != nil {
			return err
		}
		body, info, hdr, err := c.core.GetObject(ctx, o.bucket, o.key, opts)
		if err != nil {
			return err
		}
		defer body.Close()
		var start int64
		start, size, err = contentRange(hdr, info.Size)
		if err != nil {
			return err
		}
		etag = info.ETag
		want, wantStart := int64(len(p)), r.off
		if r.off < 0 {
			want = min(r.n, size)
			wantStart = size - want
		}
		if info.Size < want && start == wantStart {
			return fmt.Errorf("asked %d bytes at %d, the response holds %d: %w", want, wantStart, info.Size, errShortBody)
		}
		if info.Size != want || start != wantStart {
			return fmt.Errorf("s3: asked %d bytes at %d, the response holds %d at %d (%q)", want, wantStart, info.Size, start, hdr.Get("Content-Range"))
		}
		m, err := io.ReadFull(body, p[:want])
		f.Bytes += int64(m)
		var se *stallError
		if errors.As(err, &se) {
			return fmt.Errorf("%d of %d bytes received: %w", m, want, err)
		}
		if err != nil {
			return fmt.Errorf("%d of %d bytes: %w (%w)", m, want, errShortBody, err)
		}
		return nil
	})
	f.Requests += int64(n)
	return size, etag, f, err
}

// contentRange reads the first byte and the object's size from
// "Content-Range: bytes a-b/size"; a response without it holds the whole
// object (of length bytes).
func contentRange(h http.Header, length int64) (start, size int64, err error) {
	cr := h.Get("Content-Range")
	if cr == "" {
		return 0, length, nil
	}
	bad := fmt.Errorf("s3: bad Content-Range %q", cr)
	rest, ok := strings.CutPrefix(cr, "bytes ")
	if !ok {
		return 0, 0, bad
	}
	a, rest, ok1 := strings.Cut(rest, "-")
	_, total, ok2 := strings.Cut(rest, "/")
	if !ok1 || !ok2 {
		return 0, 0, bad
	}
	start, err1 := strconv.ParseInt(a, 10, 64)
	size, err2 := strconv.ParseInt(total, 10, 64)
	if err1 != nil || err2 != nil || start < 0 || size < 0 {
		return 0, 0, bad
	}
	return start, size, nil
}

// plan merges sorted, disjoint ranges into requests: ranges that touch, then
// the gaps between neighbours smallest first, each at most gap bytes, while
// the gap bytes merged stay within the bytes asked for (a round fetches at
// most twice what it needs, in as few requests as that allows), and past
// that while there are more than maxReqs requests.
func plan(rs []rng, gap int64, maxReqs int) []rng {
	if len(rs) == 0 {
		return nil
	}
	var asked int64
	idx := make([]int, 0, len(rs)-1) // gap i lies between rs[i] and rs[i+1]
	for i, r := range rs {
		asked += r.n
		if i+1 < len(rs) {
			idx = append(idx, i)
		}
	}
	gapAt := func(i int) int64 { return rs[i+1].off - rs[i].end() }
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(gapAt(a), gapAt(b)) })
	merge := make([]bool, len(rs))
	var spent int64
	reqs := len(rs)
	for _, i := range idx {
		d := max(gapAt(i), 0)
		if d > gap || (spent+d > asked && reqs <= maxReqs) {
			break
		}
		spent += d
		merge[i] = true
		reqs--
	}
	var out []rng
	for i, r := range rs {
		if k := len(out) - 1; k >= 0 && merge[i-1] {
			out[k].n = max(out[k].end(), r.end()) - out[k].off
			continue
		}
		out = append(out, r)
	}
	return out
}

// fetchAll runs the requests in parallel (at most Config.Parallel at once),
// keeping each range's bytes in the cache; the first failure cancels the rest.
// It counts one round.
func (o *object) fetchAll(ctx context.Context, reqs []rng) (objstore.Cost, error) {
	if len(reqs) == 0 {
		return objstore.Cost{}, nil
	}
	total := objstore.Cost{Rounds: 1}
	var mu sync.Mutex
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(o.c.cfg.Parallel)
	for _, r := range reqs {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err // an earlier request failed: send no more
			}
			buf := make([]byte, r.n)
			_, _, f, err := o.get(ctx, buf, r)
			mu.Lock()
			total.Requests += f.Requests
			total.Bytes += f.Bytes
			mu.Unlock()
			if err != nil {
				return o.kindOf(err, fmt.Sprintf("read [%d, +%d)", r.off, r.n))
			}
			o.c.cache.add(o.id, r.off, buf)
			return nil
		})
	}
	return total, g.Wait()
}

// sortRngs sorts ranges by offset (plan merges the overlapping ones).
func sortRngs(rs []rng) {
	slices.SortFunc(rs, func(a, b rng) int { return cmp.Compare(a.off, b.off) })
}
