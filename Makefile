# snii — build, test, demo, fuzz, bench.
GO        ?= go
PKGS      := ./...
FUZZTIME  ?= 30000x
LONGFUZZ  ?= 2m
STATICCHECK ?= $(shell command -v staticcheck 2>/dev/null || echo $$($(GO) env GOPATH)/bin/staticcheck)

.PHONY: all build test test-long ci vet staticcheck unit race fuzz-smoke fuzz bench demo clean

all: build

# bin/snii is linked statically (no cgo): a process starts without the
# dynamic loader and libc, and every query is a process. It is built without
# S3 (-tags nos3: no minio-go to initialize in every process) and hands the
# command lines naming s3:// paths to bin/snii-s3, the full build beside it.
build:
	$(GO) build ./...
	CGO_ENABLED=0 $(GO) build -tags nos3 -o bin/snii ./cmd/snii
	CGO_ENABLED=0 $(GO) build -o bin/snii-s3 ./cmd/snii

vet:
	$(GO) vet ./...
	$(GO) vet -tags nos3 ./cmd/snii
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || (echo "gofmt needed:"; gofmt -l .; exit 1)

# staticcheck is installed on first use (pinned), so `make test` works on a fresh machine.
staticcheck:
	@test -x "$(STATICCHECK)" || $(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2
	$(STATICCHECK) ./...

# make test: what a contributor runs before sending a change, within five minutes on a quiet
# 2-core machine from a fresh clone (docs/bench/docs.md): vet and gofmt, staticcheck, and every
# package's tests once with -short (each fuzz target runs its seed corpus).
test: vet staticcheck unit

unit:
	$(GO) test -short -count=1 -timeout 30m $(PKGS)

# make test-long: what CI runs after make test. Every package under the race detector without
# -short (the full corruption strides, the corpus, generator and binary tests, the rewrite-in-place
# loops for $$SNII_FAULT_LOOP), then every fuzz target for FUZZTIME executions.
test-long: race fuzz-smoke

race:
	$(GO) test -race -count=1 -timeout 45m $(PKGS)

# Both tiers, as .ci/run runs them.
ci: test test-long

# Every fuzz target, FUZZTIME each: an execution count (Nx) in CI, never a duration
# (see scripts/fuzz.sh for why); `make fuzz` runs each for LONGFUZZ.
fuzz-smoke:
	@./scripts/fuzz.sh $(FUZZTIME)

fuzz:
	@./scripts/fuzz.sh $(LONGFUZZ)

bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 6 ./internal/codec/prx/... ./reader/... ./writer/...

demo:
	@./scripts/demo.sh

clean:
	rm -rf bin out

# Side-by-side benchmarks against bleve (and Lucene 8.8.1 when installed: bench/setup-lucene.sh),
# oracle-checked; reports land in docs/bench/peers. One corpus takes 6-10 minutes.
PEERS_CORPORA ?= agent service
PEERS_CYCLES  ?= 10
PEERS_FLAGS   ?=
# bench-peers-scale: the agent logs at four and sixteen copies (PEERS_COPIES), the scales every
# performance target names (x16 takes about 30 minutes).
PEERS_COPIES  ?= 4 16
.PHONY: bench-peers bench-peers-scale bench-store
bench-peers:
	@for c in $(PEERS_CORPORA); do (cd bench && $(GO) run ./cmd/peers -corpus $$c -cycles $(PEERS_CYCLES) $(PEERS_FLAGS) -out ../docs/bench/peers) || exit 1; done

bench-peers-scale:
	@for n in $(PEERS_COPIES); do (cd bench && $(GO) run ./cmd/peers -corpus agent -copies $$n -cycles $(PEERS_CYCLES) $(PEERS_FLAGS) -out ../docs/bench/peers) || exit 1; done

# Stored records against Lucene's stored fields (sizes, and count + first 20 records of each phrase).
bench-store:
	@for c in $(PEERS_CORPORA); do (cd bench && $(GO) run ./cmd/peers store -corpus $$c -out ../docs/bench/store) || exit 1; done
