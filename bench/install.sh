#!/usr/bin/env bash
# Installs what the benchmark needs beyond the build: Debian's wrk and openssl, and the
# TypeScript SDK comparison server's packages (with Node 22) into BUILD_DIR/bench-node, never
# globally. Idempotent: does nothing when everything is there.
#
#   bench/install.sh BUILD_DIR
set -euo pipefail
build_dir=${1:?usage: install.sh BUILD_DIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v taskset >/dev/null 2>&1 || missing+=(util-linux)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "bench: installing Debian packages: ${missing[*]}" >&2
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

node_dir="$build_dir/bench-node"
mkdir -p "$node_dir"
if ! cmp -s "$here/ts-server/package.json" "$node_dir/package.json" ||
   [[ ! -f "$node_dir/.installed" ]]; then
  echo "bench: installing the TypeScript SDK server's packages into $node_dir" >&2
  rm -f "$node_dir/.installed"
  cp "$here/ts-server/package.json" "$node_dir/package.json"
  (cd "$node_dir" && npm install --no-audit --no-fund --loglevel=error >/dev/null)
  touch "$node_dir/.installed"
fi
cp "$here/ts-server/server.mjs" "$node_dir/server.mjs"
