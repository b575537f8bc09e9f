// `all`: pods meant to move KV over multi-node NVLink must share one NVLink domain (ClusterUUID
// and CliqueId); a prefill and a decode in different domains cannot reach each other over it.
#include "dynamo/role.hpp"
#include "dynamo/transport_vars.hpp"
#include "rules/pair/cross_pod.hpp"
#include "rules/nvlink/nvlink_domain.hpp"

namespace icheck::rules {
namespace {

std::string domain_of(const PodFacts& p) {
  if (p.node == nullptr || !node::mnnvl_intent(*p.node) || !p.node->platform.fabric)
    return {};
  return fabric_domain(*p.node->platform.fabric);
}

} // namespace

void add_nvlink_domain_findings(const std::vector<PodFacts>& pods,
                                std::vector<std::vector<report::Finding>>& out) {
  const PodFacts* reference = nullptr;
  std::string reference_domain;
  for (std::size_t i = 0; i < pods.size(); ++i) {
    auto domain = domain_of(pods[i]);
    if (domain.empty())
      continue;
    if (reference == nullptr) {
      reference = &pods[i];
      reference_domain = domain;
      continue;
    }
    if (domain == reference_domain)
      continue;
    report::Finding f;
    f.name = "nvlink domain";
    f.layer = report::Layer::nvlink;
    f.status = report::Status::fail;
    f.detail = std::string(dynamo::role_label(pods[i].role)) + " pod in " + domain + ", " +
               std::string(dynamo::role_label(reference->role)) + " pod " + reference->name +
               " in " + reference_domain + ": KV cannot cross multi-node NVLink between them";
    f.next = "schedule prefill and decode into one ComputeDomain (one NVL72 rack / clique), or "
             "give KV an RDMA transport (" +
             std::string(dynamo::kUcxTlsVar) + " with rc)";
    out[i].push_back(std::move(f));
  }
}

} // namespace icheck::rules
