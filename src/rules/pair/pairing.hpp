#pragma once
// The pairwise transfer test for a deployment: which prefill and decode pod, which tool, and
// the exact commands (DESIGN.md "The next command, concrete"). Pure: the probed pods in, a
// plan out; check/transfer_run.hpp runs it, and the same argv is what the user is told to run.

#include "dynamo/role.hpp"
#include "probe/nixl/nixl_facts.hpp"
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
  probe::NixlFacts nixl;             // from the pod's probe
  std::vector<std::string> backends; // NIXL backends it uses (nixl_backend.hpp); empty: unknown
  std::string library = "NIXL";      // what moves its KV (KvBackends::library)
  // A multinode worker's leader or worker pod, and the group they share (kube::PodInfo).
  dynamo::MultinodePart multinode = dynamo::MultinodePart::single;
  std::string multinode_group;
  // The GPU (nvidia-smi index) closest to a NIC that carries KV: where the NIXL Python test
  // allocates; nullopt when no affinity is known (GPU 0 is used, and said).
  std::optional<int> kv_gpu;
  // ucx_info -v says this UCX was built without CUDA: ucx_perftest cannot use GPU memory.
  bool ucx_without_cuda = false;
};

// 1 for the worker pod of a multinode worker, else 0: the fewer in a pair, the better on a tie.
int multinode_workers(const PairCandidate& a, const PairCandidate& b);

// Best first: the worker image's own NIXL through its Python API (the KV cache's own library,
// UCX, environment and GPU memory, data checked), then the standalone tools.
enum class TestTool { nixl_python, nixlbench_asio, nixlbench_etcd, ucx_perftest, nixl_test, none };
std::string_view to_string(TestTool t);

// --test-tool: auto (nullopt) | nixl-python | nixlbench | ucx_perftest | nixl_test. nixlbench
// stands for both of its runtimes (ASIO when both images have it).
Expected<std::optional<TestTool>> parse_test_tool(std::string_view value);

// Which pairs to test: a few that cover every node (default), or every prefill-node x
// decode-node pair (--pairs all).
enum class PairMode { cover, all };

struct PairingOptions {
  std::vector<std::string> kubectl_base; // program + the user's global flags (--context, ...)
  std::optional<std::pair<std::string, std::string>> pair; // --pair PREFILL,DECODE
  PairMode mode = PairMode::cover;
  std::size_t max_pairs = 64;  // --pairs all is cut here (and says so)
  int timeout_s = 60;          // each remote process runs under `timeout` this long
  std::string etcd_endpoints;  // for nixlbench without ASIO; "" = none known
  std::string backend = "UCX"; // when no candidate says which it uses
  std::string test_image;      // --test-image, for the kubectl debug commands
  std::optional<TestTool> test_tool;  // --test-tool; nullopt: the best both pods have
  std::string seed = "0";             // the NIXL Python test's data pattern: new for every run
};

struct TransferPlan {
  bool found = false;          // a prefill and a decode pod to pair
  std::string why_not;         // one line when !found
  std::string prefill, decode; // pod names
  std::string prefill_node, decode_node;
  bool cross_node = false;
  std::string prefill_ip, decode_ip;
  std::string node_note; // set when every pair shares a node
  TestTool tool = TestTool::none;
  std::string tool_note; // e.g. "host memory only: does not test GPUDirect"
  std::string backend;   // the NIXL backend the test uses (nixlbench --backend)
  // set when the pods share no backend, the tool does not test it, or KV does not go through NIXL
  std::string backend_note;
  bool runnable = false; // a common tool exists and nothing is left to fill in
  bool host_memory = false;  // the tool moves host memory only: GPUDirect is not tested
  // The listening side (decode) starts first; each argv is a full kubectl exec.
  std::vector<std::string> listener_argv;
  std::vector<std::string> initiator_argv;
  int timeout_s = 60;
  // Not runnable: the same test from an ephemeral debug container (`kubectl debug`), which
  // only the user runs.
  std::vector<std::string> debug_listener_argv;
  std::vector<std::string> debug_initiator_argv;
  std::string debug_note;
  // Shell lines to print (same argv, quoted).
  std::string listener_command() const;
  std::string initiator_command() const;
  std::string debug_listener_command() const;
  std::string debug_initiator_command() const;
  // "prefill P (node A, 10.0.0.1) -> decode D (node B, 10.0.0.2)"
  std::string pair_line() const;
};

// The tool a pair is tested with: --test-tool when both pods have it (else none); ucx_perftest
// first when both move KV with UCX directly; else the best both have.
TestTool best_tool(const PairCandidate& prefill, const PairCandidate& decode,
                   const PairingOptions& options);
// Both pods have the tool (nixlbench_etcd: nixlbench with either runtime).
bool both_have(TestTool tool, const PairCandidate& a, const PairCandidate& b);
// Why this tool: one line for the plan (which ran, what it leaves out, what else was there).
std::string tool_note(TestTool tool, const PairCandidate& prefill, const PairCandidate& decode,
                      const PairingOptions& options);

// The best single pair: --pair when given, else different nodes first, then the better tool.
TransferPlan plan_transfer(const std::vector<PairCandidate>& pods, const PairingOptions& options);

// The plan for this prefill and this decode pod.
TransferPlan plan_for(const PairCandidate& prefill, const PairCandidate& decode,
                      const PairingOptions& options);

// A prefill pod and a decode pod to test, as indices into the candidates.
struct PodPair {
  std::size_t prefill = 0;
  std::size_t decode = 0;
  bool operator==(const PodPair&) const = default;
};

struct PairSelection {
  std::vector<PodPair> pairs;
  std::vector<std::string> uncovered; // nodes with a prefill or decode pod in no cross-node pair
  std::string cut;                    // set when --pairs all was cut at max_pairs
};

// cover: the fewest cross-node prefill->decode pairs such that every node with a prefill or a
// decode pod is in one (a maximum matching of prefill nodes to decode nodes, then one more
// pair per node left over; never more pairs than nodes); all: every prefill node x decode node
// pair on different nodes, at most max_pairs. On each node the pod with the best tool for its
// partner is used. Without any cross-node pair: the best single (same-node) pair.
PairSelection select_pairs(const std::vector<PairCandidate>& pods, const PairingOptions& options);

struct TransferPlans {
  std::vector<TransferPlan> plans; // empty: why_not says why
  std::string why_not;
  std::vector<std::string> notes; // uncovered nodes, a cut --pairs all
};

// The plans for the selection (or for --pair alone).
TransferPlans plan_transfers(const std::vector<PairCandidate>& pods, const PairingOptions& options);

// Groups of plan indices to run at once: at most `parallel` per group, no node (nor pod) in
// two plans of one group, every plan in exactly one group, in order.
std::vector<std::vector<std::size_t>> transfer_waves(const std::vector<TransferPlan>& plans,
                                                     std::size_t parallel);

// "PREFILL,DECODE" -> the two pod names.
Expected<std::pair<std::string, std::string>> parse_pair(std::string_view value);

// The argv the plugin runs for one side: `kubectl exec -i` and, inside the remote `timeout`, a
// small sh that runs the tool in the background and kills it when its stdin (the exec stream)
// reaches EOF: the test ends when this process ends or dies, not only at the remote timeout.
// An argv not shaped `... -- timeout N TOOL ...` comes back unchanged.
std::vector<std::string> stdin_tied(const std::vector<std::string>& argv);

// One argv as a line a POSIX shell reads back unchanged.
std::string shell_line(const std::vector<std::string>& argv);

} // namespace icheck::rules
