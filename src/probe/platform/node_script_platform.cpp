#include "dynamo/engine_flags.hpp"
#include "dynamo/transport_vars.hpp"
#include "probe/node_script.hpp"
#include "probe/script_template.hpp"

#include <string>

namespace icheck::probe {

// The platform half of the node probe, placed before the node script's "done" marker: multi-node
// NVLink (IMEX channels, the GPUs' fabric registration), the RDMA devices' PCI vendor (EFA),
// PCIe link training, IOMMU and ACS, and the limits of the running KV worker process.
// Only files are read, except nvidia-smi -q (only where multi-node NVLink is in play), fi_info
// and lspci (when the image has them) and one grep over /proc/*/cmdline.
// The script's own text must not hold the worker pattern's match (its cmdline is grepped too):
// the module prefix is written with `[.]`, which does not match itself.
namespace {

constexpr std::string_view kPlatformTemplate = R"ICHECK_SH(
begin imex_channels
if [ -d /dev/nvidia-caps-imex-channels ]; then
  for e in /dev/nvidia-caps-imex-channels/*; do [ -e "$e" ] && printf '%s\n' "${e##*/}"; done
  end imex_channels 0
else
  end imex_channels absent
fi

# The GPUs the container runtime gave this container (one folder per PCI address).
GPU_BDFS=
MNNVL_PART=
NVLINK5_PART=
begin nvidia_gpus
if [ -d /proc/driver/nvidia/gpus ]; then
  for g in /proc/driver/nvidia/gpus/*; do
    [ -d "$g" ] || continue
    GPU_BDFS="$GPU_BDFS ${g##*/}"
    printf '==> %s <==\n' "${g##*/}"
    [ -r "$g/information" ] || continue
    while IFS= read -r line; do
      case $line in
        Model:*) printf '%s\n' "$line"
          case $line in
            *GB200*|*GB300*|*GH200*) MNNVL_PART=1 ;;
            *B200*|*B300*) NVLINK5_PART=1 ;;
          esac ;;
      esac
    done < "$g/information"
  done
  end nvidia_gpus 0
else
  end nvidia_gpus absent
fi

# nvidia-smi -q is long and slow on NVL72 trays: only top-level lines (GPU headers, errors) and
# each GPU's Fabric block are kept, and it runs only where multi-node NVLink is in play or the
# GPUs are NVLink5 parts (B200, B300), whose NVSwitch fabric Fabric Manager must finish setting up.
fabric_filter() {
  blk=0
  while IFS= read -r line || [ -n "$line" ]; do
    case $line in
      @@smi-rc\ *) end gpu_fabric "${line#@@smi-rc }" ;;
      "    Fabric"*) printf '%s\n' "$line"; blk=1 ;;
      "     "*) [ $blk = 1 ] && printf '%s\n' "$line" ;;
      " "*) blk=0 ;;
      *) blk=0; printf '%s\n' "$line" ;;
    esac
  done
}
if [ -n "$MNNVL_PART" ] || [ -n "$NVLINK5_PART" ] || [ -d /dev/nvidia-caps-imex-channels ] || [ -n "$@@UCX_MNNVL_VAR@@" ] ||
   [ -n "$@@NCCL_MNNVL_VAR@@" ]; then
  begin gpu_fabric
  if command -v nvidia-smi >/dev/null 2>&1; then
    { bounded nvidia-smi -q </dev/null 2>&1; printf '\n@@smi-rc %s\n' $?; } | fabric_filter
  else
    end gpu_fabric absent
  fi
fi

# pci_show KIND NAME BDF: the PCIe link as trained and at most, the device's IOMMU domain, and
# where its sysfs link resolves (the bridges above it, which ACS is judged on).
pci_show() {
  pd=/sys/bus/pci/devices/$3
  [ -d "$pd" ] || return 0
  printf 'pci %s %s %s\n' "$1" "$2" "$3"
  real=$(cd -P "$pd" 2>/dev/null && pwd -P) && printf 'path %s\n' "$real"
  for a in vendor device current_link_speed current_link_width max_link_speed max_link_width iommu_group/type; do
    [ -r "$pd/$a" ] && { IFS= read -r v < "$pd/$a" && printf '%s %s\n' "$a" "$v"; }
  done
}

