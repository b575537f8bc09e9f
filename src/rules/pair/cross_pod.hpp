#pragma once
// `all`: what no single pod shows: pods of one deployment that differ from each other.
// Pure: every pod's facts in, per pod the findings that say how it differs.

#include "dynamo/role.hpp"
#include "probe/facts.hpp"
#include "probe/nixl/nixl_facts.hpp"
#include "report/model.hpp"

#include <string>
#include <vector>

namespace icheck::rules {

struct PodFacts {
  std::string name;
  dynamo::Role role = dynamo::Role::unknown;
  const probe::NodeFacts* node = nullptr;
  const probe::NixlFacts* nixl = nullptr;
  std::string kv_transfer;  // KvBackends::path(): "NIXL with UCX"; "" unknown
};

// Result i belongs to pods[i]. UCX and NIXL versions and the KV transfer path are compared across the
// deployment (one KV transfer joins both sides); HCA sets, link rates and transport env within
// one role.
std::vector<std::vector<report::Finding>> cross_pod_findings(const std::vector<PodFacts>& pods);

// Pods meant for multi-node NVLink whose GPUs joined a different NVLink domain (ClusterUUID +
// CliqueId) than the first such pod fail (cross_pod_nvlink.cpp); out[i] belongs to pods[i].
void add_nvlink_domain_findings(const std::vector<PodFacts>& pods,
                                std::vector<std::vector<report::Finding>>& out);

}  // namespace icheck::rules
