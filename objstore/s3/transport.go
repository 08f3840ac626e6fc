package s3

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// watchTransport is the http.RoundTripper every request of a Client goes
// through: it wraps the configured transport to give each request a deadline
// on progress, and to record its transport failures where the request's
// attempt (if any) can see them, whatever the client above makes of them.
//
// The progress deadline: a request that neither sends nor receives a byte for
// stall (while its request body is sent, while the response headers are
// awaited, while its body is read) is canceled, and fails with ErrStalled.
type watchTransport struct {
	next  http.RoundTripper
	stall time.Duration
}

// attemptKey is the context key of an *attempt.
type attemptKey struct{}

// attempt is what the transport saw of one attempt of a request: the first
// transport failure (no response, a body that failed before its end, a
// stall), or nil.
type attempt struct {
	mu  sync.Mutex
	err error
}

// withAttempt returns a context whose requests record their transport
// failures in a new attempt.
func withAttempt(ctx context.Context) (context.Context, *attempt) {
	at := &attempt{}
	return context.WithValue(ctx, attemptKey{}, at), at
}

func (a *attempt) fail(err error) {
	if a == nil {
		return
	}
	a.mu.Lock()
	if a.err == nil {
		a.err = err
	}
	a.mu.Unlock()
}

// failure returns the attempt's transport failure, or nil.
func (a *attempt) failure() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

// ErrStalled is the cause of a request that received (or sent) nothing for
// its progress deadline (Config.ProgressTimeout), for errors.Is. A stall is
// retried like a reset connection; after the retries the error is a
// net.Error whose Timeout is true.
var ErrStalled = errors.New("S3 request stalled")

// stallError is a request's failure to make progress for deadline.
type stallError struct {
	deadline time.Duration
}

func (e *stallError) Error() string {
	return fmt.Sprintf("s3: no progress for %v (the server stopped sending)", e.deadline)
}

// Is reports whether target is ErrStalled.
func (e *stallError) Is(target error) bool { return target == ErrStalled }

// Timeout reports true: a stall is a timeout (net.Error).
func (e *stallError) Timeout() bool { return true }

// Temporary reports true (net.Error).
func (e *stallError) Temporary() bool { return true }

var _ net.Error = (*stallError)(nil)

// watchdog cancels a request when its timer runs out; progress rearms it.
type watchdog struct {
	d      time.Duration
	timer  *time.Timer
	ctx    context.Context
	cancel context.CancelCauseFunc
}

func (w *watchdog) progress() { w.timer.Reset(w.d) }

// done stops the timer and releases the request's context.
func (w *watchdog) done() {
	w.timer.Stop()
	w.cancel(nil)
}

// cause returns the stall error when the watchdog fired, else err.
func (w *watchdog) cause(err error) error {
	var se *stallError
	if c := context.Cause(w.ctx); errors.As(c, &se) {
		return se
	}
	return err
}

func (t *watchTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	at, _ := req.Context().Value(attemptKey{}).(*attempt)
	ctx, cancel := context.WithCancelCause(req.Context())
	w := &watchdog{d: t.stall, ctx: ctx, cancel: cancel}
	stall := &stallError{deadline: t.stall}
	w.timer = time.AfterFunc(t.stall, func() { cancel(stall) })
	req = req.WithContext(ctx)
	if req.Body != nil && req.Body != http.NoBody {
		req.Body = &watchedBody{rc: req.Body, w: w}
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		err = w.cause(err)
		w.done()
		at.fail(err)
		return nil, err
	}
	w.progress()
	resp.Body = &watchedBody{rc: resp.Body, w: w, at: at, resp: true}
	return resp, nil
}

// CloseIdleConnections closes the idle connections of the wrapped transport.
func (t *watchTransport) CloseIdleConnections() {
	if c, ok := t.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// watchedBody is a request or response body whose bytes rearm the watchdog;
// a response body's failures (anything but io.EOF) are recorded in its
// attempt, and its Close ends the watch.
type watchedBody struct {
	rc   io.ReadCloser
	w    *watchdog
	at   *attempt
	resp bool
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.w.progress()
	}
	if err != nil && err != io.EOF && b.resp {
		err = b.w.cause(err)
		b.at.fail(err)
	}
	return n, err
}

func (b *watchedBody) Close() error {
	err := b.rc.Close()
	if b.resp {
		b.w.done()
	}
	return err
}

// permanent reports whether a transport failure cannot be cured by repeating
// the request: an unknown host or a certificate the client refuses.
func permanent(err error) bool {
	var dns *net.DNSError
	var cv *tls.CertificateVerificationError
	var ua x509.UnknownAuthorityError
	var he x509.HostnameError
	var ci x509.CertificateInvalidError
	var rh tls.RecordHeaderError
	return errors.As(err, &dns) && dns.IsNotFound || errors.As(err, &cv) || errors.As(err, &ua) ||
		errors.As(err, &he) || errors.As(err, &ci) || errors.As(err, &rh)
}
