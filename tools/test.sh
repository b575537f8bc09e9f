#!/bin/sh
# One command: dependencies, build, the static release (tools/release.sh, amd64 and arm64), the
# clang-format check of the last change, and the whole test suite (unit tests, the release's
# krew install, and the end-to-end tests that drive the real kubectl against a loopback fake API
# server; skipped, with the reason, where this machine has no kubectl, root or mount namespaces).
set -eu
cd "$(dirname "$0")/.."
# ccache keys paths relative to the checkout, so a clean clone in another folder (CI) reuses what
# an earlier build of the same sources compiled.
CCACHE_BASEDIR="$(pwd)"
export CCACHE_BASEDIR
tools/deps.sh --release
tools/build.sh
tools/release.sh
format=0
tools/format-check.sh || format=$?
rc=0
ctest --test-dir build --output-on-failure -j "$(nproc)" --timeout 600 -O build/ctest.out || rc=$?
tools/e2e-summary.sh build/ctest.out
[ "$rc" -eq 0 ] && [ "$format" -eq 0 ] || exit 1
# The same tests again under ASan+UBSan, and each parser fuzzed briefly (tools/sanitize.sh).
tools/sanitize.sh
