#pragma once
// One function per layer of node mode (internal to src/rules); judge_node calls them in order.

#include <vector>

#include "report/model.hpp"
#include "rules/node_view.hpp"

namespace icheck::rules::node {

std::vector<report::Finding> judge_fabric(const NodeView& v);
std::vector<report::Finding> judge_rdma_access(const NodeView& v);
std::vector<report::Finding> judge_gpudirect(const NodeView& v);
std::vector<report::Finding> judge_nvlink(const NodeView& v);
std::vector<report::Finding> judge_ucx(const NodeView& v);

}  // namespace icheck::rules::node
