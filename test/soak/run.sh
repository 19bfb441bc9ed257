#!/usr/bin/env bash
# `make soak DURATION=600`: builds toolgate and the fake platform in BUILD_DIR (Release
# build-soak by default; CI passes build-asan to soak the sanitizer build) and runs the soak.
# usage: test/soak/run.sh BUILD_DIR SECONDS
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-soak}
seconds=${2:-60}
bash tools/install-deps.sh
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" -j "${JOBS:-2}" --target toolgate fake_platform
extra=()
if grep -q 'TOOLGATE_SANITIZE:STRING=.\+' "$build/CMakeCache.txt"; then
  rm -rf "$build/soak-sanitizer"
  extra+=(--sanitizer-dir "$(pwd)/$build/soak-sanitizer")
fi
python3 test/soak/soak.py --build-dir "$build" --duration "$seconds" \
  --json "$build/soak-summary.json" "${extra[@]}"
