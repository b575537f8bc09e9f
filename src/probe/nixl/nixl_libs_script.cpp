#include "probe/nixl/nixl_libs_script.hpp"

namespace icheck::probe {
namespace {

// A plugin file that is there but cannot load is what NIXL reports as "unsupported backend"
// (ai-dynamo/nixl #1561: libplugin_UCX.so present, libucp.so.0 not found). ldd (glibc's) runs the
// dynamic loader in list mode, which maps the libraries and exits before any of their code runs;
// without ldd the loader itself is asked (--list; it stops at the first library it cannot open).
// Each listing is bounded (5 s; 1 s without `date +%s`), all of them share one budget (10 s:
// `budget` says it ran out, and the plugins not listed are said as not checked), 32 plugins at
// most. A file name that is not
// plain (a newline or any other control character, a blank: pod-controlled text that could forge
// the listing's lines) is never printed nor listed: `odd-name` counts it. `rc N` ends each
// listing: one the bound stopped (124, 137, 143) lists nothing, whatever it printed.
constexpr std::string_view kNixlLibs = R"ICHECK_SH(
nx_begin nixl_libs
nx_libs_budget=10
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
  case $nx_first_dir in *[[:cntrl:]]*) printf 'odd-dir\n'; nx_first_dir= ;; esac
  if [ -n "$nx_first_dir" ]; then
    printf 'dir %s\n' "$nx_first_dir"
    nx_n=0
    nx_t0=$(date +%s 2>/dev/null)
    nx_left=$nx_libs_budget
    for nx_p in "$nx_first_dir"/libplugin_*.so; do
      [ -e "$nx_p" ] || continue
      nx_n=$((nx_n + 1))
      [ "$nx_n" -gt 32 ] && break
      case ${nx_p##*/} in
        *[![:alnum:]._+-]*) printf 'odd-name\n'; continue ;;
      esac
      nx_s=1
      case $nx_t0 in
        *[!0-9]*|'') ;;
        *) nx_now=$(date +%s 2>/dev/null)
           case $nx_now in
             *[!0-9]*|'') ;;
             *) nx_left=$((nx_libs_budget - (nx_now - nx_t0))); nx_s=5 ;;
           esac ;;
      esac
      if [ "$nx_left" -le 0 ]; then printf 'budget %s\n' "$nx_libs_budget"; break; fi
      [ "$nx_left" -lt "$nx_s" ] && nx_s=$nx_left
      printf '@ %s\n' "$nx_p"
      {
        if [ "$nx_ldkind" = ldd ]; then nx_bounded "$nx_s" "$nx_ld" "$nx_p" </dev/null 2>&1
        else nx_bounded "$nx_s" "$nx_ld" --list "$nx_p" </dev/null 2>&1
        fi
        printf '\nrc %s\n' "$?"
      } | while IFS= read -r nx_l; do
        case $nx_l in *'not found'*|*'error while loading'*|*libucp*|*libucs*|*libfabric*|'rc '*) printf '%s\n' "$nx_l" ;; esac
      done
      [ "$nx_s" = 1 ] && nx_left=$((nx_left - 1))  # no clock: each listing counts its bound
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
