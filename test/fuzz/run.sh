#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer targets with clang (ASan+UBSan) in their own build dir and
# runs each for FUZZ_SECONDS, starting from the committed seed corpus. New corpus entries stay
# in the build dir; a crash fails the run and names the input to commit under
# test/fuzz/regressions/<target>/ (test_fuzz_replay then replays it in every build).
# usage: test/fuzz/run.sh BUILD_DIR SECONDS [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-fuzz}
seconds=${2:-60}
shift 2 || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(jsonrpc line_framer http validate request_builder)
jobs=${JOBS:-2}

# clang 14 and its libFuzzer/sanitizer runtimes from Debian, when missing.
need=()
command -v clang++-14 >/dev/null 2>&1 || need+=(clang-14)
[ -e /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a ] ||
  ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 ||
  need+=(libclang-rt-14-dev)
if [ ${#need[@]} -gt 0 ]; then
  echo "fuzz: installing ${need[*]}" >&2
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# -O1 with line tables only: libFuzzer's usual flags, and a shorter build for CI.
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
    -DCMAKE_CXX_COMPILER=clang++-14 -DTOOLGATE_FUZZ=ON >/dev/null
fi
cmake --build "$build" -j "$jobs" --target $(printf 'fuzz_%s ' "${targets[@]}")

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
summary="$build/fuzz-summary.txt"
: > "$summary"

# One target's run; its line of the summary goes to $build/fuzz-<target>.result.
fuzz_one() {
  local t=$1 work="$build/corpus/$1" artifacts="$build/artifacts/$1/" log="$build/fuzz-$1.log"
  mkdir -p "$work" "$artifacts"
  echo "fuzz: $t for ${seconds}s" >&2
  local rc=0
  "$build/bin/fuzz_$t" -max_total_time="$seconds" -timeout=20 -max_len=4096 \
    -print_final_stats=1 -artifact_prefix="$artifacts" \
    "$work" "test/fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
  local runs cov
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
  printf '%-16s %10s inputs  %5s s  cov %6s  %s\n' "$t" "$runs" "$seconds" "$cov" \
    "$([ $rc -eq 0 ] && echo ok || echo FAILED)" >"$build/fuzz-$t.result"
}

# A libFuzzer process uses one core: JOBS targets run side by side, each for its full time.
rm -f "$build"/fuzz-*.result
running=0
for t in "${targets[@]}"; do
  fuzz_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait

failed=0
for t in "${targets[@]}"; do
  [ -f "$build/fuzz-$t.result" ] || printf '%-16s  no result  FAILED\n' "$t" >"$build/fuzz-$t.result"
  tee -a "$summary" <"$build/fuzz-$t.result"
  if ! grep -q ' ok$' "$build/fuzz-$t.result"; then
    failed=1
    tail -40 "$build/fuzz-$t.log" >&2
    echo "fuzz: $t failed; inputs in $build/artifacts/$t/ — copy the crash into test/fuzz/regressions/$t/" >&2
  fi
done
exit $failed
