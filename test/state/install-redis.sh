#!/usr/bin/env bash
# Installs Debian's redis-server (and redis-cli) for the shared-state tests when missing; its
# system service is not started (policy-rc.d): every test starts its own on 127.0.0.1.
set -euo pipefail
command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 && exit 0
echo "toolgate state tests: installing Debian packages: redis-server" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    echo "toolgate state tests: need redis-server; run as root or: apt-get install redis-server" >&2
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
       $sudo apt-get install -y -qq --no-install-recommends redis-server >/dev/null; }; then
  echo "toolgate state tests: could not install redis-server from the Debian archive" >&2
  exit 1
fi
