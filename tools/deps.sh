#!/bin/sh
# Installs the Debian packages the build and the tests need (Debian 12). Idempotent.
set -eu
packages="cmake ninja-build g++ ccache python3 busybox-static
  libboost1.81-dev libboost-json1.81-dev libboost-filesystem1.81-dev
  libyaml-cpp-dev libcli11-dev doctest-dev
  clang libclang-rt-14-dev"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
