#!/bin/sh
# The sanitizer pass (CI runs it after tools/test.sh and tools/test-release.sh): clang (tools/
# deps.sh --sanitize), one build into build-asan (ASan+UBSan, float-cast-overflow included) of the
# library, the unit tests, the plugin the e2e tests drive, and the libFuzzer targets; then every
# test under it but the release's, and each fuzz target briefly (CTest label fuzz).
# ICHECK_FUZZ_SECONDS sets how long.
set -eu
cd "$(dirname "$0")/.."
CCACHE_BASEDIR="$(pwd)"
export CCACHE_BASEDIR
tools/deps.sh --sanitize
jobs=$(nproc)
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" \
  -DCMAKE_CXX_COMPILER=clang++ \
  -DICHECK_SANITIZE=ON -DICHECK_FUZZ=ON -DICHECK_FUZZ_SECONDS="${ICHECK_FUZZ_SECONDS:-10}" >/dev/null
cmake --build build-asan -j "$jobs"
# detect_leaks stays on; a finding fails the test. The fake API server and kubectl are not
# instrumented, only what this project builds.
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# The e2e tests here check this project's binary for memory and UB errors; the kubectl version
# matrix (1.30-1.32) already ran against the regular build, so one kubectl is enough (saves ~1.5
# minutes of the CI's 2 cores). Set ICHECK_KUBECTL_VERSIONS to widen it.
export ICHECK_KUBECTL_VERSIONS="${ICHECK_KUBECTL_VERSIONS:-1.32}"
# The endings module's fan-out at one --parallel (16) per ending: the same code paths as 4 and
# 64 under ASan, a third of the time (saves about 1.5 minutes).
export ICHECK_ENDINGS_PARALLEL="${ICHECK_ENDINGS_PARALLEL:-16}"
# The e2e modules' second run on --transport=kubectl (label e2e-kubectl) drives kubectl children,
# not more of this project's code than the first run: left out here (saves about 4 minutes).
ctest --test-dir build-asan --output-on-failure -j "$jobs" --timeout 600 -LE '^(release|e2e-kubectl)$' -E '^e2e_plugin_rows$'
