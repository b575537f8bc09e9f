#include "probe/gpudirect/kconfig_script.hpp"

namespace icheck::probe {
namespace {

// GPUDirect RDMA without a peer-memory module registers GPU memory through DMA-BUF, which the
// kernel exports only with CONFIG_PCI_P2PDMA (siderolabs/talos #12021). The config is the
// running kernel's own: /boot/config-RELEASE where the image mounts /boot, else /proc/config.gz
// (CONFIG_IKCONFIG_PROC) through the first decompressor the image has. Only the options the
// rows read are printed (a config has thousands of lines); the decompressor is bounded.
// /sys/kernel/mm/memory_peers exists where ib_core carries the peer-memory client API (MOFED).
constexpr std::string_view kKernelConfig = R"ICHECK_SH(
kc_filter() {
  while IFS= read -r kc_l; do
    case $kc_l in
      CONFIG_PCI_P2PDMA=*|'# CONFIG_PCI_P2PDMA '*|CONFIG_DMABUF_MOVE_NOTIFY=*|'# CONFIG_DMABUF_MOVE_NOTIFY '*|\
      CONFIG_INFINIBAND_USER_MEM=*|'# CONFIG_INFINIBAND_USER_MEM '*|CONFIG_ZONE_DEVICE=*|'# CONFIG_ZONE_DEVICE '*|\
      'read '*) printf '%s\n' "$kc_l" ;;
    esac
  done
}
begin kernel_config
kc_r=
[ -r /proc/sys/kernel/osrelease ] && IFS= read -r kc_r < /proc/sys/kernel/osrelease
kc_rc=absent
if [ -n "$kc_r" ] && [ -r "/boot/config-$kc_r" ]; then
  printf 'source /boot/config-%s\n' "$kc_r"
  { kc_filter < "/boot/config-$kc_r"; printf 'read 0\n'; }
  kc_rc=0
elif [ -r /proc/config.gz ]; then
  printf 'source /proc/config.gz\n'
  kc_rc=0
  if command -v zcat >/dev/null 2>&1; then
    { bounded zcat /proc/config.gz 2>/dev/null; printf '\nread %s\n' $?; } | kc_filter
  elif command -v gzip >/dev/null 2>&1; then
    { bounded gzip -dc /proc/config.gz 2>/dev/null; printf '\nread %s\n' $?; } | kc_filter
  elif command -v python3 >/dev/null 2>&1; then
    { bounded python3 -c 'import gzip,sys; sys.stdout.buffer.write(gzip.open("/proc/config.gz").read())' 2>/dev/null
      printf '\nread %s\n' $?; } | kc_filter
  else
    printf 'read none\n'
  fi
fi
if [ -d /sys/kernel/mm/memory_peers ]; then printf 'memory_peers present\n'
elif [ -d /sys/kernel/mm ]; then printf 'memory_peers absent\n'
else printf 'memory_peers unread\n'
fi
end kernel_config $kc_rc
)ICHECK_SH";

}  // namespace

std::string_view kernel_config_fragment() {
  return kKernelConfig;
}

}  // namespace icheck::probe
