#!/usr/bin/env bash
# Installs what the operations tests drive: Debian's nginx, haproxy, prometheus (promtool
# comes with it) and redis-server, and systemd for systemd-analyze (containers often lack it). Like test/e2e/install-clients.sh, it installs what is missing and fails with
# a clear message when it cannot; the tests that need these programs then fail too, they are
# never skipped. The packages' own system services are not started (policy-rc.d), so nothing
# ends up listening on ports 80 or 9090: the tests start their own instances on 127.0.0.1.
set -euo pipefail

need=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || need+=(haproxy)
command -v promtool >/dev/null 2>&1 || need+=(prometheus)
command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
[ ${#need[@]} -eq 0 ] && exit 0

echo "toolgate ops tests: installing Debian packages: ${need[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    echo "toolgate ops tests: need ${need[*]}; run as root or: apt-get install ${need[*]}" >&2
    exit 1
  fi
fi
policy=/usr/sbin/policy-rc.d
made_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
  $sudo chmod 755 "$policy"
  made_policy=1
fi
cleanup() { if [ "$made_policy" = 1 ]; then $sudo rm -f "$policy"; fi; }
trap cleanup EXIT
export DEBIAN_FRONTEND=noninteractive
if ! { $sudo apt-get update -qq && \
       $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }; then
  echo "toolgate ops tests: could not install ${need[*]} from the Debian archive" >&2
  exit 1
fi
