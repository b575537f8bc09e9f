#!/bin/sh
# One command on a fresh Debian 12 machine: dependencies, build, install where kubectl finds
# plugins (PREFIX/bin, default /usr/local/bin), then `env` on a recipe shipped in the repo.
set -eu
cd "$(dirname "$0")/.."
PREFIX=${PREFIX:-/usr/local}
tools/deps.sh
tools/build.sh
sudo=""
[ -w "$PREFIX/bin" ] || sudo="sudo"
$sudo cmake --install build --prefix "$PREFIX" >/dev/null
echo "installed $PREFIX/bin/kubectl-dynamo_icheck"
recipe=tests/recipes/llama-3-70b/vllm/disagg-multi-node
if command -v kubectl >/dev/null 2>&1; then
  set -- kubectl dynamo-icheck env "$recipe"
else
  set -- "$PREFIX/bin/kubectl-dynamo_icheck" env "$recipe"
fi
echo "\$ $*"
rc=0
"$@" || rc=$?
echo "exit code $rc (0 surface-ok/confirmed, 1 unconfirmed, 2 blocked, 3 could not check)"
[ "$rc" -le 2 ]
