package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

// Sizes of the demo corpus.
const (
	LogLines    = 3000
	EventLines  = 500
	logFileName = "app.log"
	evtFileName = "events.jsonl"
)

func main() {
	out := flag.String("o", "testdata/demo", "output directory")
	flag.Parse()
	if err := write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gendemo:", err)
		os.Exit(1)
	}
}

func write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{logFileName: Logs(LogLines), evtFileName: Events(EventLines)}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// rng is SplitMix64: tiny, well mixed, and fixed forever.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a value in [0, n) (modulo bias is irrelevant here).
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

func (r *rng) pick(s []string) string { return s[r.intn(len(s))] }

// weighted picks index i with probability w[i]/sum(w).
func (r *rng) weighted(w []int) int {
	sum := 0
	for _, x := range w {
		sum += x
	}
	v := r.intn(sum)
	for i, x := range w {
		if v < x {
			return i
		}
		v -= x
	}
	return len(w) - 1
}

var (
	users    = []string{"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "zoë", "jürgen", "søren"}
	services = []string{"api-gateway", "auth", "orders", "payments", "inventory", "search", "notifier", "scheduler"}
	paths    = []string{"/api/v1/orders", "/api/v1/orders/%d", "/api/v1/users/%d", "/api/v1/users/%d/profile", "/api/v1/cart", "/api/v1/search?q=%s", "/api/v1/inventory/%d", "/healthz", "/metrics"}
	words    = []string{"shoes", "laptop", "coffee", "bike", "lamp", "desk", "phone", "camera"}
	jobs     = []string{"email-digest", "thumbnail-resize", "invoice-export", "cache-warmup", "report-nightly"}
	regions  = []string{"eu-west", "eu-central", "us-east", "ap-south"}
	dbs      = []string{"db-1", "db-2", "db-3", "replica-1"}
	tables   = []string{"orders", "customers", "payments", "inventory", "sessions"}
	reasons  = []string{"card declined", "insufficient funds", "expired card", "fraud suspected"}
)

// clock is a fake, monotone clock starting at a fixed instant.
type clock struct{ ms int64 }

func (c *clock) tick(r *rng) string {
	c.ms += int64(5 + r.intn(900))
	const start = 1709625600 // 2024-03-05T08:00:00Z
	sec := start + c.ms/1000
	days := sec / 86400
	rem := sec % 86400
	// Civil date from days since 1970-01-01 (valid for this range of dates).
	y, m, d := civil(days)
	return fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", y, m, d, rem/3600, rem%3600/60, rem%60, c.ms%1000)
}

// civil converts days since the Unix epoch to a proleptic Gregorian date.
func civil(z int64) (y, m, d int64) {
	z += 719468
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

func ip(r *rng) string {
	return fmt.Sprintf("10.%d.%d.%d", r.intn(4), r.intn(16), 1+r.intn(254))
}

func path(r *rng) string {
	p := r.pick(paths)
	switch {
	case bytes.Contains([]byte(p), []byte("%d")):
		return fmt.Sprintf(p, 1000+r.intn(9000))
	case bytes.Contains([]byte(p), []byte("%s")):
		return fmt.Sprintf(p, r.pick(words))
	}
	return p
}

// message returns a level, a service and a message of one of the families.
func message(r *rng) (level, service, msg string) {
	u := r.pick(users)
	order := 40000 + r.intn(20000)
	switch r.weighted([]int{40, 10, 14, 10, 10, 10, 6}) {
	case 0:
		status := []int{200, 200, 200, 200, 200, 201, 204, 301, 404, 500, 503}[r.intn(11)]
		level = "INFO"
		if status >= 500 {
			level = "ERROR"
		} else if status >= 400 {
			level = "WARN"
		}
		method := []string{"GET", "GET", "GET", "POST", "PUT", "DELETE"}[r.intn(6)]
		return level, "api-gateway", fmt.Sprintf("request_id=%08x %s %s status=%d duration=%dms user=%s", uint32(r.next()), method, path(r), status, 1+r.intn(800), u)
	case 1:
		switch r.intn(4) {
		case 0, 1:
			return "INFO", "auth", fmt.Sprintf("user %s logged in from %s", u, ip(r))
		case 2:
			return "WARN", "auth", fmt.Sprintf("login failed for user %s: invalid password (attempt %d of 5)", u, 1+r.intn(5))
		default:
			return "INFO", "auth", fmt.Sprintf("session expired for user %s after %d minutes", u, 15+r.intn(45))
		}
	case 2:
		db := r.pick(dbs)
		switch r.intn(5) {
		case 0, 1:
			return "DEBUG", "orders", fmt.Sprintf("query took %dms: SELECT * FROM %s WHERE customer_id = %d", 1+r.intn(400), r.pick(tables), 1000+r.intn(9000))
		case 2:
			return "ERROR", "orders", fmt.Sprintf("connection refused to %s:5432, retrying in %ds", db, 1+r.intn(10))
		case 3:
			return "WARN", "orders", fmt.Sprintf("connection pool exhausted (max=%d) on %s", []int{20, 50, 100}[r.intn(3)], db)
		default:
			return "WARN", "orders", fmt.Sprintf("deadlock detected on table %s, retrying transaction %d of 3", r.pick(tables), 1+r.intn(3))
		}
	case 3:
		if r.intn(3) == 0 {
			return "ERROR", "payments", fmt.Sprintf("payment failed: %s for order %d user=%s", r.pick(reasons), order, u)
		}
		return "INFO", "payments", fmt.Sprintf("payment succeeded for order %d amount=%d.%02d EUR user=%s", order, 5+r.intn(500), r.intn(100), u)
	case 4:
		if r.intn(4) == 0 {
			return "INFO", "search", fmt.Sprintf("cache hit ratio %d.%02d over the last 60s", r.intn(2), r.intn(100))
		}
		return "DEBUG", "search", fmt.Sprintf("cache miss for key user:%d:profile", 1000+r.intn(9000))
	case 5:
		j := r.pick(jobs)
		switch r.intn(5) {
		case 0, 1:
			return "INFO", "scheduler", fmt.Sprintf("job %s started on worker-%d", j, r.intn(8))
		case 2, 3:
			return "INFO", "scheduler", fmt.Sprintf("job %s finished in %d.%ds", j, r.intn(60), r.intn(10))
		default:
			return "ERROR", "scheduler", fmt.Sprintf("job %s failed: out of memory on worker-%d", j, r.intn(8))
		}
	default:
		svc := r.pick(services[2:])
		return "ERROR", "api-gateway", fmt.Sprintf("upstream request timed out after %ds (service=%s region=%s)", []int{5, 10, 30}[r.intn(3)], svc, r.pick(regions))
	}
}

// Logs returns n log lines: "<time> <LEVEL> <service> <message>".
func Logs(n int) []byte {
	r := &rng{s: 20240305}
	c := &clock{}
	var b bytes.Buffer
	for range n {
		level, svc, msg := message(r)
		fmt.Fprintf(&b, "%s %-5s %s %s\n", c.tick(r), level, svc, msg)
	}
	return b.Bytes()
}

// js renders v as JSON (strings, string slices: cannot fail).
func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // unreachable for the values used here
	}
	return string(b)
}

// Events returns n JSON lines with nested and repeated fields: msg, user.name
// (nested), tags (an array of strings), and non-string values.
func Events(n int) []byte {
	r := &rng{s: 42}
	c := &clock{}
	var b bytes.Buffer
	for i := range n {
		level, svc, msg := message(r)
		u := r.pick(users)
		tags := []string{r.pick(regions)}
		if r.intn(4) == 0 {
			tags = append(tags, "canary")
		}
		if level == "ERROR" {
			tags = append(tags, "alert")
		}
		ok := level != "ERROR"
		fmt.Fprintf(&b, `{"ts":%s,"seq":%d,"level":%s,"service":%s,"msg":%s,"user":{"name":%s,"id":%d},"tags":%s,"latency_ms":%d,"ok":%t}`+"\n",
			js(c.tick(r)), i, js(level), js(svc), js(msg), js(u), 1000+r.intn(9000), js(tags), 1+r.intn(2000), ok)
	}
	return b.Bytes()
}
