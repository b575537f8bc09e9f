#!/bin/sh
# tools/deps.sh [--release] [--sanitize]: installs the Debian packages the build and the tests
# need (Debian 12). Idempotent.
# --release: also what tools/release.sh needs for linux/arm64 (cross compiler, arm64 libraries)
# and qemu-user-static, with which tests/release runs the arm64 binary (tools/test-release.sh).
# --sanitize: also clang and its sanitizer and libFuzzer runtimes (tools/test-sanitize.sh).
set -eu
packages="cmake ninja-build g++ ccache python3 python3-yaml busybox-static file clang-format
  libboost1.81-dev libboost-json1.81-dev libboost-filesystem1.81-dev
  libyaml-cpp-dev libre2-dev libcli11-dev doctest-dev
  ucx-utils ibverbs-utils"
release=""
for arg in "$@"; do
  case $arg in
  --release) release=1 ;;
  --sanitize) packages="$packages clang libclang-rt-14-dev" ;;
  *) echo "usage: tools/deps.sh [--release] [--sanitize]" >&2; exit 2 ;;
  esac
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ -n "$release" ]; then
  dpkg --print-foreign-architectures | grep -qx arm64 || $sudo dpkg --add-architecture arm64
  # libre2-dev is Multi-Arch: same: its arm64 package installs beside the amd64 one.
  packages="$packages g++-aarch64-linux-gnu libboost-json1.81-dev:arm64 libboost-filesystem1.81-dev:arm64
    libre2-dev:arm64 qemu-user-static"
fi
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
fi
if [ -n "$release" ]; then
  # libyaml-cpp-dev is not Multi-Arch: installing the arm64 one would remove the amd64 one, so
  # its archive is unpacked beside the system instead (cmake/aarch64-linux-gnu.cmake finds it).
  sysroot=/opt/dynamo-icheck/arm64-sysroot
  if [ ! -f $sysroot/usr/lib/aarch64-linux-gnu/libyaml-cpp.a ]; then
    tmp=$(mktemp -d)
    (cd "$tmp" && apt-get download -qq libyaml-cpp-dev:arm64)
    $sudo mkdir -p $sysroot
    $sudo dpkg-deb -x "$tmp"/libyaml-cpp-dev_*_arm64.deb $sysroot
    rm -rf "$tmp"
  fi
fi
