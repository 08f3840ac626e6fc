package s3test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Fault is what the proxy does to one request.
type Fault int

const (
	// Pass forwards the request and its answer untouched.
	Pass Fault = iota
	// SlowDown answers 503 with the S3 SlowDown error, without forwarding.
	SlowDown
	// InternalError answers 500 InternalError, without forwarding.
	InternalError
	// Reset closes the connection (with a TCP reset) before answering.
	Reset
	// Truncate forwards, sends the headers and half the body, then drops the
	// connection.
	Truncate
	// ShortBody forwards, declares a Content-Length of half the body and
	// sends that half: a complete but short response.
	ShortBody
	// Drop closes the connection (an orderly FIN) before answering.
	Drop
	// DropInHeaders sends the start of the response headers, then closes
	// the connection.
	DropInHeaders
	// StallHeaders sends the start of the response headers, then sends
	// nothing more until the client gives up (or the proxy closes).
	StallHeaders
	// StallBody forwards, sends the headers and the first StallAfter bytes
	// of the body, then sends nothing more until the client gives up.
	StallBody
)

// StallAfter is how many body bytes StallBody sends before it stalls.
const StallAfter = 1000

// partialHeaders is the start of a response that DropInHeaders and
// StallHeaders send.
const partialHeaders = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"

// Proxy is a loopback HTTP proxy in front of a server that adds latency and
// faults. Choose decides each request's fault from its number (1, 2, ...)
// and the request; nil passes everything.
type Proxy struct {
	URL     string
	Latency atomic.Int64 // nanoseconds added before each request is answered
	Choose  func(n int64, r *http.Request) Fault

	requests atomic.Int64
	faults   atomic.Int64
	srv      *httptest.Server
	tr       *http.Transport
	upstream string

	mu     sync.Mutex
	held   map[net.Conn]bool // hijacked connections, closed by Close
	closed chan struct{}
}

// NewProxy starts a proxy in front of the endpoint (http://host:port).
func NewProxy(endpoint string) *Proxy {
	p := &Proxy{upstream: endpoint, tr: &http.Transport{MaxIdleConnsPerHost: 64}, held: map[net.Conn]bool{}, closed: make(chan struct{})}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	p.URL = p.srv.URL
	return p
}

// Requests returns the requests received, Faults those given a fault.
func (p *Proxy) Requests() int64 { return p.requests.Load() }

// Faults returns the requests that were given a fault.
func (p *Proxy) Faults() int64 { return p.faults.Load() }

// Close stops the proxy and closes its connections.
func (p *Proxy) Close() {
	p.mu.Lock()
	select {
	case <-p.closed:
	default:
		close(p.closed)
	}
	for c := range p.held {
		c.Close()
	}
	p.mu.Unlock()
	p.srv.CloseClientConnections()
	p.srv.Close()
	p.tr.CloseIdleConnections()
}

func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	n := p.requests.Add(1)
	if d := time.Duration(p.Latency.Load()); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	f := Pass
	if p.Choose != nil {
		f = p.Choose(n, r)
	}
	if f != Pass {
		p.faults.Add(1)
	}
	switch f {
	case SlowDown:
		writeError(w, http.StatusServiceUnavailable, "SlowDown", "Please reduce your request rate.")
		return
	case InternalError:
		writeError(w, http.StatusInternalServerError, "InternalError", "injected")
		return
	case Reset:
		hj, ok := w.(http.Hijacker)
		if !ok {
			panic(http.ErrAbortHandler)
		}
		c, _, err := hj.Hijack()
		if err == nil {
			if tc, ok := c.(*net.TCPConn); ok {
				tc.SetLinger(0) // RST instead of FIN
			}
			c.Close()
		}
		return
	case Drop, DropInHeaders, StallHeaders:
		c, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer c.Close()
		if f == Drop {
			return
		}
		if _, err := io.WriteString(c, partialHeaders); err != nil || f == DropInHeaders {
			return
		}
		p.hold(c)
		return
	}
	out, err := http.NewRequestWithContext(r.Context(), r.Method, p.upstream+r.URL.RequestURI(), r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	out.Header = r.Header.Clone()
	out.Host = r.Host // the signature covers the host the client saw
	out.ContentLength = r.ContentLength
	resp, err := p.tr.RoundTrip(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	switch f {
	case StallBody:
		w.WriteHeader(resp.StatusCode)
		if _, err := io.CopyN(w, resp.Body, StallAfter); err != nil {
			return
		}
		w.(http.Flusher).Flush()
		select { // until the client closes the connection, or Close
		case <-r.Context().Done():
		case <-p.closed:
		}
		panic(http.ErrAbortHandler)
	case Truncate, ShortBody:
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			panic(http.ErrAbortHandler)
		}
		half := body[:len(body)/2]
		if f == ShortBody {
			w.Header().Set("Content-Length", strconv.Itoa(len(half)))
		}
		w.WriteHeader(resp.StatusCode)
		w.Write(half)
		if f == Truncate {
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler) // drops the connection mid-body
		}
		return
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// hold keeps a hijacked connection open, sending nothing, until the client
// closes it or the proxy closes.
func (p *Proxy) hold(c net.Conn) {
	p.mu.Lock()
	select {
	case <-p.closed:
		p.mu.Unlock()
		return
	default:
	}
	p.held[c] = true
	p.mu.Unlock()
	io.Copy(io.Discard, c) // returns when either side closes
	p.mu.Lock()
	delete(p.held, c)
	p.mu.Unlock()
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(status)
	io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>`+code+`</Code><Message>`+msg+`</Message></Error>`)
}
