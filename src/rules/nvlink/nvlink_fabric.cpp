// nvlink, node side of multi-node NVLink: when KV (or NCCL) is meant to cross NVLink between
// nodes, the pod needs an IMEX channel and its GPUs must have joined the NVLink fabric
// (nvidia-smi -q "Fabric": State Completed, Status Success, a ClusterUUID and CliqueId).
#include "dynamo/transport_vars.hpp"
#include "rules/node/node_layers.hpp"
#include "rules/nvlink/nvlink_domain.hpp"
#include "util/truthy.hpp"

namespace icheck::rules::node {
namespace {

using report::Layer;
using report::Status;

const char* imex_next =
    "give the worker the ComputeDomain's IMEX channel: spec.resourceClaims from the "
    "ComputeDomain's "
    "resourceClaimTemplate and resources.claims in the container (kubectl get computedomains -A)";

report::Finding imex_channel(const NodeView& v, const std::string& why) {
  const auto& p = v.facts.platform;
  if (!p.imex_channels.empty())
    return finding(Layer::nvlink, "imex channel", Status::ok,
                   join(p.imex_channels) + " in /dev/nvidia-caps-imex-channels (" + why + ")");
  std::string where =
      p.imex_dir ? "/dev/nvidia-caps-imex-channels is empty" : "no /dev/nvidia-caps-imex-channels";
  return finding(Layer::nvlink, "imex channel", Status::fail,
                 why + " but " + where +
                     ": CUDA cannot import memory from another node (multi-node NVLink unusable)",
                 imex_next);
}

std::string gpu_name(const probe::GpuFabric& g) {
  return g.gpu.empty() ? "a GPU" : "GPU " + g.gpu;
}

bool unsupported(const probe::GpuFabric& g) {
  return g.state == "N/A" || g.state == "Not Supported";
}

// Why a GPU has not joined the fabric, as the fabric manager's states say it.
std::string not_registered(const probe::GpuFabric& g) {
  if (g.state == "Completed" && g.status != "Success")
    return "fabric registration failed: Status " + g.status;
  if (g.state == "Completed")
    return "no ClusterUUID (" + (g.cluster_uuid.empty() ? "empty" : g.cluster_uuid) + ")";
  if (g.state.empty())
    return "no fabric State";
  return "fabric State " + g.state + " (registration not finished)";
}

const char* fabric_next = "on the node: nvidia-smi -q | grep -A6 Fabric; check the NVLink fabric "
                          "manager / NMX and the IMEX daemon "
                          "(kubectl logs -n nvidia-dra-driver-gpu <compute-domain daemon pod>)";

report::Finding fabric_state(const probe::FabricInfo& info, bool kv_path) {
  if (info.gpus.empty()) {
    std::string why = info.error.empty() ? "nvidia-smi -q printed no Fabric section"
                                         : "nvidia-smi -q: " + info.error;
    return finding(Layer::nvlink, "gpu fabric", Status::skipped, why,
                   "nvidia-smi -q | grep -A6 Fabric");
  }
  std::vector<std::string> bad, na, unhealthy;
  for (const auto& g : info.gpus) {
    if (unsupported(g))
      na.push_back(gpu_name(g));
    else if (!g.registered())
      bad.push_back(gpu_name(g) + ": " + not_registered(g));
    else if (g.health_summary == "Unhealthy")
      unhealthy.push_back(gpu_name(g));
  }
  if (!bad.empty())
    return finding(Layer::nvlink, "gpu fabric", Status::fail, join(bad, "; "), fabric_next);
  if (!na.empty())
    return finding(Layer::nvlink, "gpu fabric", kv_path ? Status::fail : Status::warn,
                   "Fabric State N/A on " + join(na) +
                       ": these GPUs are not in a multi-node NVLink domain",
                   fabric_next);
  auto domain = fabric_domain(info);
  if (!unhealthy.empty())
    return finding(Layer::nvlink, "gpu fabric", Status::warn,
                   "registered in " + domain + " but fabric Health Summary Unhealthy on " +
                       join(unhealthy),
                   fabric_next);
  if (domain.empty())
    return finding(Layer::nvlink, "gpu fabric", Status::warn,
                   "GPUs of this pod registered in different NVLink cliques", fabric_next);
  return finding(Layer::nvlink, "gpu fabric", Status::ok,
                 std::to_string(info.gpus.size()) + " GPU" + (info.gpus.size() == 1 ? "" : "s") +
                     " joined the NVLink fabric: " + domain);
}

// Without multi-node NVLink in play (an NVLink5 node such as HGX B200): only a fabric that
// Fabric Manager has not finished setting up, or whose setup failed, is judged. A GPU whose
// fabric is not set up cannot run CUDA work over NVLink (after a driver-container restart the GPUs
// keep stale partition state until reset: NVIDIA/gpu-driver-container #909).
std::optional<report::Finding> fabric_not_set_up(const probe::FabricInfo& info) {
  std::vector<std::string> bad;
  for (const auto& g : info.gpus) {
    if (unsupported(g) || g.state.empty())
      continue;
    const bool failed = !g.status.empty() && g.status != "Success" && g.status != "N/A";
    if (g.state != "Completed" || failed)
      bad.push_back(gpu_name(g) + ": " + not_registered(g));
  }
  if (bad.empty())
    return std::nullopt;
  return finding(Layer::nvlink, "gpu fabric", Status::fail,
                 join(bad, "; ") +
                     ": the node's NVLink fabric is not set up, so NVLink transfers between its "
                     "GPUs fail (NVIDIA/gpu-driver-container #909)",
                 "on the node: nvidia-smi -q | grep -A6 Fabric; check the Fabric Manager "
                 "(FABRIC_MODE) and reset the GPUs after it starts, or restart the driver pod");
}

} // namespace

std::optional<std::string> mnnvl_intent(const probe::NodeFacts& f) {
  for (auto name : {dynamo::kUcxCudaIpcMnnvlVar, dynamo::kNcclMnnvlEnableVar})
    if (auto v = env(f, name); v && truthy(*v))
      return dynamo::setting(name, *v);
  if (!f.platform.imex_channels.empty())
    return std::string("an IMEX channel is mounted");
  return std::nullopt;
}

std::vector<report::Finding> judge_nvlink_fabric(const NodeView& v) {
  auto why = mnnvl_intent(v.facts);
  if (!why) {
    const auto& fabric = v.facts.platform.fabric;
    if (fabric)
      if (auto f = fabric_not_set_up(*fabric))
        return {*f};
    return {};
  }
  bool kv_path = v.mnnvl;
  std::vector<report::Finding> out{imex_channel(v, "multi-node NVLink intended: " + *why)};
  const auto& fabric = v.facts.platform.fabric;
  if (fabric)
    out.push_back(fabric_state(*fabric, kv_path));
  else
    out.push_back(finding(
        Layer::nvlink, "gpu fabric", Status::skipped,
        "nvidia-smi not in the image: the GPUs' NVLink fabric registration is unknown",
        "nvidia-smi -q | grep -A6 Fabric (from a debug container with the driver utilities)"));
  return out;
}

} // namespace icheck::rules::node
