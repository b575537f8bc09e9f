#pragma once
// Node mode's rules: the facts read inside one pod (or the local machine) judged layer by
// layer (fabric, rdma-access, gpudirect, nvlink, ucx). Pure: facts in, findings out.

#include <boost/json/object.hpp>

#include <string>
#include <vector>

#include "probe/facts.hpp"
#include "report/model.hpp"

namespace icheck::rules {

struct NodeContext {
  // The target is meant to ship KV cache across nodes (a disagg worker); an aggregated
  // deployment does not need RDMA, so its RDMA findings become optional.
  bool disagg = true;
  // `--local`: this machine, assumed to be meant for cross-node disagg unless it is plainly
  // not a GPU node (then every layer is skipped with that reason).
  bool local = false;
};

// Findings in layer order: fabric, rdma_access, gpudirect, nvlink, ucx.
std::vector<report::Finding> judge_node(const probe::NodeFacts& facts, const NodeContext& ctx);

// The line under the target heading, e.g. "8× NVIDIA H100 80GB HBM3 · 8× mlx5 400 Gb/s InfiniBand".
std::string node_summary(const probe::NodeFacts& facts);

// The typed facts for `-o json|yaml` (camelCase keys).
boost::json::object node_facts_json(const probe::NodeFacts& facts);

}  // namespace icheck::rules
