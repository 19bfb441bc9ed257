#!/usr/bin/env bash
# `make test-asan` / `make test-tsan`: a sanitizer build in its own dir, then its tests.
#   asan: ASan+UBSan (-O1 with line tables, build-asan), every unit and integration test (not
#         e2e, not the benchmark smoke run).
#   tsan: TSan (build-tsan), the multi-threaded HTTP tests: the hardening and integration HTTP
#         tests (server processes built with TSan) and the HTTPS client against the fake.
# Every process writes its sanitizer reports to <build>/sanitizer/; any report fails the run,
# also from child processes whose stderr no test reads.
# usage: test/hardening/sanitize.sh asan|tsan [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
kind=${1:?asan or tsan}
jobs=${JOBS:-2}
case "$kind" in
  asan) build=${2:-build-asan}; sanitize="address,undefined" ;;
  tsan) build=${2:-build-tsan}; sanitize="thread" ;;
  *) echo "usage: $0 asan|tsan [BUILD_DIR]" >&2; exit 2 ;;
esac

bash tools/install-deps.sh
if [ ! -f "$build/build.ninja" ]; then
  # No TOOLGATE_WERROR here: g++ 12 warns falsely under sanitizers (-Wmismatched-new-delete,
  # -Wtsan). -O1 and line tables only (-g1): the sanitizers' usual level, enough for symbolised
  # reports. -O0 compiles twice as fast under UBSan; the one time it ran, the soak hit a
  # use-after-free in Boost.Asio 1.81's co_spawn (fixed since: transport/run_on.hpp), so -O1,
  # the level CI has passed with, stays until a full run at -O0 passes (docs/testing.md).
  # gold links the sanitized test binaries (300+ MB with line tables) in two thirds of ld's time.
  gold=()
  if command -v ld.gold >/dev/null 2>&1; then
    gold=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=gold)
  fi
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DTOOLGATE_SANITIZE="$sanitize" "${gold[@]}" >/dev/null
fi

reports="$(pwd)/$build/sanitizer"
rm -rf "$reports"
mkdir -p "$reports"
export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1"
export UBSAN_OPTIONS="log_path=$reports/ubsan:print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="log_path=$reports/tsan:halt_on_error=0:second_deadlock_stack=1"

status=0
if [ "$kind" = asan ]; then
  cmake --build "$build" -j "$jobs"
  ctest --test-dir "$build" -j 2 --output-on-failure -LE 'e2e|bench' || status=$?
else
  targets=(toolgate_test_server toolgate test_hardening test_https_client)
  for t in test_integration_http test_integration_http_modern test_integration_http_serving; do
    if cmake --build "$build" --target help 2>/dev/null | grep -q "^$t:"; then targets+=("$t"); fi
  done
  cmake --build "$build" -j "$jobs" --target "${targets[@]}"
  # TSan needs the address layout it was built for: without this, recent kernels' mmap
  # randomisation makes it abort at start-up ("unexpected memory mapping").
  run=()
  if command -v setarch >/dev/null 2>&1; then run=(setarch "$(uname -m)" -R); fi
  for t in "${targets[@]}"; do
    case "$t" in
      toolgate|toolgate_test_server) continue ;;
      test_hardening) filter='[http]' ;;
      *) filter='' ;;
    esac
    echo "tsan: $t $filter"
    "${run[@]}" "$build/bin/$t" $filter --use-colour no || status=1
  done
fi

if compgen -G "$reports/*" >/dev/null; then
  echo "sanitizer reports:" >&2
  for f in "$reports"/*; do
    echo "== $f" >&2
    head -60 "$f" >&2
  done
  status=1
fi
exit $status
