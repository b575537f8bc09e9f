#!/bin/sh
# tools/format-check.sh [BASE]: the C++ lines changed since BASE must be as clang-format (with
# the checked-in .clang-format) writes them. Only changed lines are checked, so older code is
# reformatted when it is next touched, not all at once.
# BASE: the argument, else $ICHECK_FORMAT_BASE, else HEAD~1 (CI: the last change landed).
# To fix what it reports: git clang-format BASE
set -eu
cd "$(dirname "$0")/.."
base=${1:-${ICHECK_FORMAT_BASE:-HEAD~1}}
if ! git rev-parse -q --verify "$base^{commit}" >/dev/null 2>&1; then
  echo "format-check: skipped: no commit $base here (a shallow clone?)"
  exit 0
fi
command -v git-clang-format >/dev/null 2>&1 || {
  echo "format-check: git-clang-format not found (apt-get install clang-format)" >&2
  exit 1
}
out=$(git clang-format --diff --extensions cpp,hpp,h,cc "$base" -- 2>&1) || true
case $out in
"" | *"no modified files to format"* | *"did not modify any files"*)
  echo "format-check: C++ lines changed since $(git rev-parse --short "$base") are clang-formatted"
  ;;
*)
  printf "%s\n" "$out"
  echo "format-check: the lines above are not clang-formatted; run: git clang-format $base" >&2
  exit 1
  ;;
esac
