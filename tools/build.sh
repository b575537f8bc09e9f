#!/bin/sh
# Configures and builds into ./build (Ninja, Release: no debug info keeps the 2-core CI build short).
set -eu
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
