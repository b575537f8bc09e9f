#include "probe/nixl/nixl_script.hpp"

#include "dynamo/transport_vars.hpp"
#include "probe/nixl/nixl_agent_script.hpp"
#include "probe/nixl/nixl_libs_script.hpp"
#include "probe/script_template.hpp"

namespace icheck::probe {

// Why the shape: the fragment must run after the node script or on its own, so it bounds its
// tools with the node script's `bounded` (GNU timeout or the process-tree killer) when that ran
// first, and detects a `timeout` of its own otherwise. PATH is searched
// with a builtin loop and files are read with `read`, so a tool-less image costs only a few
// forks; only python3, nixlbench --help and grep over /proc/PID/maps are spawned, each bounded.
// Nothing is written: no temp files, no pip, no ldconfig.
namespace {

constexpr std::string_view kNixlTemplate = R"ICHECK_SH(
ICHECK_MARK=${ICHECK_MARK:-@@icheck:}  # the node script's, with its nonce, when it ran first
nx_begin() { printf '\n%sbegin %s@@\n' "$ICHECK_MARK" "$1"; }
nx_end() { printf '\n%send %s rc=%s@@\n' "$ICHECK_MARK" "$1" "$2"; }

if [ -n "${TMO:-}" ]; then
  nx_tmo=node   # the node script's bounded() is defined
else
  nx_tmo=none
  if command -v timeout >/dev/null 2>&1; then
    if timeout 1 true >/dev/null 2>&1; then nx_tmo=plain
    elif timeout -t 1 true >/dev/null 2>&1; then nx_tmo=dash_t
    fi
  fi
fi

# nx_bounded SECS CMD ARGS...
nx_bounded() {
  nx_s=$1
  shift
  case $nx_tmo in
    node)
      nx_t=$T
      T=$nx_s
      bounded "$@"
      nx_rc=$?
      T=$nx_t
      return $nx_rc ;;
    plain) timeout "$nx_s" "$@" ;;
    dash_t) timeout -t "$nx_s" "$@" ;;
    *)
      "$@" &
      nx_pid=$!
      ( sleep "$nx_s"; kill -9 "$nx_pid" ) >/dev/null 2>&1 &
      nx_killer=$!
      wait "$nx_pid"
      nx_rc=$?
      kill "$nx_killer" >/dev/null 2>&1
      return $nx_rc ;;
  esac
}

# nx_which NAME: sets nx_found to the first executable NAME on PATH, without forking.
nx_which() {
  nx_found=
  nx_ifs=$IFS
  IFS=:
  for nx_d in $PATH; do
    IFS=$nx_ifs
    if [ -n "$nx_d" ] && [ -x "$nx_d/$1" ] && [ ! -d "$nx_d/$1" ]; then
      nx_found=$nx_d/$1
      return 0
    fi
  done
  IFS=$nx_ifs
  return 1
}

# nx_tool NAME PREFIX...: PATH first, then the install prefixes images use.
nx_tool() {
  nx_t=$1
  shift
  nx_which "$nx_t" && return 0
  for nx_p in "$@"; do
    if [ -x "$nx_p/$nx_t" ]; then nx_found=$nx_p/$nx_t; return 0; fi
  done
  nx_found=
  return 1
}

nx_begin nixl_env
printf '@@PLUGIN_DIR_VAR@@=%s\n' "${@@PLUGIN_DIR_VAR@@-}"
printf 'LD_PRELOAD=%s\n' "${LD_PRELOAD-}"
# The variables that choose the NIXL backend (rules/nixl/nixl_backend.hpp), as the container has them.
if command -v env >/dev/null 2>&1; then
  env | while IFS= read -r nx_l; do
    case $nx_l in
      @@BACKEND_ENV@@)
        printf '%s\n' "$nx_l" ;;
    esac
  done
fi
nx_end nixl_env 0

nx_sites=
for nx_s in /usr/local/lib/python3*/dist-packages /usr/local/lib/python3*/site-packages \
    /usr/lib/python3/dist-packages /usr/lib/python3*/site-packages \
    /opt/dynamo/venv/lib/python3*/site-packages /opt/venv/lib/python3*/site-packages \
    /opt/conda/lib/python3*/site-packages ${VIRTUAL_ENV:+$VIRTUAL_ENV/lib/python3*/site-packages}; do
  [ -d "$nx_s" ] && nx_sites="$nx_sites $nx_s"
done

