#!/usr/bin/env bash
# `make format` rewrites every C++ file of ours in the repository's .clang-format style;
# `make format-check` (a CI stage) lists the files that differ and fails when any does.
# clang-format 14 is Debian 12's; it is installed when missing, like the build's packages.
# Usage: tools/format.sh fix|check
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-check}

if ! command -v clang-format >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo="sudo"
  echo "toolgate: installing Debian package clang-format" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends clang-format >/dev/null
fi

# Our sources: everything C++ outside build folders and installed npm packages.
mapfile -t files < <(find . \( -name 'build*' -o -name node_modules -o -name .git \) -prune -o \
                          -type f \( -name '*.cpp' -o -name '*.hpp' \) -print | sort)

case "$mode" in
  fix)
    clang-format -i "${files[@]}"
    echo "formatted ${#files[@]} files"
    ;;
  check)
    differ=()
    for f in "${files[@]}"; do
      if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
        differ+=("$f")
      fi
    done
    if [ ${#differ[@]} -gt 0 ]; then
      echo "${#differ[@]} files are not in .clang-format style (make format fixes them):" >&2
      printf '  %s\n' "${differ[@]}" >&2
      exit 1
    fi
    echo "all ${#files[@]} C++ files match .clang-format"
    ;;
  *)
    echo "usage: tools/format.sh fix|check" >&2
    exit 2
    ;;
esac
