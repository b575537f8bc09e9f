#include "probe/stack/stack_script.hpp"

namespace icheck::probe {
namespace {

// Uses the node script's begin/end/bounded helpers. Globs only: a tool-less image pays no fork.
constexpr std::string_view kStackScript = R"ICHECK_SH(
begin stack_versions
st_sites=
for st_s in /usr/local/lib/python3*/dist-packages /usr/local/lib/python3*/site-packages \
    /usr/lib/python3/dist-packages /usr/lib/python3*/site-packages \
    /opt/dynamo/venv/lib/python3*/site-packages /opt/venv/lib/python3*/site-packages \
    /opt/conda/lib/python3*/site-packages ${VIRTUAL_ENV:+$VIRTUAL_ENV/lib/python3*/site-packages}; do
  [ -d "$st_s" ] || continue
  for st_d in "$st_s"/nixl-*.dist-info "$st_s"/nixl_cu*-*.dist-info "$st_s"/vllm-*.dist-info \
      "$st_s"/sglang-*.dist-info "$st_s"/tensorrt_llm-*.dist-info "$st_s"/ai_dynamo-*.dist-info \
      "$st_s"/ai_dynamo_runtime-*.dist-info "$st_s"/torch-*.dist-info \
      "$st_s"/mooncake_transfer_engine*-*.dist-info "$st_s"/nvidia_nccl_cu*-*.dist-info \
      "$st_s"/nvidia_cuda_runtime*-*.dist-info; do
    [ -d "$st_d" ] && printf 'dist %s\n' "$st_d"
  done
  st_sites="$st_sites $st_s"
done
# Every copy of libnixl in the places images put one (Dynamo's system build, TRT-LLM's bundle,
# the NIXL wheels' .libs), each file once (a symlink to one already printed is the same copy);
# then the copy LD_LIBRARY_PATH resolves first, named as the copy it is.
st_nl=
st_nixl_lib() {
  [ -e "$1" ] || return 0
  for st_o in $st_nl; do [ "$1" -ef "$st_o" ] && return 0; done
  st_nl="$st_nl $1"
  printf 'nixllib %s\n' "$1"
}
for st_d in /opt/nvidia/nvda_nixl/lib64 /opt/nvidia/nvda_nixl/lib/*-linux-gnu /opt/nvidia/nvda_nixl/lib \
    /usr/local/nixl/lib64 /usr/local/nixl/lib/*-linux-gnu /opt/dynamo/nixl/lib64; do
  for st_f in "$st_d"/libnixl.so "$st_d"/libnixl.so.*; do st_nixl_lib "$st_f"; done
done
for st_s in $st_sites; do
  for st_d in "$st_s"/tensorrt_llm/libs/nixl "$st_s"/nixl_cu*.libs "$st_s"/nixl.libs; do
    for st_f in "$st_d"/libnixl.so "$st_d"/libnixl-*.so*; do st_nixl_lib "$st_f"; done
  done
done
if [ -n "${LD_LIBRARY_PATH-}" ]; then
  set -f
  st_ifs=$IFS
  IFS=:
  for st_d in $LD_LIBRARY_PATH; do
    [ -n "$st_d" ] && [ -e "$st_d/libnixl.so" ] || continue
    IFS=$st_ifs
    st_nixl_lib "$st_d/libnixl.so"
    for st_o in $st_nl; do
      [ "$st_d/libnixl.so" -ef "$st_o" ] && { printf 'nixlld %s\n' "$st_o"; break; }
    done
    break
  done
  IFS=$st_ifs
  set +f
fi
for st_f in /usr/lib/*-linux-gnu/libnccl.so.2.* /usr/lib64/libnccl.so.2.* /usr/local/lib/libnccl.so.2.* \
    /usr/local/cuda/lib64/libcudart.so.*.*.* /usr/local/cuda/targets/*/lib/libcudart.so.*.*.*; do
  [ -e "$st_f" ] && printf 'lib %s\n' "$st_f"
done
for st_f in /opt/hpcx/ucx/lib/pkgconfig/ucx.pc /usr/local/ucx/lib/pkgconfig/ucx.pc \
    /usr/lib/*-linux-gnu/pkgconfig/ucx.pc /usr/lib64/pkgconfig/ucx.pc; do
  [ -r "$st_f" ] || continue
  st_n=0
  while IFS= read -r st_l && [ "$st_n" -lt 60 ]; do
    st_n=$((st_n + 1))
    case $st_l in Version:*) printf 'pc %s %s\n' "$st_f" "$st_l" ;; esac
  done < "$st_f"
done
if [ -r /usr/local/cuda/version.json ]; then
  st_n=0
  st_c=
  while IFS= read -r st_l && [ "$st_n" -lt 40 ]; do
    st_n=$((st_n + 1))
    case $st_l in
      *'"cuda"'*) st_c=1 ;;
      *'"version"'*) [ -n "$st_c" ] && { printf 'cuda %s\n' "$st_l"; st_c=; } ;;
    esac
  done < /usr/local/cuda/version.json
fi
[ -r /proc/sys/kernel/osrelease ] && { IFS= read -r st_l < /proc/sys/kernel/osrelease; printf 'kernel %s\n' "$st_l"; }
end stack_versions 0

# The container's whole environment, as transport_env prints its part ("BYTES NAME=VALUE", the
# value from the shell itself); masked where it enters the facts (outside/mask.hpp).
begin stack_env
if command -v env >/dev/null 2>&1; then
  LC_ALL=C
  env | while IFS= read -r st_l; do
    st_name=${st_l%%=*}
    case $st_name in ''|*[!A-Za-z0-9_]*|[0-9]*) continue ;; esac
    eval "[ -n \"\${$st_name+x}\" ]" || continue
    eval "st_v=\${$st_name}"
    printf '%s %s=%s\n' "${#st_v}" "$st_name" "$st_v"
  done
  end stack_env 0
else
  end stack_env absent
fi

st_fi=
if command -v fi_info >/dev/null 2>&1; then st_fi=fi_info
elif [ -x /opt/amazon/efa/bin/fi_info ]; then st_fi=/opt/amazon/efa/bin/fi_info
fi
begin stack_fi_info
if [ -n "$st_fi" ]; then
  bounded "$st_fi" --version </dev/null 2>&1
  end stack_fi_info $?
else
  end stack_fi_info absent
fi
)ICHECK_SH";

}  // namespace

std::string_view stack_probe_script() {
  return kStackScript;
}

}  // namespace icheck::probe
