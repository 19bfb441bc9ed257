#!/usr/bin/env bash
# Installs the Debian 12 packages toolgate builds with, when any is missing.
# Boost comes as the 1.81 set only: it conflicts with Debian's default 1.74 -dev packages.
set -euo pipefail

packages=(
  cmake ninja-build g++ make pkg-config ccache python3 zlib1g-dev
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
  libssl-dev libfmt-dev libspdlog-dev libcli11-dev catch2 libvalijson-dev
  libtomlplusplus-dev libmimalloc-dev libhiredis-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "toolgate: installing Debian packages: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    echo "toolgate: run as root, or install: apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
