#pragma once
// The pairwise transfer test for a deployment: which prefill and decode pod, which tool, and
// the exact commands (DESIGN.md "The next command, concrete"). Pure: the probed pods in, a
// plan out; check/transfer_run.hpp runs it, and the same argv is what the user is told to run.

#include "dynamo/role.hpp"
#include "probe/nixl_facts.hpp"
#include "util/expected.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace icheck::rules {

struct PairCandidate {
  std::string pod;
  std::string namespace_;
  std::string node;
  std::string pod_ip;
  dynamo::Role role = dynamo::Role::unknown;
  std::string container;
  probe::NixlFacts nixl;  // from the pod's probe
  std::vector<std::string> backends;  // NIXL backends it uses (nixl_backend.hpp); empty: unknown
  std::string library = "NIXL";       // what moves its KV (KvBackends::library)
};

// Best first.
enum class TestTool { nixlbench_asio, nixlbench_etcd, ucx_perftest, nixl_test, none };
std::string_view to_string(TestTool t);

struct PairingOptions {
  std::vector<std::string> kubectl_base;  // program + the user's global flags (--context, ...)
  std::optional<std::pair<std::string, std::string>> pair;  // --pair PREFILL,DECODE
  int timeout_s = 60;                     // each remote process runs under `timeout` this long
  std::string etcd_endpoints;             // for nixlbench without ASIO; "" = none known
  std::string backend = "UCX";            // when no candidate says which it uses
};

struct TransferPlan {
  bool found = false;      // a prefill and a decode pod to pair
  std::string why_not;     // one line when !found
  std::string prefill, decode;       // pod names
  std::string prefill_node, decode_node;
  bool cross_node = false;
  std::string node_note;   // set when every pair shares a node
  TestTool tool = TestTool::none;
  std::string tool_note;   // e.g. "host memory only: does not test GPUDirect"
  std::string backend;     // the NIXL backend the test uses (nixlbench --backend)
  // set when the pods share no backend, the tool does not test it, or KV does not go through NIXL
  std::string backend_note;
  bool runnable = false;   // a common tool exists and nothing is left to fill in
  // The listening side (decode) starts first; each argv is a full kubectl exec.
  std::vector<std::string> listener_argv;
  std::vector<std::string> initiator_argv;
  int timeout_s = 60;
  // Shell lines to print (same argv, quoted).
  std::string listener_command() const;
  std::string initiator_command() const;
};

TransferPlan plan_transfer(const std::vector<PairCandidate>& pods, const PairingOptions& options);

// "PREFILL,DECODE" -> the two pod names.
Expected<std::pair<std::string, std::string>> parse_pair(std::string_view value);

// One argv as a line a POSIX shell reads back unchanged.
std::string shell_line(const std::vector<std::string>& argv);

}  // namespace icheck::rules
