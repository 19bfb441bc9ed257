#!/usr/bin/env bash
# `make tidy`: clang-tidy 14 with the repository's .clang-tidy (a small agreed check set, every
# finding an error) over the production sources, from the build's compile_commands.json.
# clang-tidy is installed when missing. Usage: tools/tidy.sh BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
if ! command -v run-clang-tidy >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo="sudo"
  echo "toolgate: installing Debian package clang-tidy" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends clang-tidy >/dev/null
fi
# The production folders; tests and benchmarks are held to the compiler's warnings only.
folders='(app|auth|common|credentials|discovery|mcp|ops|protocol|state|toolkits|transport)'
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! run-clang-tidy -p "$build" -quiet -j "${JOBS:-2}" "$PWD/$folders/" >"$log" 2>&1 ||
   grep -qE '(warning|error): ' "$log"; then
  grep -E '(warning|error): ' "$log" | sed 's/\x1b\[[0-9;]*m//g' | sort -u >&2 || tail -20 "$log" >&2
  echo "clang-tidy: findings above (.clang-tidy)" >&2
  exit 1
fi
echo "clang-tidy: no findings in $(grep -c "^clang-tidy" "$log" || true) files"
