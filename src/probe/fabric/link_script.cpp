#include "probe/fabric/link_script.hpp"

namespace icheck::probe {

// Why these counters: they count physical-link faults (bad cable, transceiver or NIC) that show
// as retries or silent stalls of KV transfers, never as a port that is not Active. The kernel
// keeps them under counters/; some drivers keep them under hw_counters/, so both are read.
// Only files are read (`read` builtin): no fork per port.
namespace {

constexpr std::string_view kLinkFragment = R"ICHECK_SH(
begin ib_links
for p in /sys/class/infiniband/*/ports/*; do
  [ -d "$p" ] || continue
  d=${p%/ports/*}
  id="${d##*/}/ports/${p##*/}"
  for c in link_downed symbol_error port_rcv_errors link_error_recovery \
      local_link_integrity_errors excessive_buffer_overrun_errors; do
    for k in counters hw_counters; do
      [ -r "$p/$k/$c" ] && { printf '==> %s/%s/%s <==\n' "$id" "$k" "$c"; show_file "$p/$k/$c"; }
    done
  done
  ll=
  [ -r "$p/link_layer" ] && IFS= read -r ll < "$p/link_layer"
  if [ "$ll" = InfiniBand ] && [ -r "$p/gids/0" ]; then
    printf '==> %s/gids/0 <==\n' "$id"
    show_file "$p/gids/0"
  fi
done
end ib_links 0

# A RoCE port's RDMA MTU follows the MTU of the netdev its GIDs sit on.
begin net_mtu
for i in /sys/class/net/*; do
  [ -r "$i/mtu" ] && IFS= read -r m < "$i/mtu" && printf '%s %s\n' "${i##*/}" "$m"
done
end net_mtu 0
)ICHECK_SH";

}  // namespace

std::string_view link_probe_fragment() {
  return kLinkFragment;
}

}  // namespace icheck::probe
