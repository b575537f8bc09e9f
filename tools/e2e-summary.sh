#!/bin/sh
# tools/e2e-summary.sh CTEST_OUTPUT: how many end-to-end tests ran, and why any were skipped.
set -eu
out=$1
ran=$(grep -cE 'Test +#[0-9]+: (e2e_|release)[^ ]* .*(Passed|Failed)' "$out" || true)
skipped=$(grep -cE 'Test +#[0-9]+: (e2e_|release)[^ ]* .*Skipped' "$out" || true)
py=$(grep -m1 -E '^Python3_EXECUTABLE:' "$(dirname "$out")/CMakeCache.txt" 2>/dev/null | cut -d= -f2-)
py=${py:-/usr/bin/python3}
echo "e2e: $ran ran, $skipped skipped (kubectl: ${ICHECK_KUBECTL_DIR:-/usr/lib/google-cloud-sdk/bin} ${ICHECK_KUBECTL_VERSIONS:-1.30 1.31 1.32}, else kubectl on PATH; python: $py, $("$py" --version 2>&1))"
if [ "$skipped" -gt 0 ]; then
  (cd "$(dirname "$0")/../tests/e2e" &&
    "$py" -c 'import harness; print("  why:", harness.skip_reason() or "see the test output")')
fi