begin pci_links
for d in /sys/class/infiniband/*; do
  [ -r "$d/device/uevent" ] || continue
  while IFS= read -r line; do
    case $line in PCI_SLOT_NAME=*) pci_show nic "${d##*/}" "${line#PCI_SLOT_NAME=}" ;; esac
  done < "$d/device/uevent"
done
for b in $GPU_BDFS; do pci_show gpu "$b" "$b"; done
end pci_links 0

begin iommu
[ -r /proc/cmdline ] && { IFS= read -r line < /proc/cmdline; printf 'cmdline %s\n' "$line"; }
if [ -d /sys/class/iommu ]; then
  for e in /sys/class/iommu/*; do [ -e "$e" ] && printf 'unit %s\n' "${e##*/}"; done
  printf 'class present\n'
fi
end iommu 0

# ACS needs PCI config space beyond the first 64 bytes: root and lspci. The bridges above the
# GPUs and NICs are what matter, so device headers and ACS control lines are kept.
begin lspci_acs
if command -v lspci >/dev/null 2>&1; then
  { bounded lspci -vvv </dev/null 2>&1; printf '\n@@rc %s\n' $?; } | while IFS= read -r line; do
    case $line in
      @@rc\ *) end lspci_acs "${line#@@rc }" ;;
      [0-9a-f]*) printf '%s\n' "$line" ;;
      *ACSCtl*|*"access denied"*) printf '%s\n' "$line" ;;
    esac
  done
else
  end lspci_acs absent
fi

HAS_EFA=
for d in /sys/class/infiniband/*; do
  [ -r "$d/device/vendor" ] || continue
  IFS= read -r v < "$d/device/vendor"
  [ "$v" = 0x1d0f ] && HAS_EFA=1
done
if [ -n "$HAS_EFA" ]; then
  tool_section fi_info fi_info -p efa
fi

file_section efa_peermem /sys/module/efa_nv_peermem/version

# The KV worker: the processes whose command line names a Dynamo backend module. Its own limits
# are what memory registration meets; the exec shell's are only a fallback.
begin kv_worker
if command -v grep >/dev/null 2>&1; then
  seen=
  for m in $(grep -a -o -E '@@ENGINE_MODULES@@' /proc/[0-9]*/cmdline 2>/dev/null); do
    f=${m%%:*}
    p=${f#/proc/}
    p=${p%%/*}
    [ "$p" = "$$" ] && continue
    case " $seen " in *" $p "*) continue ;; esac
    seen="$seen $p"
    printf '==> %s <==\nmodule %s\n' "$p" "${m#*:}"
    [ -r "/proc/$p/comm" ] && { IFS= read -r v < "/proc/$p/comm"; printf 'comm %s\n' "$v"; }
    [ -r "/proc/$p/limits" ] && while IFS= read -r line; do
      case $line in "Max locked memory"*) printf '%s\n' "$line" ;; esac
    done < "/proc/$p/limits"
    [ -r "/proc/$p/status" ] && while IFS= read -r line; do
      case $line in CapEff:*|Uid:*) printf '%s\n' "$line" ;; esac
    done < "/proc/$p/status"
  done
  end kv_worker 0
else
  end kv_worker absent
fi
)ICHECK_SH";

// "dynamo." -> "dynamo[.][a-z_]+": a backend module as the vocabulary names it (python3 -m
// dynamo.vllm).
std::string engine_module_pattern() {
  std::string out;
  for (char c : dynamo::kBackendModulePrefix)
    out += c == '.' ? std::string("[.]") : std::string(1, c);
  return out + "[a-z_]+";
}

} // namespace

std::string_view node_platform_fragment() {
  static const std::string fragment =
      fill_every(fill_every(fill_env_patterns(kPlatformTemplate, "@@ENGINE_MODULES@@",
                                              engine_module_pattern()),
                            "@@UCX_MNNVL_VAR@@", dynamo::kUcxCudaIpcMnnvlVar),
                 "@@NCCL_MNNVL_VAR@@", dynamo::kNcclMnnvlEnableVar);
  return fragment;
}

} // namespace icheck::probe