# nx_dir SOURCE PATH: one plugin directory and its backend plugins.
nx_first_dir=
nx_dir() {
  [ -d "$2" ] || return 0
  [ -n "$nx_first_dir" ] || nx_first_dir=$2  # the one NIXL loads from (NixlFacts::active_plugin_dir)
  printf '@ %s %s\n' "$1" "$2"
  nx_real=$(cd -P "$2" 2>/dev/null && pwd -P) && printf 'real %s\n' "$nx_real"
  for nx_p in "$2"/libplugin_*.so; do
    [ -e "$nx_p" ] || continue
    case ${nx_p##*/} in  # a name that could forge lines is not a plugin NIXL would load
      *[![:alnum:]._+-]*) printf 'odd-name\n' ;;
      *) printf '%s\n' "${nx_p##*/}" ;;
    esac
  done
  return 0
}

nx_begin nixl_dirs
if [ -n "${@@PLUGIN_DIR_VAR@@-}" ]; then
  if [ -d "$@@PLUGIN_DIR_VAR@@" ]; then nx_dir env "$@@PLUGIN_DIR_VAR@@"
  else printf '! env %s\n' "$@@PLUGIN_DIR_VAR@@"
  fi
fi
nx_dir opt-dynamo /opt/dynamo/nixl/plugins
nx_dir nvda-nixl-lib64 /opt/nvidia/nvda_nixl/lib64/plugins
for nx_d in /opt/nvidia/nvda_nixl/lib/*-linux-gnu/plugins; do nx_dir nvda-nixl-lib-arch "$nx_d"; done
nx_dir nvda-nixl /opt/nvidia/nvda_nixl/plugins
for nx_s in $nx_sites; do nx_dir tensorrt-llm "$nx_s/tensorrt_llm/libs/nixl/plugins"; done
for nx_s in $nx_sites; do
  for nx_d in "$nx_s"/.nixl*.mesonpy.libs/plugins; do nx_dir wheel "$nx_d"; done
done
for nx_d in /usr/local/nixl/lib/*/plugins /usr/local/nixl/lib64/plugins; do nx_dir usr-local-nixl "$nx_d"; done
nx_end nixl_dirs 0

nx_begin nixl_python
if nx_which python3; then
  nx_bounded 10 "$nx_found" -c 'import nixl; print("file " + str(nixl.__file__))' </dev/null 2>&1
  nx_end nixl_python $?
else
  nx_end nixl_python absent
fi

# nx_meta FILE all|header: a versions file whole (50 lines at most), or a wheel METADATA's
# Name:/Version: header lines (the header ends at the first blank line).
nx_meta() {
  printf '==> %s <==\n' "$1"
  nx_n=0
  while IFS= read -r nx_l || [ -n "$nx_l" ]; do
    nx_n=$((nx_n + 1))
    [ "$nx_n" -gt 50 ] && break
    if [ "$2" = all ]; then printf '%s\n' "$nx_l"; continue; fi
    case $nx_l in
      Name:*|Version:*) printf '%s\n' "$nx_l" ;;
      '') break ;;
    esac
  done < "$1"
}

nx_begin nixl_versions
[ -r /opt/dynamo/nixl-versions.txt ] && nx_meta /opt/dynamo/nixl-versions.txt all
for nx_s in $nx_sites; do
  for nx_m in "$nx_s"/nixl-*.dist-info/METADATA "$nx_s"/nixl_cu1*-*.dist-info/METADATA; do
    [ -r "$nx_m" ] && nx_meta "$nx_m" header
  done
done
nx_end nixl_versions 0

nx_begin nixl_tools
nx_tool nixlbench /usr/local/nixlbench/bin /usr/local/nixl/bin /opt/nvidia/nvda_nixl/bin && printf 'nixlbench %s\n' "$nx_found"
nx_bench=$nx_found
nx_tool nixl_test /opt/nvidia/nvda_nixl/bin /usr/local/nixl/bin && printf 'nixl_test %s\n' "$nx_found"
nx_tool nixl_example /opt/nvidia/nvda_nixl/bin /usr/local/nixl/bin && printf 'nixl_example %s\n' "$nx_found"
nx_tool ucx_perftest /usr/local/ucx/bin && printf 'ucx_perftest %s\n' "$nx_found"
nx_tool ucx_info /usr/local/ucx/bin && printf 'ucx_info %s\n' "$nx_found"
nx_end nixl_tools 0

# Only the flags that tell whether the etcd-free ASIO runtime is built in (April 2026+).
nx_begin nixl_bench_help
if [ -n "$nx_bench" ]; then
  nx_bounded 5 "$nx_bench" --help </dev/null 2>&1 | while IFS= read -r nx_l; do
    case $nx_l in *asio*|*ASIO*|*runtime_type*) printf '%s\n' "$nx_l" ;; esac
  done
  nx_end nixl_bench_help 0
else
  nx_end nixl_bench_help absent
fi

nx_begin nixl_efa
for nx_d in /sys/class/infiniband/efa* /sys/class/infiniband/rdmap*; do
  [ -e "$nx_d" ] && printf '%s\n' "${nx_d##*/}"
done
nx_end nixl_efa 0

