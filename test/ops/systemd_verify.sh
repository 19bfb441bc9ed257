#!/usr/bin/env bash
# Checks examples/systemd/toolgate.service: `systemd-analyze verify` finds nothing to say,
# `systemd-analyze security` rates its sandbox at 2.0 or better ("OK" or safer), and the
# command line it runs is one toolgate accepts, with the credentials laid out as systemd
# lays them out. Usage: systemd_verify.sh SOURCE_DIR TOOLGATE_BINARY
# systemd-analyze comes with systemd; install-tools.sh installs it where it is missing (some
# containers), so the test fails, never skips, when it cannot run.
set -euo pipefail
src=$1
bin=$2
if ! command -v systemd-analyze >/dev/null 2>&1; then
  echo "systemd-analyze is not available (Debian package systemd; test/ops/install-tools.sh installs it)"
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unit=$tmp/toolgate.service
sed "s|/usr/local/bin/toolgate|$bin|g" "$src/examples/systemd/toolgate.service" > "$unit"

out=$(systemd-analyze verify "$unit" 2>&1) || { echo "systemd-analyze verify failed: $out"; exit 1; }
if [ -n "$out" ]; then
  echo "systemd-analyze verify has remarks: $out"
  exit 1
fi
security=$(systemd-analyze security --offline=yes "$unit" 2>&1 || true)
score=$(printf '%s\n' "$security" | sed -n 's/.*Overall exposure level for toolgate.service: \([0-9.]*\).*/\1/p')
if ! awk -v s="$score" 'BEGIN { exit !(s != "" && s + 0 <= 2.0) }'; then
  echo "sandbox exposure ${score:-unknown}, expected 2.0 or less:"
  printf '%s\n' "$security" | tail -20
  exit 1
fi

# The ExecStart script, run as systemd would, with --print-config added: toolgate must accept
# the file and flags, and take the platform secrets from platform.env.
script=$(sed -n "s/^ExecStart=\/bin\/sh -c '\(.*\)'\$/\1/p" "$unit")
[ -n "$script" ] || { echo "no ExecStart=/bin/sh -c '…' line"; exit 1; }
creds=$tmp/credentials
mkdir -m 0700 "$creds"
cp "$src/examples/toolgate.toml" "$creds/toolgate.toml"
echo "systemd-test-client-token" > "$creds/client-tokens"
printf 'TOOLGATE_SESSION_KEY=systemd-test-session-key\n' > "$creds/platform.env"
openssl rand -hex 32 > "$creds/store.key"
chmod 0400 "$creds/store.key"
printed=$(CREDENTIALS_DIRECTORY=$creds sh -c "$script --print-config")
for expected in "auth-token-file = \"$creds/client-tokens\"  # flag" \
                "store-key-file = \"$creds/store.key\"  # flag" \
                'drain-delay = 5  # file' \
                'session-key = "***"  # env TOOLGATE_SESSION_KEY'; do
  if ! grep -qF -- "$expected" <<< "$printed"; then
    echo "toolgate under the unit's command line: no \"$expected\" in:"
    echo "$printed"
    exit 1
  fi
done
if grep -q "systemd-test-session-key" <<< "$printed"; then
  echo "the session key was printed"
  exit 1
fi
echo "systemd unit: verify clean, sandbox exposure $score, command line accepted"
