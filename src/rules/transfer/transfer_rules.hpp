#pragma once
// The pairwise transfer test judged (nixl layer, name "transfer"). Pure: the two sides'
// outputs in, one finding out. A test that did not start or finish is skipped, never ok.

#include "probe/facts.hpp"
#include "report/model.hpp"
#include "rules/node/node.hpp"
#include "rules/pair/pairing.hpp"

#include <optional>
#include <string>

namespace icheck::rules {

struct SideOutput {
  bool ran = false; // the process was started at all
  int exit_code = -1;
  bool timed_out = false;  // killed at --transfer-timeout (or by the remote `timeout`: 124)
  bool truncated = false;  // printed more than the output cap: stopped there
  std::string out;         // stdout
  std::string err;         // stderr (kubectl's own errors land here too)
  std::string start_error; // why it could not be started ("" when it ran)
};

struct TransferOutcome {
  TestTool tool = TestTool::none;
  std::string prefill, decode;
  std::string prefill_node, decode_node;
  bool cross_node = true;
  int timeout_s = 60;
  bool host_memory = false;  // TransferPlan::host_memory: never ok
  SideOutput listener;  // decode
  SideOutput initiator; // prefill
};

// Line rate of the slowest Active port of the pod's own HCAs that carries KV traffic
// (GPU-affine, or named in UCX_NET_DEVICES / NCCL_IB_HCA); nullopt when none is known. Gb/s:
// the adapter's expected rate where known (IbPort::expected_gbps), else the kernel's.
std::optional<double> kv_line_rate_gbps(const probe::NodeFacts& facts, const NodeContext& ctx);
// The GPU (its nvidia-smi index) closest to a NIC that carries KV (one named in UCX_NET_DEVICES
// or NCCL_IB_HCA first, then PIX before PXB and PSB, then the lower index): where the NIXL Python
// test allocates. nullopt without that affinity.
std::optional<int> kv_gpu_index(const probe::NodeFacts& facts, const NodeContext& ctx);
// The same ports' line rates added up: what the pod's KV ports can carry together.
std::optional<double> kv_ports_sum_gbps(const probe::NodeFacts& facts, const NodeContext& ctx);

// What the pair's ports can carry, in Gb/s: the slowest KV port of either side (the bar for
// "line-rate class") and the smaller side's sum of KV ports (no figure can exceed it).
struct PairRates {
  std::optional<double> port_gbps;
  std::optional<double> sum_gbps;
};

// Errors are failures at the layer they name (ucx, nixl, rdma-access); connected and then no
// result before the deadline fails (data did not move); never connected is skipped with why.
// A figure: >= 50 % of line rate: ok; < 3 GB/s: fail "KV transfer falls back to TCP"; between
// (or line rate unknown, or both pods on one node): warn; not finite positive, or more than
// the pair's ports carry: implausible (warn). Every finding it returns has is_transfer set.
report::Finding judge_transfer(const TransferOutcome& outcome, const PairRates& rates);
inline report::Finding judge_transfer(const TransferOutcome& outcome,
                                      std::optional<double> line_rate_gbps) {
  return judge_transfer(outcome, PairRates{line_rate_gbps, std::nullopt});
}

// The bandwidth the test printed (GB/s), from either side; nullopt without a figure.
std::optional<double> transfer_gbps(const TransferOutcome& outcome);

// A figure as every transfer line prints it: "48.2 GB/s"; past a million "1e+35 GB/s", whole.
std::string gbs_text(double gbs);

} // namespace icheck::rules