# The serving process is the one with the most libucs/libucp mappings; two different UCX
# copies in it is the nixl#1668 hang. Only /proc/PID/maps is read.
nx_begin nixl_ucx_maps
if nx_which grep; then
  nx_grep=$nx_found
  nx_best=
  nx_bestn=0
  # One grep over every maps file ("FILE:COUNT" lines, -H even when one file matches the
  # glob), not one fork per process.
  for nx_l in $(nx_bounded 3 "$nx_grep" -H -s -c -E 'libuc[ps]' /proc/[0-9]*/maps 2>/dev/null); do
    case $nx_l in /proc/*/maps:*) ;; *) continue ;; esac
    nx_p=${nx_l#/proc/}
    nx_p=${nx_p%%/*}
    nx_c=${nx_l##*:}
    [ "$nx_p" = "$$" ] && continue
    case $nx_c in ''|*[!0-9]*) continue ;; esac
    if [ "$nx_c" -gt "$nx_bestn" ]; then nx_bestn=$nx_c; nx_best=$nx_p; fi
  done
  if [ -n "$nx_best" ]; then
    nx_comm=
    [ -r "/proc/$nx_best/comm" ] && IFS= read -r nx_comm < "/proc/$nx_best/comm"
    printf 'pid %s %s\n' "$nx_best" "$nx_comm"
    nx_bounded 3 "$nx_grep" -E 'libuc[ps]' "/proc/$nx_best/maps" 2>/dev/null
  fi
  nx_end nixl_ucx_maps 0
else
  nx_end nixl_ucx_maps absent
fi

# TRT-LLM's engine config (cache_transceiver_config picks NIXL or UCX directly): the file named
# by --extra-engine-args in a running process's own argv, read as that process sees it. The
# pattern's [s] keeps grep from matching its own command line.
nx_begin nixl_engine_config
nx_rc=absent
if nx_which grep && nx_grep=$nx_found && nx_which tr; then
  nx_rc=0
  nx_tr=$nx_found
  for nx_f in $(nx_bounded 3 "$nx_grep" -l -s -E 'extra[-_]engine[-_]arg[s]' /proc/[0-9]*/cmdline 2>/dev/null); do
    nx_p=${nx_f#/proc/}
    nx_p=${nx_p%%/*}
    [ "$nx_p" = "$$" ] && continue
    # argv one per line through a pipe (a here-document may need a temp file: nothing is written)
    nx_path=$("$nx_tr" '\000' '\n' < "$nx_f" 2>/dev/null | {
      nx_next=
      while IFS= read -r nx_a; do
        if [ -n "$nx_next" ]; then printf '%s' "$nx_a"; break; fi
        case $nx_a in
          --extra-engine-args|--extra_engine_args) nx_next=1 ;;
          --extra-engine-args=*|--extra_engine_args=*) printf '%s' "${nx_a#*=}"; break ;;
        esac
      done
    })
    [ -n "$nx_path" ] || continue
    nx_comm=
    [ -r "/proc/$nx_p/comm" ] && IFS= read -r nx_comm < "/proc/$nx_p/comm"
    printf 'pid %s %s\npath %s\n' "$nx_p" "$nx_comm" "$nx_path"
    case $nx_path in /*) nx_file=$nx_path ;; *) nx_file=/proc/$nx_p/cwd/$nx_path ;; esac
    if [ -r "$nx_file" ] && [ -f "$nx_file" ]; then
      printf '%s\n' '--- file'
      nx_n=0
      while [ "$nx_n" -lt 2000 ] && IFS= read -r nx_line || [ -n "$nx_line" ]; do
        printf '%s\n' "$nx_line"
        nx_n=$((nx_n + 1))
        nx_line=
      done < "$nx_file"
    else
      printf 'unreadable\n'
    fi
    break
  done
fi
nx_end nixl_engine_config "$nx_rc"
)ICHECK_SH";

} // namespace

// The env filter comes from dynamo/transport_vars.hpp, the one list of transport variables.
std::string_view nixl_probe_script() {
  static const std::string script = fill_every(fill_env_patterns(kNixlTemplate, "@@BACKEND_ENV@@",
                                                                 dynamo::backend_env_patterns()),
                                               "@@PLUGIN_DIR_VAR@@", dynamo::kNixlPluginDirVar) +
                                    std::string(nixl_libs_fragment()) +
                                    std::string(nixl_agent_fragment());
  return script;
}

std::string insert_before_done(std::string_view script, std::string_view fragment) {
  constexpr std::string_view done_line = "printf '\\n%sdone@@\\n' \"$ICHECK_MARK\"";
  std::string out(script);
  auto at = out.rfind(done_line);
  if (at == std::string::npos) return out.append(fragment);
  out.insert(at, fragment);
  return out;
}

}  // namespace icheck::probe
