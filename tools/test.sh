#!/bin/sh
# The contributor's command, before every commit: dependencies, one build into ./build (the one
# tools/install.sh made, reused), the clang-format check of the last change, and the whole test
# suite on it: unit tests, the binary's exit codes, docs, schema, vocabulary, krew manifest, and
# the end-to-end tests that drive the real kubectl against a loopback fake API server (skipped,
# with the reason, where this machine has no kubectl, root or mount namespaces).
# The other two passes CI runs (.ci/run): tools/test-release.sh (the static amd64 and arm64
# release and its test) and tools/test-sanitize.sh (everything again under ASan+UBSan, fuzzing).
set -eu
cd "$(dirname "$0")/.."
# ccache keys paths relative to the checkout, so a clean clone in another folder (CI) reuses what
# an earlier build of the same sources compiled.
CCACHE_BASEDIR="$(pwd)"
export CCACHE_BASEDIR
tools/deps.sh
tools/build.sh
format=0
tools/format-check.sh || format=$?
rc=0
# The release test (label release) judges dist/, which only tools/test-release.sh builds: a dist/
# left from an earlier release would be judged against sources it was not built from.
ctest --test-dir build --output-on-failure -j "$(nproc)" --timeout 600 -LE '^release$' \
  -O build/ctest.out || rc=$?
tools/e2e-summary.sh build/ctest.out
[ "$rc" -eq 0 ] && [ "$format" -eq 0 ]
