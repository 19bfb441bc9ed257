#!/usr/bin/env bash
# `make lint` (CI runs it with the format check): the structure checks. tools/check-layers (the
# include graph's layer order) and tools/check-function-length (no function over 80 lines,
# tests aside). Universal Ctags, which the second reads functions with, is installed when
# missing, like the build's packages.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo="sudo"
  echo "toolgate: installing Debian package universal-ctags" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends universal-ctags >/dev/null
fi
python3 tools/check-layers
python3 tools/check-function-length
