# decodebench — build, demo, test.
#
#   make demo   build, provide llama-server and the synthetic models, run the
#               shipped llama.cpp scenario to a record in docs/benchmark_results
#   make test   every test, end-to-end ones against the real llama-server included

GO      ?= go
BIN     := bin/decodebench
MODELS  := .cache/models
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
COMMIT  := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT)
# Resolved when a recipe needs it: llama-server on PATH, else the private
# install under .cache/llama.cpp (scripts/install-llama-server.sh).
LLAMA_SERVER = $(shell scripts/install-llama-server.sh)

.PHONY: build demo test soak ladder lint bench fuzz models llama-server clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/decodebench

models: $(MODELS)/target.gguf $(MODELS)-chaotic/target.gguf

# The default pair: small layer weights, greedy output loops, drafts are
# accepted about half the time and outputs stay byte-identical.
$(MODELS)/target.gguf: cmd/synthgguf/*.go synthmodel/*.go gguf/*.go
	$(GO) run ./cmd/synthgguf -out $(MODELS)

# Larger layer weights: chaotic greedy output, on which draft-model
# speculation diverges from classic decode (used by the identity tests).
$(MODELS)-chaotic/target.gguf: cmd/synthgguf/*.go synthmodel/*.go gguf/*.go
	$(GO) run ./cmd/synthgguf -out $(MODELS)-chaotic -layer-std 0.08

llama-server:
	@scripts/install-llama-server.sh >/dev/null

# The verdict and its reasons are printed by decodebench. VALID (exit 0)
# and INCONCLUSIVE (exit 2: an honest "this host is too noisy") are a
# demo that worked; REJECTED (3) and FAILED (1) fail it.
DEMO_RUN = LLAMA_SERVER="$(LLAMA_SERVER)" MODEL_DIR=$(MODELS) ./$(BIN) run llamacpp-speculative
demo: build models llama-server
	@$(DEMO_RUN); rc=$$?; case $$rc in \
		0) ;; \
		2) echo "demo: the verdict is INCONCLUSIVE on this host (reasons above); the demo itself worked." ;; \
		*) echo "demo: decodebench exited $$rc" >&2; exit $$rc ;; \
	esac

# The packages other than e2e run as go test runs them by default, as many
# at once as the machine has cores (about 6m40s on the 2-core VM, CPU
# bound: more at once is slower): some start a real llama-server, none
# judges its timing or the quiet of the host.
# The end-to-end tests do: they time a real engine and check that the
# host was quiet while they did, and other test binaries running beside
# them on a 2-core machine would (rightly) fail that check. So the e2e
# package runs last and on its own, with -v: each test's start and end
# (with its time) and a line a minute with the time left stream as they
# happen (about 8.5 minutes on the 2-core VM).
TEST_ENV = DECODEBENCH_LLAMA_SERVER="$(LLAMA_SERVER)" DECODEBENCH_MODELS="$(CURDIR)/$(MODELS)" \
	DECODEBENCH_CHAOTIC_MODELS="$(CURDIR)/$(MODELS)-chaotic"
test: build models llama-server
	./$(BIN) check $$(ls docs/benchmark_results/*.md | grep -v '/README.md$$')
	$(TEST_ENV) $(GO) test -count=1 -timeout 30m $$($(GO) list ./... | grep -v '/e2e$$')
	$(TEST_ENV) $(GO) test -count=1 -v -timeout 60m ./e2e

# The suite N times in a row beside a busy loop holding one core
# (scripts/soak.sh): each run's result and wall time, then a summary.
N ?= 10
soak:
	scripts/soak.sh $(N)

# The known-slowdown ladder of issue 18 (scripts/ladder.sh): campaigns of
# at most 5 minutes against llama-server held stopped 0, 3, 5 and 10% of
# the time by cmd/slowdown; records under .cache/ladder, a table at the end.
ladder: models llama-server
	LLAMA_SERVER="$(LLAMA_SERVER)" scripts/ladder.sh

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

bench: models llama-server
	DECODEBENCH_LLAMA_SERVER="$(LLAMA_SERVER)" DECODEBENCH_MODELS="$(CURDIR)/$(MODELS)" \
		$(GO) test -run '^$$' -bench . -skip CheckBig -benchtime 20x $$($(GO) list ./... | grep -v -e /e2e -e /fleetbench -e /sitebench)
	$(GO) test -run '^$$' -bench CheckBig -benchtime 1x ./review
	$(GO) test -run '^$$' -bench 1000 -benchtime 1x -timeout 60m ./review/fleetbench
	DECODEBENCH_BROWSER_RECORDS=1000 $(GO) test -count=1 -run '^TestBrowserGeneratedRecords$$' -v -timeout 30m ./website
	$(GO) test -run '^$$' -bench . -benchtime 3x -timeout 60m ./website/sitebench
	DECODEBENCH_LLAMA_SERVER="$(LLAMA_SERVER)" DECODEBENCH_MODELS="$(CURDIR)/$(MODELS)" \
		$(GO) test -run '^$$' -bench CampaignFootprint -benchtime 1x ./e2e

# Each fuzz target for FUZZTIME; `make test` runs their seed corpora as
# ordinary tests.
FUZZTIME ?= 20s
FUZZ_TARGETS := FuzzParse:./scenarios FuzzParse:./recorder FuzzMarkdownRoundTrip:./recorder \
	FuzzMarkdownEscaping:./recorder FuzzReadEvents:./engine FuzzEventJSON:./engine FuzzStream:./engine \
	FuzzMetrics:./engine FuzzLogCounter:./engine FuzzCompare:./outputs FuzzDataBlock:./recorder \
	FuzzLoad:./recorder FuzzParseBisect:./recorder FuzzEscape:./internal/termsafe FuzzEachRun:./recorder \
	FuzzCheckBisect:./review FuzzReadState:./bisect FuzzYAML:./redact FuzzReadHeader:./gguf

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		name=$${t%%:*}; pkg=$${t#*:}; \
		echo "fuzz $$name $$pkg ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 5s $$pkg; \
	done

clean:
	rm -rf bin
