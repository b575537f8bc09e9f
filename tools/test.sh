#!/bin/sh
# One command: dependencies, build, the whole test suite (unit tests and the end-to-end tests
# that drive the real kubectl 1.30, 1.31 and 1.32 against a loopback fake API server).
set -eu
cd "$(dirname "$0")/.."
tools/deps.sh
tools/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)" --timeout 600
# The same tests again under ASan+UBSan, and each parser fuzzed briefly (tools/sanitize.sh).
tools/sanitize.sh
