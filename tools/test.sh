#!/bin/sh
# One command: dependencies, build, the static release (tools/release.sh, amd64 and arm64) and
# the whole test suite (unit tests, the release's krew install, and the end-to-end tests that
# drive the real kubectl 1.30, 1.31 and 1.32 against a loopback fake API server).
set -eu
cd "$(dirname "$0")/.."
tools/deps.sh --release
tools/build.sh
tools/release.sh
ctest --test-dir build --output-on-failure -j "$(nproc)" --timeout 600
# The same tests again under ASan+UBSan, and each parser fuzzed briefly (tools/sanitize.sh).
tools/sanitize.sh
