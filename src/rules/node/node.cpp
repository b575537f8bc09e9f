#include "rules/node/node.hpp"

#include "dynamo/transport_vars.hpp"
#include "rules/fabric/link_rules.hpp"
#include "rules/gpudirect/vm_rules.hpp"
#include "rules/node/node_layers.hpp"

#include <algorithm>

namespace icheck::rules {
namespace {

using report::Layer;
using report::Status;

bool has_gpu(const probe::NodeFacts& f) {
  return !f.gpus.empty() || f.nvidia_driver.present || (f.topo && !f.topo->gpu_rows().empty());
}

bool has_rdma(const probe::NodeFacts& f) {
  return !f.sysfs_devices.empty() || !f.ibstat.devices.empty() || !f.dev_infiniband.empty();
}

// `--local` on a machine with neither a GPU nor an RDMA device: it is not meant to serve
// disagg, so nothing can be judged, and saying "fail" would be noise.
std::vector<report::Finding> not_a_gpu_node() {
  const std::string why = "no GPU (no NVIDIA driver, nvidia-smi lists none) and no RDMA device: not a GPU node";
  std::vector<report::Finding> out;
  for (auto [layer, name] : {std::pair{Layer::fabric, "hca"}, {Layer::rdma_access, "devices"},
                             {Layer::gpudirect, "peer-memory"}, {Layer::nvlink, "topology"},
                             {Layer::ucx, "transports"}})
    out.push_back(node::finding(layer, name, Status::skipped, why,
                                "check the worker pods instead (they have the GPUs): kubectl "
                                "dynamo-icheck node -n <namespace>"));
  return out;
}

bool rdma_layer(const report::Finding& f) {
  if (f.layer == Layer::fabric || f.layer == Layer::rdma_access) return true;
  if (f.layer == Layer::gpudirect) return f.name != "gdrcopy";
  return f.name == "transports" || f.name == dynamo::kUcxNetDevicesVar ||
         f.name == "roce addressing" || f.name == "nccl gid index" || f.name == "gpu rails";
}

// When the RDMA path is not what carries KV, its findings are shown, not judged: a fail reads
// as a warn, none of them counts toward the verdict, and each says why.
void demote_rdma(std::vector<report::Finding>& findings, const std::string& why) {
  for (auto& f : findings)
    if (rdma_layer(f)) report::off_kv_path(f, why);
}

// A pod without any RDMA device fails once, at fabric ("hca"); what needs RDMA (GPUDirect,
// UCX's RDMA transports and devices, RDMA access) then does not apply rather than failing again.
void not_applicable_without_rdma(std::vector<report::Finding>& findings) {
  auto no_hca = std::find_if(findings.begin(), findings.end(), [](const report::Finding& f) {
    return f.layer == Layer::fabric && f.name == "hca" && f.status == Status::fail;
  });
  if (no_hca == findings.end())
    return;
  for (auto& f : findings) {
    if (f.layer == Layer::fabric || !rdma_layer(f) ||
        (f.status != Status::fail && f.status != Status::warn))
      continue;
    f.status = Status::skipped;
    f.required = false;
    f.detail = "does not apply: the pod has no RDMA device (fabric hca)";
    f.next.clear();
  }
}

void append(std::vector<report::Finding>& out, std::vector<report::Finding> more) {
  for (auto& f : more) out.push_back(std::move(f));
}

}  // namespace

std::vector<report::Finding> judge_node(const probe::NodeFacts& facts, const NodeContext& ctx) {
  if (ctx.local && !has_gpu(facts) && !has_rdma(facts)) return not_a_gpu_node();
  auto view = node::make_view(facts, ctx);
  std::vector<report::Finding> out;
  append(out, node::judge_fabric(view));
  append(out, node::judge_pcie_nics(view));
  append(out, node::judge_links(view));
  append(out, node::judge_rdma_access(view));
  append(out, node::judge_efa(view));
  append(out, node::judge_gpudirect(view));
  append(out, node::judge_pcie_gpus(view));
  if (auto f = node::judge_vm(view))
    out.push_back(*f);
  append(out, node::judge_nvlink(view));
  append(out, node::judge_nvlink_fabric(view));
  append(out, node::judge_ucx(view));
  // NVLink between some GPUs of one pod serves its tensor parallelism; KV between pods never
  // rides it (unless multi-node NVLink carries KV), so a partial NVLink mesh is information.
  if (!view.mnnvl) {
    for (auto& f : out)
      if (f.layer == Layer::nvlink && (f.name == "topology" || f.name == "links") &&
          f.status == report::Status::warn)
        report::off_kv_path(f, "inside this pod: not the KV path between pods");
  }
  if (ctx.disagg && !view.mnnvl)
    not_applicable_without_rdma(out);
  if (!ctx.disagg)
    demote_rdma(out, "not needed: an aggregated deployment keeps KV on its node");
  else if (view.mnnvl)
    demote_rdma(out, "informational: KV moves over multi-node NVLink");
  return out;
}

}  // namespace icheck::rules
