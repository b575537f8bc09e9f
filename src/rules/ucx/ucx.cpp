// ucx: the transports and memory types UCX really sees, its version, RoCE addressing.
#include "dynamo/transport_vars.hpp"
#include "rules/fabric/fabric_pod.hpp"
#include "rules/nixl/known_trouble.hpp"
#include "rules/node/node_layers.hpp"
#include "rules/ucx/kv_transports.hpp"
#include "rules/ucx/ucx_view.hpp"
#include "util/text.hpp"

#include <algorithm>

namespace icheck::rules::node {
namespace {

using probe::UcxMemoryDomain;
using report::Layer;
using report::Status;

bool ib_domain(const UcxMemoryDomain& md) {
  return md.component == "ib" || md.name.starts_with("ib/") || md.name.starts_with("mlx");
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

std::optional<report::Finding> version(const NodeView& v) {
  const auto& uv = v.facts.ucx_version;
  if (!uv || uv->version.empty()) return std::nullopt;
  // The versions with known trouble are knowledge rows (rules/nixl/known_trouble.hpp).
  knowledge::FactMap facts;
  facts.set("version.ucx", uv->version);
  for (auto& f : known_trouble(facts))
    if (f.layer == Layer::ucx)
      return f;
  if (!uv->configured_with.empty() && !uv->with_cuda)
    return finding(Layer::ucx, "version", Status::warn,
                   "UCX " + uv->version + " built without --with-cuda: no cuda_copy/cuda_ipc, no GPUDirect");
  // From the library there is no configure line: its module directory tells what was built.
  const auto& lib = v.facts.ucx_lib;
  const bool from_lib = lib.answered() && v.facts.ucx_source != "ucx_info";
  if (from_lib && !lib.module_dir.empty() && !uv->with_cuda)
    return finding(Layer::ucx, "version", Status::warn,
                   "UCX " + uv->version + " has no cuda module in " + lib.module_dir +
                       " (libuct_cuda): no cuda_copy/cuda_ipc, no GPUDirect");
  return finding(Layer::ucx, "version", Status::ok,
                 "UCX " + uv->version + (from_lib ? " (libucp via python3 ctypes)" : ""));
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
  out.push_back(kv_transports(v));
  if (auto f = judge_net_devices(v))
    out.push_back(*f);
  if (auto f = tls_gpu_memory(v))
    out.push_back(*f);
  if (auto f = version(v)) out.push_back(*f);
  if (gid_tables_known(v))
    for (auto& f : gid_index(v)) out.push_back(std::move(f));
  else if (auto f = roce_addressing(v))
    out.push_back(*f);
  return out;
}

}  // namespace icheck::rules::node
