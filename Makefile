# The entry points people type. `make run` and `make test` work on a fresh Debian 12
# machine (as root): they install what is missing, configure, build and go.
BUILD ?= build
ARGS ?=
JOBS ?= $(shell nproc)

.PHONY: all deps configure build run test test-unit clean

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
