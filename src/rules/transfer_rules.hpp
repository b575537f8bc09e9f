#pragma once
// The pairwise transfer test judged (nixl layer, name "transfer"). Pure: the two sides'
// outputs in, one finding out. A test that did not start or finish is skipped, never ok.

#include <optional>
#include <string>

#include "probe/facts.hpp"
#include "report/model.hpp"
#include "rules/node.hpp"
#include "rules/pairing.hpp"

namespace icheck::rules {

struct SideOutput {
  bool ran = false;        // the process was started at all
  int exit_code = -1;
  bool timed_out = false;  // killed at --transfer-timeout (or by the remote `timeout`: 124)
  std::string out;         // stdout
  std::string err;         // stderr (kubectl's own errors land here too)
  std::string start_error; // why it could not be started ("" when it ran)
};

struct TransferOutcome {
  TestTool tool = TestTool::none;
  std::string prefill, decode;
  bool cross_node = true;
  int timeout_s = 60;
  SideOutput listener;   // decode
  SideOutput initiator;  // prefill
};

// Line rate of the slowest Active port that carries KV traffic (GPU-affine, or named in
// UCX_NET_DEVICES / NCCL_IB_HCA); nullopt when none is known. Gb/s as the kernel reports it.
std::optional<double> kv_line_rate_gbps(const probe::NodeFacts& facts, const NodeContext& ctx);

// >= 50 % of line rate: ok, is_transfer; < 3 GB/s: fail "KV transfer falls back to TCP";
// between (or line rate unknown, or both pods on one node): warn.
report::Finding judge_transfer(const TransferOutcome& outcome,
                               std::optional<double> line_rate_gbps);

}  // namespace icheck::rules
