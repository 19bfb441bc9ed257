#!/usr/bin/env bash
# Installs the Debian packages behind the programs a group of tests drives, where those programs
# are missing, and fails with a clear message when it cannot (the tests that need them then fail
# too; they are never skipped). The packages' own system services are not started
# (policy-rc.d), so nothing ends up listening on their usual ports: the tests start their own
# instances on 127.0.0.1.
# Usage: install-debian-packages.sh "<which tests>" PROGRAM=PACKAGE...
#   e.g. install-debian-packages.sh "state tests" redis-server=redis-server redis-cli=redis-server
set -euo pipefail

who=$1
shift
need=()
for pair in "$@"; do
  program=${pair%%=*}
  package=${pair#*=}
  # /usr/sbin is not on every user's PATH (nginx, haproxy live there).
  if command -v "$program" >/dev/null 2>&1 || [ -x "/usr/sbin/$program" ]; then
    continue
  fi
  case " ${need[*]} " in
    *" $package "*) ;;
    *) need+=("$package") ;;
  esac
done
[ ${#need[@]} -eq 0 ] && exit 0

echo "toolgate $who: installing Debian packages: ${need[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    echo "toolgate $who: need ${need[*]}; run as root or: apt-get install ${need[*]}" >&2
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
  echo "toolgate $who: could not install ${need[*]} from the Debian archive" >&2
  exit 1
fi
