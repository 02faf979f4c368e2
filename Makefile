# mobilemcp: run 'make help' for the targets.
GO ?= go
# The data directory of serve and demo; the CLI defaults to ~/.local/share/mobilemcp.
DEMO_DATA_DIR ?= $(CURDIR)/build/demo-data
# Extra flags for 'make serve', such as SERVE_FLAGS="--addr 0.0.0.0:9531".
SERVE_FLAGS ?=

.PHONY: help deps serve demo replay-transcripts test size host-engines test-qemu release-check test-go test-android test-installed test-scripts lint bench bench-android fuzz fuzz-ci aar sdk apk notes-apk

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-14s %s\n", $$1, $$2}'

deps: ## install everything the tests need (apt packages, Go tools, Maven, npm and Python dependencies)
	scripts/deps.sh all

serve: ## serve the SMS tools over MCP at http://127.0.0.1:9531/mcp, on the simulated phone (Ctrl-C stops)
	scripts/deps.sh go-modules
	$(GO) build -ldflags "-X github.com/mobilemcp/mobilemcp/internal/buildinfo.id=$$(scripts/build-id.sh)" -o build/mobilemcp ./cmd/mobilemcp
	build/mobilemcp serve --data-dir $(DEMO_DATA_DIR) $(SERVE_FLAGS)

demo: ## send the example SMS on the simulated phone and show the outbox
	scripts/deps.sh go-modules
	$(GO) run ./cmd/mobilemcp call --data-dir $(DEMO_DATA_DIR) send_sms to_phone_number=+33785880347 sms_text="Hello world" subscription_id=14
	$(GO) run ./cmd/mobilemcp outbox --data-dir $(DEMO_DATA_DIR)

replay-transcripts: ## replay the four transactions of the reference MCP transcripts with curl against mobilemcp serve
	scripts/deps.sh go-modules
	scripts/replay-transcripts.sh

test: deps lint test-go host-engines size fuzz-ci test-android test-qemu test-installed test-scripts release-check ## the whole test suite, as CI runs it

host-engines: ## the engine jar's engines, cross-built on Linux: linux-x86_64, linux-aarch64 (glibc 2.17), windows-x86_64, each checked (PASS/FAIL)
	scripts/host-engines.sh

size: ## the tool engine as apps ship it, stripped, built for three platforms (budget 3 MiB each), and what it is made of
	scripts/size.sh

test-qemu: ## the linux-aarch64 engine loaded by the test runner's loader on an arm64 JVM under qemu, answering a call
	scripts/qemu-engine.sh

# The version the gate checks, as a tag would give it (v0.1.0 -> 0.1.0).
VERSION ?= 0.1.0
release-check: ## assemble and check everything a tag would publish that builds without AGP (VERSION=x.y.z): PASS/FAIL per check
	ci/release-check.sh $(VERSION)

test-go: ## Go tests with the race detector, and intentbridge's as the host engines build it (tag mobilemcp_hostengine)
	$(GO) test -race -count=1 ./...
	$(GO) test -count=1 -tags mobilemcp_hostengine ./intentbridge

test-android: ## the Android modules on the host: gobind + host libmobilemcp.so, Robolectric tests (android/pom.xml)
	scripts/test-android.sh

test-installed: ## a tool module's tests (MODULE=notes, else notes and the consumer smoke) against the libraries installed in the local Maven repository, without go
	scripts/test-installed.sh --install $(or $(MODULE),notes)
	$(if $(MODULE),,scripts/test-installed.sh consumer-smoke)

test-scripts: ## tests of the build, pipeline, API-listing and deps scripts, against fakes (they need no Android SDK, emulator or Maven Central credentials)
	scripts/android-build_test.sh
	ci/pipeline_test.sh
	scripts/api-listing_test.sh
	scripts/deps_test.sh

lint: ## gofmt, go vet, staticcheck and actionlint (pinned in go.mod), shellcheck, commit subjects
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags mobilemcp_hostengine ./intentbridge
	$(GO) tool staticcheck ./...
	$(GO) tool actionlint
	@command -v shellcheck >/dev/null || { echo "lint: shellcheck is not installed; make deps installs it"; exit 1; }
	shellcheck scripts/*.sh ci/*.sh .ci/run
	ci/commit-subjects.sh

bench: bench-android ## benchmarks, the MCP server against the bare SDK, and the JNI round trip (never part of the tests)
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./...
	$(GO) run ./internal/cmd/mcpbench -v

bench-android: ## the Java->Go->Java Bridge.handle round trip through libmobilemcp.so (BENCH_CALLS=20000), typed handlers against string ones, their build time and bytes, and an assistant's wait while other apps flood the tool
	scripts/bench-android.sh $(or $(BENCH_CALLS),20000)
	scripts/bench-ksp.sh
	scripts/bench-flood.sh

fuzz: ## run each fuzz target for a while (FUZZTIME=10m)
	scripts/fuzz.sh $(or $(FUZZTIME),10m)

# A count, not a duration: Go 1.26's fuzz coordinator can fail a run with a
# spurious "context deadline exceeded" when a duration ends (golang/go#75804,
# fixed in Go 1.27); a count has no deadline to race.
fuzz-ci: ## run each fuzz target for 50,000 inputs, as the tests do
	scripts/fuzz.sh 50000x

aar: ## the engine for the four Android ABIs, stripped: build/intentbridge.aar with the tool engine, unpacked into android/sdk (needs ANDROID_HOME and the NDK; see docs/internals/pipeline.md)
	scripts/android-build.sh aar

sdk: ## the SDK library for tool apps: make aar, then Gradle -> build/mobilemcp-sdk.aar (needs the Android SDK and Gradle)
	scripts/android-build.sh sdk

apk: ## the SMS app's APK: make aar, then Gradle in android/ (needs the Android SDK and Gradle)
	scripts/android-build.sh apk app

notes-apk: ## the notes sample's APK, the same way
	scripts/android-build.sh apk notes
