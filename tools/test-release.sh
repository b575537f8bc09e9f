#!/bin/sh
# The release pass (CI runs it after tools/test.sh): what the release needs (Debian's arm64 cross
# toolchain and libraries, qemu-user-static), the static release in dist/ (tools/release.sh:
# amd64 and arm64), then the release test: the krew manifest against krew's rules, each archive
# installed as krew does and run through kubectl (the arm64 one under qemu). A release test that
# skips fails this pass: here it is the one thing asked for.
set -eu
cd "$(dirname "$0")/.."
CCACHE_BASEDIR="$(pwd)"
export CCACHE_BASEDIR
tools/deps.sh --release
tools/release.sh
# CTest's list of tests lives in ./build; configuring is enough (the release test runs dist/).
[ -f build/CTestTestfile.cmake ] || cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ctest --test-dir build --output-on-failure --timeout 600 -R '^release$' -O build/ctest-release.out
if grep -qE 'Test +#[0-9]+: release .*Skipped' build/ctest-release.out; then
  echo "test-release: the release test was skipped (reason above)" >&2
  exit 1
fi
