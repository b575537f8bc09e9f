// gpudirect: can the NIC read GPU memory directly? peermem or DMA-BUF; GDRCopy (optional).
#include "util/text.hpp"
#include "rules/node/node_layers.hpp"
#include "rules/ucx/ucx_view.hpp"

namespace icheck::rules::node {
namespace {

using report::Layer;
using report::Status;

// "6.8.0-1015-aws" -> {6, 8}; DMA-BUF import into RDMA arrived in 5.12.
bool kernel_at_least(const std::string& kernel, int major, int minor) {
  auto parts = text::split(kernel, '.');
  if (parts.size() < 2) return false;
  auto ma = text::to_int(parts[0]);
  auto digits = parts[1].substr(0, parts[1].find_first_not_of("0123456789"));
  auto mi = text::to_int(digits);
  if (!ma || !mi) return false;
  return *ma > major || (*ma == major && *mi >= minor);
}

std::optional<std::string> peermem_loaded(const probe::PeerMemory& pm) {
  if (pm.nv_mem_version && !pm.nv_mem_version->empty())
    return "peer memory client nv_mem registered (version " + *pm.nv_mem_version + ")";
  if (pm.nvidia_peermem) return std::string("nvidia_peermem loaded");
  if (pm.nv_peer_mem) return std::string("nv_peer_mem (legacy MLNX) loaded");
  return std::nullopt;
}

std::string driver_text(const NodeView& v) {
  const auto& d = v.facts.nvidia_driver;
  if (!d.present) return "NVIDIA driver version unreadable (/proc/driver/nvidia/version)";
  return std::string(d.open_kernel_module ? "open" : "proprietary") + " kernel module " + d.version;
}

const char* peermem_next =
    "load nvidia-peermem on the node (GPU Operator: driver.rdma.enabled=true), or run the open kernel module on a "
    "kernel >= 5.12 for DMA-BUF";

// AWS EFA: libfabric's EFA provider, not UCX's IB memory domain, registers GPU memory, through
// efa_nv_peermem (the EFA installer's module) or DMA-BUF; nvidia_peermem serves mlx5 HCAs.
report::Finding efa_peer_memory(const NodeView& v) {
  if (v.facts.platform.efa_nv_peermem)
    return finding(Layer::gpudirect, "peer-memory", Status::ok,
                   "efa_nv_peermem loaded: GPUDirect RDMA over EFA");
  if (cut_before(v.facts, "nvidia_driver"))
    return finding(Layer::gpudirect, "peer-memory", Status::skipped,
                   "the probe's output was cut before the kernel modules and driver were read: "
                   "efa_nv_peermem unknown",
                   "rerun the check");
  const auto& d = v.facts.nvidia_driver;
  std::string kernel = v.facts.kernel.empty() ? "kernel unknown" : "kernel " + v.facts.kernel;
  if (d.present && d.open_kernel_module && kernel_at_least(v.facts.kernel, 5, 12))
    return finding(Layer::gpudirect, "peer-memory", Status::warn,
                   "no efa_nv_peermem: GPUDirect RDMA over EFA relies on DMA-BUF (" +
                       driver_text(v) + ", " + kernel +
                       "), unconfirmed until libfabric's EFA provider registers GPU memory",
                   "the transfer test registers GPU memory through NIXL's LIBFABRIC backend: "
                   "kubectl dynamo-icheck nixl --transfer");
  return finding(Layer::gpudirect, "peer-memory", Status::fail,
                 "no efa_nv_peermem and no DMA-BUF path (" + driver_text(v) + ", " + kernel +
                     "): libfabric cannot register GPU memory on EFA, KV would be staged through "
                     "host memory",
                 "install the EFA driver with GPUDirect RDMA on the node (its installer loads "
                 "efa_nv_peermem), or run the open kernel module on a kernel >= 5.12 for DMA-BUF");
}

report::Finding peer_memory(const NodeView& v) {
  if (v.facts.platform.efa_nv_peermem || !v.facts.platform.efa_devices.empty())
    return efa_peer_memory(v);
  if (auto loaded = peermem_loaded(v.facts.peer_memory))
    return finding(Layer::gpudirect, "peer-memory", Status::ok, *loaded);
  if (cut_before(v.facts, "nvidia_driver"))
    return finding(Layer::gpudirect, "peer-memory", Status::skipped,
                   "the probe's output was cut before the kernel modules and driver were read: peer memory unknown",
                   "rerun the check");
  auto ucx = ucx_gpu_memory(v.facts);
  if (ucx.confirmed)
    return finding(Layer::gpudirect, "peer-memory", Status::ok,
                   "no peermem module, but UCX registers cuda memory on " + ucx.domain + " (DMA-BUF)");
  const auto& d = v.facts.nvidia_driver;
  std::string kernel = v.facts.kernel.empty() ? "kernel unknown" : "kernel " + v.facts.kernel;
  if (d.present && d.open_kernel_module && kernel_at_least(v.facts.kernel, 5, 12))
    return finding(Layer::gpudirect, "peer-memory", Status::warn,
                   "no nvidia_peermem: relies on DMA-BUF (" + driver_text(v) + ", " + kernel +
                       "), unconfirmed until UCX lists cuda memory on the IB memory domain",
                   "ucx_info -d | grep -A4 'Memory domain: mlx5' (memory types must include cuda)");
  std::string why = "no nvidia_peermem / nv_peer_mem and no DMA-BUF path (" + driver_text(v) + ", " + kernel +
                    "): GPUDirect RDMA unavailable, KV would be staged through host memory";
  return finding(Layer::gpudirect, "peer-memory", Status::fail, why, peermem_next);
}

// GDRCopy speeds small GPU copies; NIXL works without it, so it never blocks.
report::Finding gdrcopy(const NodeView& v) {
  const auto& g = v.facts.gdrcopy;
  const char* next = "optional: gdrdrv on the node (GPU Operator gdrcopy.enabled=true) and /dev/gdrdrv in the pod";
  if (g.dev_gdrdrv) return finding(Layer::gpudirect, "gdrcopy", Status::ok, "/dev/gdrdrv present: GDRCopy usable", {}, false);
  // An empty or cut probe output read nothing: that is not "absent".
  if (not_read(v.facts, "dev_gdrdrv"))
    return not_read_finding(Layer::gpudirect, "gdrcopy", "/dev/gdrdrv", false);
  if (g.module || g.proc_devices_major)
    return finding(Layer::gpudirect, "gdrcopy", Status::warn,
                   "gdrdrv loaded on the node but /dev/gdrdrv is not in the pod: GDRCopy not used (optional)", next, false);
  return finding(Layer::gpudirect, "gdrcopy", Status::warn, "/dev/gdrdrv absent: GDRCopy not used (optional)", next,
                 false);
}

// UCX's own view is the strongest surface evidence: cuda on the IB memory domain.
std::optional<report::Finding> ucx_gpudirect(const NodeView& v) {
  if (!v.facts.ucx_devices) return std::nullopt;
  auto g = ucx_gpu_memory(v.facts);
  if (g.domain.empty()) return std::nullopt;  // no IB memory domain: the ucx layer says why
  if (g.confirmed)
    return finding(Layer::gpudirect, "ucx gpudirect", Status::ok,
                   "UCX registers cuda memory on " + g.domain + (g.dmabuf ? " (dmabuf)" : "") +
                       ": GPUDirect RDMA confirmed");
  if (!g.ucx_has_cuda && v.facts.ucx_source.starts_with("libucp"))
    return finding(Layer::gpudirect, "ucx gpudirect", Status::warn,
                   "the UCX NIXL loads has no CUDA support (no cuda_copy; " + v.facts.ucx_source +
                       "): GPU memory is not registered through UCX",
                   "use an image whose NIXL wheel carries UCX's cuda module (ucx/libuct_cuda*)");
  if (!g.ucx_has_cuda)
    return finding(Layer::gpudirect, "ucx gpudirect", Status::warn,
                   "this ucx_info has no CUDA support (no cuda_copy): cannot tell GPUDirect; NIXL's UCX may differ",
                   "ucx_info -v | grep -o 'with-cuda[^ ]*'");
  return finding(Layer::gpudirect, "ucx gpudirect", Status::fail,
                 "UCX lists only host memory on " + g.domain + ": GPUDirect RDMA disabled, KV staged through host",
                 peermem_next);
}

}  // namespace

std::vector<report::Finding> judge_gpudirect(const NodeView& v) {
  std::vector<report::Finding> out{peer_memory(v)};
  if (auto f = ucx_gpudirect(v)) out.push_back(*f);
  out.push_back(gdrcopy(v));
  return out;
}

}  // namespace icheck::rules::node
