#!/bin/sh
# tools/release.sh [BASE_URL]: the krew release in dist/.
#   dist/dynamo-icheck_<version>_linux_<arch>.tar.gz  a fully static kubectl-dynamo_icheck, its
#                                                     completion helper, LICENSE and README.md
#   dist/dynamo-icheck.yaml                           krew-manifest/dynamo-icheck.yaml filled in
# BASE_URL is where the archives will be published (each uri is BASE_URL/<archive>).
# linux/arm64 is built when Debian's cross toolchain and arm64 libraries are there
# (tools/deps.sh --release installs them); otherwise this says what is missing and goes on.
set -eu
cd "$(dirname "$0")/.."
version=$(sed -n 's/^project(dynamo_icheck VERSION \([0-9][0-9.]*\).*/\1/p' CMakeLists.txt)
[ -n "$version" ] || { echo "release: no VERSION in CMakeLists.txt's project()" >&2; exit 1; }
base_url=${1:-https://github.com/dynamo-icheck/kubectl-dynamo-icheck/releases/download/v$version}
jobs=${ICHECK_JOBS:-$(nproc)}
rm -rf dist
mkdir -p dist

# build ARCH [cmake args...]: a static build into build-release-ARCH, packed into dist/.
build() {
  arch=$1
  shift
  dir=build-release-$arch
  mkdir -p "$dir"
  log=$dir/release.log
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
    -DICHECK_STATIC=ON "$@" >"$log" 2>&1 || { cat "$log" >&2; return 1; }
  cmake --build "$dir" -j "$jobs" --target kubectl-dynamo_icheck >>"$log" 2>&1 ||
    { tail -40 "$log" >&2; return 1; }
  linkage=$(file -b "$dir/kubectl-dynamo_icheck" | sed 's/, BuildID[^,]*//; s/, not stripped//')
  case $linkage in
  *"statically linked"*) ;;
  *) echo "release: $dir/kubectl-dynamo_icheck is not statically linked: $linkage" >&2; return 1 ;;
  esac
  stage=$dir/stage
  rm -rf "$stage"
  mkdir -p "$stage"
  cp "$dir/kubectl-dynamo_icheck" plugin/kubectl_complete-dynamo_icheck LICENSE README.md "$stage/"
  strip_tool=strip
  [ "$arch" = arm64 ] && strip_tool=aarch64-linux-gnu-strip
  "$strip_tool" "$stage/kubectl-dynamo_icheck"
  chmod 755 "$stage/kubectl-dynamo_icheck" "$stage/kubectl_complete-dynamo_icheck"
  archive=dist/dynamo-icheck_${version}_linux_${arch}.tar.gz
  # Reproducible: fixed order, owner and time, so the sha256 says only what changed.
  tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -cf - \
    kubectl-dynamo_icheck kubectl_complete-dynamo_icheck LICENSE README.md | gzip -n >"$archive"
  echo "release: $archive ($(du -k "$archive" | cut -f1) KiB; binary $(du -k "$stage/kubectl-dynamo_icheck" | cut -f1) KiB, $linkage)"
}

# arm64_missing: what the arm64 build lacks here, one item a line; empty when it can be built.
arm64_missing() {
  command -v aarch64-linux-gnu-g++ >/dev/null 2>&1 || echo "g++-aarch64-linux-gnu (Debian's cross compiler)"
  for lib in libboost_json.a libboost_filesystem.a; do
    [ -f /usr/lib/aarch64-linux-gnu/$lib ] || echo "/usr/lib/aarch64-linux-gnu/$lib (libboost-${lib#libboost_}:arm64; needs 'dpkg --add-architecture arm64')"
  done
  [ -f /usr/lib/aarch64-linux-gnu/libre2.a ] ||
    echo "/usr/lib/aarch64-linux-gnu/libre2.a (libre2-dev:arm64; needs 'dpkg --add-architecture arm64')"
  [ -f /opt/dynamo-icheck/arm64-sysroot/usr/lib/aarch64-linux-gnu/libyaml-cpp.a ] ||
    [ -f /usr/lib/aarch64-linux-gnu/libyaml-cpp.a ] ||
    echo "libyaml-cpp.a for arm64 (libyaml-cpp-dev:arm64, which cannot be co-installed with the amd64 one: tools/deps.sh --release extracts it)"
}

build amd64
missing=$(arm64_missing)
if [ -z "$missing" ]; then
  build arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
    -DICHECK_ARM64_SYSROOT=/opt/dynamo-icheck/arm64-sysroot
else
  echo "release: linux/arm64 not built; missing here:" >&2
  echo "$missing" | sed 's/^/  - /' >&2
fi
/usr/bin/python3 tools/krew_manifest.py krew-manifest/dynamo-icheck.yaml "v$version" "$base_url" \
  dist/*.tar.gz >dist/dynamo-icheck.yaml
echo "release: dist/dynamo-icheck.yaml (krew manifest, v$version, $(ls dist/*.tar.gz | wc -l) platform(s))"
