// ucx: the transports and memory types UCX really sees, its version, RoCE addressing.
#include "dynamo/transport_vars.hpp"
#include "rules/env/env_ucx_tls.hpp"
#include "rules/fabric/fabric_pod.hpp"
#include "rules/node/node_layers.hpp"
#include "rules/ucx/ucx_view.hpp"
#include "util/text.hpp"

#include <algorithm>

namespace icheck::rules::node {
namespace {

using probe::UcxMemoryDomain;
using probe::UcxTransport;
using report::Layer;
using report::Status;

bool ib_domain(const UcxMemoryDomain& md) {
  return md.component == "ib" || md.name.starts_with("ib/") || md.name.starts_with("mlx");
}

bool rdma_transport(const UcxTransport& t) {
  const auto& n = t.transport;
  return n.starts_with("rc") || n.starts_with("dc") || n.starts_with("ud") || n == "srd";
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

// "mlx5_0:1" -> the sysfs port; nullptr when sysfs does not know it.
const probe::IbPort* sysfs_port(const NodeView& v, const std::string& ucx_device) {
  for (const auto* p : all_ports(v))
    if (port_id(*p) == ucx_device) return p;
  return nullptr;
}

const std::string no_ucx_info_next =
    "run ucx_info -d in a debug container with UCX on the same node and RDMA resources, or set " +
    dynamo::setting(dynamo::kUcxProtoInfoVar, "y") +
    " on the worker to log the transport NIXL's UCX selects";

std::optional<report::Finding> ucx_info_missing(const NodeView& v) {
  const auto* t = v.facts.tool("ucx_info_d");
  if (t == nullptr || !t->found)
    return finding(Layer::ucx, "transports", Status::skipped,
                   "ucx_info not in the image (Dynamo's vLLM images carry UCX only inside the NIXL wheel): cannot see "
                   "the transports UCX picks",
                   no_ucx_info_next);
  if (v.facts.ucx_devices) return std::nullopt;
  std::string why = t->timed_out ? "timed out"
                                 : "exited " + (t->exit_code ? std::to_string(*t->exit_code) : std::string("?"));
  auto first = text::lines(t->output);
  std::string line = first.empty() ? "" : ": " + std::string(text::trim(first.front()));
  return finding(Layer::ucx, "transports", Status::warn, "ucx_info -d " + why + line, "ucx_info -d");
}

report::Finding transports(const NodeView& v) {
  std::vector<std::string> rdma_names, devices, down, others;
  for (const auto& t : v.facts.ucx_devices->transports) {
    if (!rdma_transport(t)) {
      if (!has(others, t.transport)) others.push_back(t.transport);
      continue;
    }
    const auto* p = sysfs_port(v, t.device);
    if (p && !is_active(*p)) {
      if (!has(down, t.device)) down.push_back(t.device);
      continue;
    }
    if (!has(rdma_names, t.transport)) rdma_names.push_back(t.transport);
    if (!has(devices, t.device)) devices.push_back(t.device);
  }
  if (!rdma_names.empty())
    return finding(Layer::ucx, "transports", Status::ok,
                   join(rdma_names) + " on " + std::to_string(devices.size()) + " device" +
                       (devices.size() == 1 ? "" : "s") + " (" + join(devices) + ")");
  std::string seen = others.empty() ? "nothing" : join(others);
  std::string extra = down.empty() ? "" : "; RDMA transports only on ports that are not Active: " + join(down);
  return finding(Layer::ucx, "transports", Status::fail,
                 "UCX would fall back to TCP: ucx_info -d lists " + seen + ", no rc/dc/ud" + extra,
                 "fix the fabric and rdma-access findings above, then: ucx_info -d | grep 'Transport: rc'");
}

// ucx_info -d lists every transport the UCX build has, whatever UCX_TLS allows: an RDMA transport
// it lists is UCX's to use only when the pod's UCX_TLS keeps one. Multi-node NVLink leaves RDMA
// out on purpose (the nvlink layer judges that).
std::optional<report::Finding> tls_without_rdma(const NodeView& v) {
  auto tls = env(v.facts, dynamo::kUcxTlsVar);
  if (v.mnnvl || !tls || text::trim(*tls).empty() || detail::parse_ucx_tls(text::trim(*tls)).rdma)
    return std::nullopt;
  std::vector<std::string> listed;
  if (v.facts.ucx_devices)
    for (const auto& t : v.facts.ucx_devices->transports)
      if (rdma_transport(t) && !has(listed, t.transport))
        listed.push_back(t.transport);
  std::string seen =
      listed.empty() ? "" : "; ucx_info -d lists " + join(listed) + ", which it does not allow";
  return finding(
      Layer::ucx, "transports", Status::fail,
      dynamo::setting(dynamo::kUcxTlsVar, *tls) +
          " has no RDMA transport (rc, dc, ud, ib, srd): UCX moves KV between nodes over TCP" +
          seen,
      "set " + dynamo::setting(dynamo::kUcxTlsVar, "rc_x,rc,dc_x,dc,cuda_copy,cuda_ipc") +
          " (or unset it)");
}

// "1.16.0" < 1.19: NIXL needs UCP >= 1.19 and its error handling degrades on older UCX.
bool older_than(const std::string& version, int major, int minor) {
  auto parts = text::split(version, '.');
  if (parts.size() < 2) return false;
  auto ma = text::to_int(parts[0]);
  auto mi = text::to_int(parts[1]);
  if (!ma || !mi) return false;
  return *ma < major || (*ma == major && *mi < minor);
}

std::optional<report::Finding> version(const NodeView& v) {
  const auto& uv = v.facts.ucx_version;
  if (!uv || uv->version.empty()) return std::nullopt;
  if (older_than(uv->version, 1, 19))
    return finding(Layer::ucx, "version", Status::warn,
                   "UCX " + uv->version + " < 1.19: NIXL requires UCP >= 1.19 and its error handling is ~10x slower "
                   "on older UCX",
                   "use an image whose UCX is >= 1.19 (the one NIXL was built against)");
  if (!uv->configured_with.empty() && !uv->with_cuda)
    return finding(Layer::ucx, "version", Status::warn,
                   "UCX " + uv->version + " built without --with-cuda: no cuda_copy/cuda_ipc, no GPUDirect");
  return finding(Layer::ucx, "version", Status::ok, "UCX " + uv->version);
}

bool roce_traffic_port(const NodeView& v) {
  for (const auto& d : *v.devices)
    for (const auto& p : d.ports)
      if (p.link_layer == probe::LinkLayer::ethernet && is_active(p) && nic_role(v, d).traffic) return true;
  return false;
}

// Dynamo's disagg guide calls UCX_IB_ADDR_TYPE=eth the most common missing RoCE setting
// (NIXL_ERR_REMOTE_DISCONNECT); UCX may still pick a working GID by itself, so it is advice.
std::optional<report::Finding> roce_addressing(const NodeView& v) {
  if (!roce_traffic_port(v)) return std::nullopt;
  using dynamo::kUcxIbAddrTypeVar, dynamo::kUcxIbGidIndexVar;
  auto addr = env(v.facts, kUcxIbAddrTypeVar);
  auto gid = env(v.facts, kUcxIbGidIndexVar);
  if (addr || gid) {
    std::string set =
        addr ? dynamo::setting(kUcxIbAddrTypeVar, *addr) : dynamo::setting(kUcxIbGidIndexVar, *gid);
    return finding(Layer::ucx, "roce addressing", Status::ok, "RoCE with " + set, {}, false);
  }
  return finding(Layer::ucx, "roce addressing", Status::warn,
                 "RoCE ports carry traffic but " + std::string(kUcxIbAddrTypeVar) + " and " +
                     std::string(kUcxIbGidIndexVar) +
                     " are unset: UCX picks the GID itself (Dynamo's guide: the most common "
                     "missing RoCE setting)",
                 "env: " + dynamo::setting(kUcxIbAddrTypeVar, "eth"), false);
}

}  // namespace

UcxGpuMemory ucx_gpu_memory(const probe::NodeFacts& facts) {
  UcxGpuMemory out;
  if (!facts.ucx_devices) return out;
  for (const auto& md : facts.ucx_devices->memory_domains) {
    if (has(md.memory_types, "cuda") && !ib_domain(md)) out.ucx_has_cuda = true;
    if (!ib_domain(md) || md.no_devices || md.failed_to_open) continue;
    bool gpu = has(md.memory_types, "cuda") || md.dmabuf;
    if (out.domain.empty() || (gpu && !out.confirmed)) {
      out.domain = md.name;
      out.confirmed = gpu;
      out.dmabuf = md.dmabuf;
    }
  }
  for (const auto& t : facts.ucx_devices->transports)
    out.ucx_has_cuda = out.ucx_has_cuda || t.transport.starts_with("cuda");
  return out;
}

std::vector<report::Finding> judge_ucx(const NodeView& v) {
  std::vector<report::Finding> out;
  if (auto f = tls_without_rdma(v))
    out.push_back(*f);
  else if (auto missing = ucx_info_missing(v))
    out.push_back(*missing);
  else out.push_back(transports(v));
  if (auto f = version(v)) out.push_back(*f);
  if (gid_tables_known(v))
    for (auto& f : gid_index(v)) out.push_back(std::move(f));
  else if (auto f = roce_addressing(v))
    out.push_back(*f);
  return out;
}

}  // namespace icheck::rules::node
