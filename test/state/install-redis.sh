#!/usr/bin/env bash
# Installs Debian's redis-server (and redis-cli) for the shared-state tests when missing; every
# test starts its own on 127.0.0.1. The steps are test/support/install-debian-packages.sh's.
set -euo pipefail
exec bash "$(dirname "$0")/../support/install-debian-packages.sh" "state tests" \
  redis-server=redis-server redis-cli=redis-server
