# The entry points people type. `make run` and `make test` work on a fresh Debian 12
# machine (as root): they install what is missing, configure, build and go.
BUILD ?= build
ARGS ?=
JOBS ?= $(shell nproc)

.PHONY: all deps configure build run test test-unit clean format format-check check-links lint tidy

all: build

deps:
	@bash tools/install-deps.sh

$(BUILD)/build.ninja: CMakeLists.txt | deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release

configure: deps $(BUILD)/build.ninja

# Leaves the server at $(BUILD)/bin/toolgate.
build: configure
	cmake --build $(BUILD) -j $(JOBS)

# Streamable HTTP on http://127.0.0.1:8080/mcp for a person at a terminal; ARGS adds flags.
run: build
	$(BUILD)/bin/toolgate --transport http --port 8080 $(ARGS)

# The whole suite: unit, integration and end-to-end tests (real MCP clients from npm).
test: build
	@bash test/e2e/install-clients.sh $(BUILD)
	ctest --test-dir $(BUILD) -j 2 --output-on-failure

# Everything but the end-to-end tests (no npm needed).
test-unit: build
	ctest --test-dir $(BUILD) -j 2 --output-on-failure -LE e2e

clean:
	rm -rf $(BUILD)

# Code style (.clang-format, clang-format 14): `make format` rewrites the C++ files in place;
# `make format-check` fails on any difference (CI runs it).
format:
	@bash tools/format.sh fix

format-check:
	@bash tools/format.sh check

# Every relative link and anchor in the markdown files, and every .md path a file mentions,
# resolves inside the repository (docs/testing.md). Needs only Python 3.
check-links:
	@python3 tools/check-links

# Structure checks (CI runs them with format-check): the include graph's layer order, the
# length of functions (tools/lint.sh installs Universal Ctags when missing), and the
# documents' links.
lint: check-links
	@bash tools/lint.sh

# Static checks (.clang-tidy, clang-tidy 14) over the production sources; CI runs it.
tidy: build
	@bash tools/tidy.sh $(BUILD)

# Benchmarks (bench/README.md): toolgate against the TypeScript SDK server and the fake platform
# driven directly, one table. Not part of `make test`; the smoke run is (ctest bench.smoke).
.PHONY: bench bench-smoke bench-profile
bench: build
	@bash bench/install.sh $(BUILD)
	python3 bench/run.py --build-dir $(BUILD) --no-install

bench-smoke: build
	@bash bench/install.sh $(BUILD)
	python3 bench/run.py --build-dir $(BUILD) --no-install --smoke

bench-profile: build
	@bash bench/install.sh $(BUILD)
	python3 bench/profile.py --build-dir $(BUILD)

# What the result budget does to the main list tools of every toolkit (bench/README.md,
# "Results a model can read"): tokens before and after, calls to page to the end, 0 lost.
.PHONY: bench-results
bench-results: build
	$(BUILD)/bin/bench_results

# Tool selection (bench/selection/README.md): BM25 over the catalogue's texts, recall@1/@5 and
# MRR of 374 plain-language requests against all 1150 tools. Needs no build.
.PHONY: bench-selection
bench-selection:
	python3 bench/selection/run.py --show-misses 10

# Hardening (docs/hardening.md). Each builds in its own directory at -j2.
# `make test-asan`: ASan+UBSan build (build-asan) running the unit and integration tests.
# `make test-tsan`: TSan build (build-tsan) running the multi-threaded HTTP tests.
# `make fuzz FUZZ_SECONDS=60`: libFuzzer targets (clang, build-fuzz), each run that long.
# `make soak DURATION=600`: the fault-injection soak (build-soak; SOAK_BUILD=build-asan to
# soak the sanitizer build).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= jsonrpc line_framer http validate request_builder
DURATION ?= 60
SOAK_BUILD ?= build-soak
.PHONY: test-asan test-tsan fuzz soak
test-asan:
	@JOBS=2 bash test/hardening/sanitize.sh asan build-asan

test-tsan:
	@JOBS=2 bash test/hardening/sanitize.sh tsan build-tsan

fuzz: deps
	@JOBS=2 bash test/fuzz/run.sh build-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

soak:
	@JOBS=2 bash test/soak/run.sh $(SOAK_BUILD) $(DURATION)
