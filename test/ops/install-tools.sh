#!/usr/bin/env bash
# Installs what the operations tests drive: Debian's nginx, haproxy, prometheus (promtool comes
# with it) and redis-server, and systemd for systemd-analyze (containers often lack it). Like
# test/e2e/install-clients.sh, it installs what is missing; the steps, and the refusal to start
# the packages' own services, are test/support/install-debian-packages.sh's.
set -euo pipefail
exec bash "$(dirname "$0")/../support/install-debian-packages.sh" "ops tests" \
  nginx=nginx haproxy=haproxy promtool=prometheus systemd-analyze=systemd \
  redis-server=redis-server
