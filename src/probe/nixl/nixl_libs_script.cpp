#include "probe/nixl/nixl_libs_script.hpp"

namespace icheck::probe {
namespace {

// A plugin file that is there but cannot load is what NIXL reports as "unsupported backend"
// (ai-dynamo/nixl #1561: libplugin_UCX.so present, libucp.so.0 not found). ldd (glibc's) runs the
// dynamic loader in list mode, which maps the libraries and exits before any of their code runs;
// without ldd the loader itself is asked (--list; it stops at the first library it cannot open).
// Each listing is bounded, 32 plugins at most.
constexpr std::string_view kNixlLibs = R"ICHECK_SH(
nx_begin nixl_libs
nx_ld=
nx_ldkind=
if nx_which ldd; then
  nx_ld=$nx_found
  nx_ldkind=ldd
else
  for nx_l in /lib64/ld-linux-x86-64.so.2 /lib/ld-linux-aarch64.so.1 /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2; do
    if [ -x "$nx_l" ]; then nx_ld=$nx_l; nx_ldkind=ld.so; break; fi
  done
fi
if [ -n "$nx_ld" ]; then
  printf 'tool %s\n' "$nx_ldkind"
  if [ -n "$nx_first_dir" ]; then
    printf 'dir %s\n' "$nx_first_dir"
    nx_n=0
    for nx_p in "$nx_first_dir"/libplugin_*.so; do
      [ -e "$nx_p" ] || continue
      nx_n=$((nx_n + 1))
      [ "$nx_n" -gt 32 ] && break
      printf '@ %s\n' "$nx_p"
      if [ "$nx_ldkind" = ldd ]; then nx_bounded 5 "$nx_ld" "$nx_p" </dev/null 2>&1
      else nx_bounded 5 "$nx_ld" --list "$nx_p" </dev/null 2>&1
      fi | while IFS= read -r nx_l; do
        case $nx_l in *'not found'*|*'error while loading'*|*libucp*|*libucs*|*libfabric*) printf '%s\n' "$nx_l" ;; esac
      done
    done
  fi
  nx_end nixl_libs 0
else
  nx_end nixl_libs absent
fi
)ICHECK_SH";

}  // namespace

std::string_view nixl_libs_fragment() {
  return kNixlLibs;
}

}  // namespace icheck::probe
