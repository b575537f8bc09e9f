#pragma once
// nvlink "gpu rails" (internal to src/rules): each GPU's nearest NIC from `nvidia-smi topo -m`
// against the NICs UCX will use (UCX_NET_DEVICES, or every Active port when unset). A GPU whose
// nearest NIC UCX does not use sends its KV across the CPU to a farther one; all GPUs on one NIC
// while the others idle halves the bandwidth (openucx/ucx #11259).

#include "report/model.hpp"
#include "rules/node/node_view.hpp"

#include <boost/json/object.hpp>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace icheck::rules::node {

// GPU0 -> its nearest NICs (ties kept) among `nics`, by topo_distance; GPUs without a cell
// toward any of them are left out.
std::map<std::string, std::vector<std::string>> nearest_nics(const probe::Topology& t,
                                                             const std::set<std::string>& nics);

// A warn naming each GPU whose nearest NIC UCX does not use and the NIC it should use; nothing
// when affinity is unknown (no NIC columns, Grace) or every GPU's nearest NIC is used.
std::optional<report::Finding> gpu_rails(const NodeView& v);

// {"GPU0": ["mlx5_0"], ...} over the pod's HCAs with an Active port; empty without NIC columns.
boost::json::object nearest_nics_json(const probe::NodeFacts& f);

}  // namespace icheck::rules::node
