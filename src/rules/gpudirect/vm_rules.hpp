#pragma once
// gpudirect "virtual machine" (internal to src/rules): GPUDirect RDMA in a VM rests on the
// hypervisor (ai-dynamo/dynamo #12463: requests answered 200 with garbage), which no file in the
// guest proves; and the VM markers as JSON facts.

#include "report/model.hpp"
#include "rules/node/node_view.hpp"

#include <boost/json/object.hpp>
#include <optional>

namespace icheck::rules::node {

// A warn when the target is a VM with GPUs and RDMA ports; nothing on bare metal or unread.
std::optional<report::Finding> judge_vm(const NodeView& v);

boost::json::object vm_facts_json(const probe::VmMarkers& vm);

}  // namespace icheck::rules::node
