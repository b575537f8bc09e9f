// Which tool tests a pair, and why (rules/pair/pairing.hpp).
#include "rules/pair/pairing.hpp"
#include "util/join.hpp"

namespace icheck::rules {
namespace {

bool ucx_direct(const PairCandidate& a, const PairCandidate& b) {
  return a.library == "UCX" && b.library == "UCX";
}

bool asio(const PairCandidate& p) {
  return p.nixl.tools.nixlbench && p.nixl.tools.nixlbench->asio == true;
}

// nixlbench names both runtimes: ASIO when both images have it, else etcd.
TestTool forced(TestTool asked, const PairCandidate& a, const PairCandidate& b) {
  if (asked == TestTool::nixlbench_asio || asked == TestTool::nixlbench_etcd) {
    if (!both_have(TestTool::nixlbench_etcd, a, b))
      return TestTool::none;
    return asio(a) && asio(b) ? TestTool::nixlbench_asio : TestTool::nixlbench_etcd;
  }
  return both_have(asked, a, b) ? asked : TestTool::none;
}

// The other tools both images have: what the chosen one was preferred to.
std::vector<std::string> also_there(TestTool chosen, const PairCandidate& a,
                                    const PairCandidate& b) {
  std::vector<std::string> out;
  for (auto t : {TestTool::nixlbench_etcd, TestTool::ucx_perftest, TestTool::nixl_test}) {
    if (t != chosen && both_have(t, a, b))
      out.emplace_back(t == TestTool::nixlbench_etcd ? "nixlbench" : to_string(t));
  }
  return out;
}

// As --test-tool spells it.
std::string flag_name(TestTool t) {
  switch (t) {
  case TestTool::nixl_python:
    return "nixl-python";
  case TestTool::nixlbench_asio:
  case TestTool::nixlbench_etcd:
    return "nixlbench";
  default:
    return std::string(to_string(t));
  }
}

}  // namespace

bool both_have(TestTool tool, const PairCandidate& a, const PairCandidate& b) {
  const auto& ta = a.nixl.tools;
  const auto& tb = b.nixl.tools;
  switch (tool) {
  case TestTool::nixl_python:
    return a.nixl.python_import.ok && b.nixl.python_import.ok;
  case TestTool::nixlbench_asio:
    return asio(a) && asio(b);
  case TestTool::nixlbench_etcd:
    return ta.nixlbench && tb.nixlbench;
  case TestTool::ucx_perftest:
    return !ta.ucx_perftest.empty() && !tb.ucx_perftest.empty();
  case TestTool::nixl_test:
    return !ta.nixl_test.empty() && !tb.nixl_test.empty();
  case TestTool::none:
    return true;
  }
  return false;
}

TestTool best_tool(const PairCandidate& a, const PairCandidate& b, const PairingOptions& o) {
  if (o.test_tool)
    return forced(*o.test_tool, a, b);
  // ucx_perftest first when both pods move KV with UCX directly: it is their KV path.
  if (ucx_direct(a, b) && both_have(TestTool::ucx_perftest, a, b))
    return TestTool::ucx_perftest;
  for (auto t : {TestTool::nixl_python, TestTool::nixlbench_asio}) {
    if (both_have(t, a, b))
      return t;
  }
  if (both_have(TestTool::nixlbench_etcd, a, b) && !o.etcd_endpoints.empty())
    return TestTool::nixlbench_etcd;
  for (auto t : {TestTool::ucx_perftest, TestTool::nixl_test, TestTool::nixlbench_etcd}) {
    if (both_have(t, a, b))
      return t;  // nixlbench_etcd last: it needs an etcd endpoint
  }
  return TestTool::none;
}

Expected<std::optional<TestTool>> parse_test_tool(std::string_view value) {
  if (value.empty() || value == "auto")
    return std::optional<TestTool>();
  if (value == "nixl-python")
    return std::optional(TestTool::nixl_python);
  if (value == "nixlbench")
    return std::optional(TestTool::nixlbench_asio);
  if (value == "ucx_perftest")
    return std::optional(TestTool::ucx_perftest);
  if (value == "nixl_test")
    return std::optional(TestTool::nixl_test);
  return Error{"--test-tool takes auto, nixl-python, nixlbench, ucx_perftest or nixl_test, got '" +
               std::string(value) + "'"};
}

namespace {

std::string tool_note_of(TestTool t, const PairCandidate& prefill, const PairCandidate& decode,
                         const PairingOptions& o);

// Why the worker's own NIXL did not run when one image has it: the other lacks it.
std::string without_python(TestTool t, const PairCandidate& prefill, const PairCandidate& decode) {
  const bool p = prefill.nixl.python_import.ok;
  const bool d = decode.nixl.python_import.ok;
  if (t == TestTool::nixl_python || p == d)
    return {};
  return " (NIXL's Python API, the first choice, is not usable in " +
         (p ? decode.pod : prefill.pod) + ")";
}

}  // namespace

std::string tool_note(TestTool t, const PairCandidate& prefill, const PairCandidate& decode,
                      const PairingOptions& o) {
  auto note = tool_note_of(t, prefill, decode, o);
  return note.empty() || o.test_tool ? note : note + without_python(t, prefill, decode);
}

namespace {

std::string tool_note_of(TestTool t, const PairCandidate& prefill, const PairCandidate& decode,
                         const PairingOptions& o) {
  auto others = also_there(t, prefill, decode);
  const std::string over =
      others.empty() ? "" : "; chosen over " + join(others) + ", in both images too";
  switch (t) {
  case TestTool::nixl_python:
    return std::string("NIXL's own Python API (nixl._api) in both worker containers: the KV "
                       "cache's NIXL, UCX, environment and GPU memory, data pattern checked") +
           (o.test_tool ? " (--test-tool)" : over);
  case TestTool::nixlbench_asio:
    return "nixlbench, ASIO runtime (no etcd); start the decode side first";
  case TestTool::nixlbench_etcd:
    return o.etcd_endpoints.empty() ? "nixlbench without the ASIO runtime needs etcd: replace "
                                      "ETCD_HOST and start both within 60 s"
                                    : "nixlbench with etcd: start both within 60 s";
  case TestTool::ucx_perftest:
    if (prefill.ucx_without_cuda || decode.ucx_without_cuda)
      return "ucx_perftest: server on decode, client on prefill, host memory: the pods' UCX was "
             "built without CUDA, so GPUDirect is not tested";
    return "ucx_perftest: server on decode, client on prefill, CUDA memory";
  case TestTool::nixl_test:
    return "nixl_test: host memory only, does not test GPUDirect";
  case TestTool::none:
    if (o.test_tool)
      return "--test-tool " + flag_name(*o.test_tool) + ": not in both images";
    return "neither pod has NIXL's Python API, nixlbench, ucx_perftest or nixl_test in common";
  }
  return {};
}

}  // namespace

}  // namespace icheck::rules
