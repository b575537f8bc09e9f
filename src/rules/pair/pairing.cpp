#include "rules/pair/pairing.hpp"

#include "outside/argv.hpp"
#include "probe/transfer/nixl_python_script.hpp"
#include "util/join.hpp"

#include <algorithm>
#include <cctype>

namespace icheck::rules {
namespace {

constexpr const char* kAsioPort = "12345";
constexpr const char* kPerftestPort = "13337";
constexpr const char* kNixlTestPort = "5555";

// nixlbench's default buffer (8 GiB of VRAM) rarely fits next to a serving engine's KV cache;
// 1 GiB and 100 iterations keep the test to seconds and still reach 64 MiB blocks.
const std::vector<std::string> kBenchSizing = {
    "--total_buffer_size", "1073741824", "--start_block_size", "1048576",
    "--max_block_size",    "67108864",   "--num_iter",         "100",
    "--warmup_iter",       "10"};

bool has_ip(const PairCandidate& p) {
  return !p.pod_ip.empty();
}

std::vector<std::string> exec_prefix(const PairingOptions& o, const PairCandidate& p) {
  auto argv = o.kubectl_base;
  argv.insert(argv.end(), {"exec", p.pod, "-n", p.namespace_});
  if (!p.container.empty())
    argv.insert(argv.end(), {"-c", p.container});
  argv.insert(argv.end(), {"--", "timeout", std::to_string(o.timeout_s)});
  return argv;
}

void append(std::vector<std::string>& to, const std::vector<std::string>& more) {
  to.insert(to.end(), more.begin(), more.end());
}

std::vector<std::string> nixlbench_args(TestTool tool, const PairCandidate& decode,
                                        const PairingOptions& o) {
  std::vector<std::string> a;
  if (tool == TestTool::nixlbench_asio)
    a = {"--runtime_type", "ASIO", "--asio_address", decode.pod_ip, "--asio_port", kAsioPort};
  else
    a = {"--etcd_endpoints", o.etcd_endpoints.empty() ? "http://ETCD_HOST:2379" : o.etcd_endpoints,
         "--benchmark_group", "icheck-" + decode.pod};
  append(a, {"--backend", o.backend, "--initiator_seg_type", "VRAM", "--target_seg_type", "VRAM",
             "--scheme", "pairwise"});
  append(a, kBenchSizing);
  return a;
}

// python3 -c SCRIPT ROLE ...: each side allocates on its own GPU nearest its KV NIC.
std::vector<std::string> nixl_python_args(const char* role, const PairCandidate& self,
                                          const PairCandidate& decode, const PairingOptions& o) {
  std::vector<std::string> a = {"python3", "-c", probe::nixl_python_script(), role};
  append(a, {"--ip", decode.pod_ip, "--port", std::to_string(probe::kNixlPythonPort)});
  append(a, {"--backend", o.backend, "--seed", o.seed, "--timeout", std::to_string(o.timeout_s)});
  append(a, {"--gpu", std::to_string(self.kv_gpu.value_or(0)), "--max-mib",
             std::to_string(probe::kNixlPythonMaxMib)});
  return a;
}

void fill_commands(TransferPlan& plan, const PairCandidate& prefill, const PairCandidate& decode,
                   const PairingOptions& o) {
  auto listen = exec_prefix(o, decode);
  auto init = exec_prefix(o, prefill);
  const auto& td = decode.nixl.tools;
  const auto& tp = prefill.nixl.tools;
  switch (plan.tool) {
  case TestTool::nixl_python:
    append(listen, nixl_python_args("target", decode, decode, o));
    append(init, nixl_python_args("initiator", prefill, decode, o));
    break;
  case TestTool::nixlbench_asio:
  case TestTool::nixlbench_etcd:
    listen.push_back(td.nixlbench->path);
    append(listen, nixlbench_args(plan.tool, decode, o));
    init.push_back(tp.nixlbench->path);
    append(init, nixlbench_args(plan.tool, decode, o));
    break;
  case TestTool::ucx_perftest: {
    // A UCX built without CUDA refuses "-m cuda" ("unsupported memory type"): host memory
    // still tests the fabric, and the judge never calls it ok (plan.host_memory). 16 MiB
    // messages then: such images often have only TCP, where 100 x 128 MiB takes minutes.
    plan.host_memory = prefill.ucx_without_cuda || decode.ucx_without_cuda;
    std::vector<std::string> args = {"-t", "tag_bw",
                                     "-m", plan.host_memory ? "host" : "cuda",
                                     "-s", plan.host_memory ? "16777216" : "134217728",
                                     "-n", "100",
                                     "-p", kPerftestPort};
    listen.push_back(td.ucx_perftest);
    append(listen, args);
    init.insert(init.end(), {tp.ucx_perftest, decode.pod_ip});
    append(init, args);
    break;
  }
  case TestTool::nixl_test:
    listen.insert(listen.end(), {td.nixl_test, "target", decode.pod_ip, kNixlTestPort});
    init.insert(init.end(), {tp.nixl_test, "initiator", decode.pod_ip, kNixlTestPort});
    break;
  case TestTool::none:
    return;
  }
  plan.listener_argv = std::move(listen);
  plan.initiator_argv = std::move(init);
}

// The same test from an ephemeral debug container with an image that has the tool: nixlbench
// (ASIO runtime), or ucx_perftest where KV bypasses NIXL. Privileged (--profile=sysadmin): an
// ephemeral container gets no GPU or RDMA device of its own.
std::vector<std::string> debug_argv(const PairingOptions& o, const PairCandidate& p, bool ucx,
                                    const PairCandidate& decode, bool listener) {
  auto argv = o.kubectl_base;
  argv.insert(argv.end(),
              {"debug", p.pod, "-n", p.namespace_, "-it",
               "--image=" + (o.test_image.empty()
                                 ? std::string(ucx ? "UCX_PERFTEST_IMAGE" : "NIXLBENCH_IMAGE")
                                 : o.test_image),
               "--target=" + (p.container.empty() ? std::string("main") : p.container),
               "--profile=sysadmin", "--", "timeout", std::to_string(o.timeout_s)});
  if (ucx) {
    argv.push_back("ucx_perftest");
    if (!listener)
      argv.push_back(decode.pod_ip);
    append(argv,
           {"-t", "tag_bw", "-m", "cuda", "-s", "134217728", "-n", "100", "-p", kPerftestPort});
  } else {
    argv.push_back("nixlbench");
    append(argv, nixlbench_args(TestTool::nixlbench_asio, decode, o));
  }
  return argv;
}

void fill_debug_commands(TransferPlan& plan, const PairCandidate& prefill,
                         const PairCandidate& decode, const PairingOptions& o) {
  const bool ucx = prefill.library != "NIXL" || decode.library != "NIXL";
  plan.debug_listener_argv = debug_argv(o, decode, ucx, decode, true);
  plan.debug_initiator_argv = debug_argv(o, prefill, ucx, decode, false);
  plan.debug_note = "run " + std::string(ucx ? "ucx_perftest" : "nixlbench") +
                    " from an image that has it (" +
                    (o.test_image.empty() ? "name it with --test-image" : o.test_image) +
                    "), decode side first: `kubectl debug` adds an ephemeral container to each pod "
                    "(it stays in the pod until the pod is replaced), which this tool never does";
}

struct Choice {
  const PairCandidate* prefill = nullptr;
  const PairCandidate* decode = nullptr;
  TestTool tool = TestTool::none;
  bool cross = false;
};

// Different nodes first (only then is RDMA exercised), then the better tool, then a multinode
// worker's leader over its worker pods.
bool better(const Choice& a, const Choice& b) {
  if (!b.prefill)
    return true;
  if (a.cross != b.cross)
    return a.cross;
  if (a.tool != b.tool)
    return static_cast<int>(a.tool) < static_cast<int>(b.tool);
  return multinode_workers(*a.prefill, *a.decode) < multinode_workers(*b.prefill, *b.decode);
}

Choice choose(const std::vector<PairCandidate>& pods, const PairingOptions& o) {
  Choice best;
  for (const auto& p : pods) {
    if (p.role != dynamo::Role::prefill || !has_ip(p))
      continue;
    for (const auto& d : pods) {
      if (d.role != dynamo::Role::decode || !has_ip(d))
        continue;
      Choice c{&p, &d, best_tool(p, d, o), p.node != d.node};
      if (better(c, best))
        best = c;
    }
  }
  return best;
}

// The backend both sides can use: the prefill's first that the decode pod also uses; a
// candidate without backends (not known) takes the other's, then the options' default.
std::string common_backend(const PairCandidate& p, const PairCandidate& d,
                           const std::string& fallback) {
  if (p.backends.empty())
    return d.backends.empty() ? fallback : d.backends.front();
  if (d.backends.empty())
    return p.backends.front();
  for (const auto& b : p.backends)
    if (std::find(d.backends.begin(), d.backends.end(), b) != d.backends.end())
      return b;
  return {};
}

const PairCandidate* by_name(const std::vector<PairCandidate>& pods, const std::string& name) {
  auto it = std::find_if(pods.begin(), pods.end(), [&](const auto& p) { return p.pod == name; });
  return it == pods.end() ? nullptr : &*it;
}

bool shell_safe(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("-_./:=,@%+").find(c) != std::string_view::npos;
  });
}

} // namespace

std::string_view to_string(TestTool t) {
  switch (t) {
  case TestTool::nixl_python:
    return "NIXL Python API";
  case TestTool::nixlbench_asio:
    return "nixlbench (ASIO)";
  case TestTool::nixlbench_etcd:
    return "nixlbench (etcd)";
  case TestTool::ucx_perftest:
    return "ucx_perftest";
  case TestTool::nixl_test:
    return "nixl_test";
  case TestTool::none:
    return "none";
  }
  return "none";
}

std::string shell_line(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty())
      out += ' ';
    if (shell_safe(a)) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a)
      out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

std::vector<std::string> stdin_tied(const std::vector<std::string>& argv) {
  // fd 3 keeps the exec's stdin for the watcher (an asynchronous list's own stdin is
  // /dev/null); the trap covers a `timeout` that signals only its child (busybox). The watcher
  // signals until the tool is gone: a TERM that lands between the fork and the tool's exec is
  // lost with the forked shell's traps (dash), which left the test running to the deadline. A
  // tool deaf to SIGTERM gets SIGKILL after about 2 s, from the watcher or, when `timeout`
  // ended the shell first, from the trap's last child.
  static const std::string script =
      "trap 'kill -TERM $p $w 2>/dev/null; "
      "(sleep 2; kill -KILL $p) >/dev/null 2>&1 & exit 143' TERM INT HUP; "
      "exec 3<&0 </dev/null; "
      "\"$@\" 3<&- & p=$!; "
      "(while read -r _ <&3; do :; done; n=0; "
      "while kill -TERM $p; do n=$((n+1)); [ $n -gt 20 ] && kill -KILL $p; "
      "sleep 0.1 || sleep 1; done) >/dev/null 2>&1 & w=$!; "
      "exec 3<&-; "
      "wait $p; rc=$?; kill $w 2>/dev/null; exit $rc";
  auto dashes = std::find(argv.begin(), argv.end(), "--");
  if (dashes == argv.end() || argv.end() - dashes < 4 || dashes[1] != "timeout")
    return argv;
  std::vector<std::string> out(argv.begin(), dashes);
  out.insert(out.end(), {"-i", "--", "timeout", dashes[2], "sh", "-c", script, "icheck-transfer"});
  out.insert(out.end(), dashes + 3, argv.end());
  return out;
}

// Printed for the user: the children got the credential flags, the printed lines do not.
std::string TransferPlan::listener_command() const {
  return shell_line(outside::printable_argv(listener_argv));
}
std::string TransferPlan::initiator_command() const {
  return shell_line(outside::printable_argv(initiator_argv));
}
std::string TransferPlan::debug_listener_command() const {
  return shell_line(outside::printable_argv(debug_listener_argv));
}
std::string TransferPlan::debug_initiator_command() const {
  return shell_line(outside::printable_argv(debug_initiator_argv));
}

std::string TransferPlan::pair_line() const {
  auto side = [](const std::string& pod, const std::string& node, const std::string& ip) {
    return pod + " (node " + (node.empty() ? "?" : node) + ", " + (ip.empty() ? "no IP" : ip) + ")";
  };
  return "prefill " + side(prefill, prefill_node, prefill_ip) + " -> decode " +
         side(decode, decode_node, decode_ip);
}

Expected<std::pair<std::string, std::string>> parse_pair(std::string_view value) {
  auto comma = value.find(',');
  if (comma == std::string_view::npos || comma == 0 || comma + 1 == value.size() ||
      value.find(',', comma + 1) != std::string_view::npos)
    return Error{"--pair takes PREFILL,DECODE (two pod names), got '" + std::string(value) + "'"};
  return std::pair{std::string(value.substr(0, comma)), std::string(value.substr(comma + 1))};
}

static TransferPlan plan_choice(const Choice& c, const PairingOptions& o) {
  TransferPlan plan;
  plan.timeout_s = o.timeout_s;
  plan.found = true;
  plan.prefill = c.prefill->pod;
  plan.decode = c.decode->pod;
  plan.prefill_node = c.prefill->node;
  plan.decode_node = c.decode->node;
  plan.cross_node = c.cross;
  if (!c.cross)
    plan.node_note = o.pair ? "both pods run on node " + c.prefill->node +
                                  ": RDMA is not exercised between nodes; separate pods cannot use NVLink between them, so KV goes through the NIC (RDMA loopback) or TCP"
                            : "every prefill/decode pair shares a node (" + c.prefill->node +
                                  "): RDMA is not exercised between nodes; separate pods cannot use NVLink between them, so KV goes through the NIC (RDMA loopback) or TCP";
  // EFA has no loopback: a same-node pair cannot test it at all.
  if (!c.cross && (!c.prefill->nixl.efa_devices.empty() || !c.decode->nixl.efa_devices.empty()))
    plan.node_note += " (EFA has no loopback: a same-node pair never tests it)";
  auto with_backend = o;
  with_backend.backend = common_backend(*c.prefill, *c.decode, o.backend);
  if (with_backend.backend.empty()) {
    plan.backend_note = "no NIXL backend in common: " + c.prefill->pod + " uses " +
                        join(c.prefill->backends) + ", " + c.decode->pod + " uses " +
                        join(c.decode->backends) + " (KV cannot move between them)";
    with_backend.backend = c.prefill->backends.front();
  } else if (with_backend.backend != "UCX" && c.tool == TestTool::ucx_perftest) {
    plan.backend_note = "ucx_perftest measures UCX, not the " + with_backend.backend +
                        " backend these pods' NIXL uses";
  }
  const bool measures_kv_path =
      c.prefill->library == "UCX" && c.decode->library == "UCX" && c.tool == TestTool::ucx_perftest;
  if ((c.prefill->library != "NIXL" || c.decode->library != "NIXL") && !measures_kv_path) {
    const auto& p = c.prefill->library;
    const auto& d = c.decode->library;
    plan.backend_note = "these pods move KV with " + (p == d ? p : p + " and " + d) +
                        ", not NIXL: the test measures the fabric, not their KV path";
  }
  plan.backend = with_backend.backend;
  plan.tool = c.tool;
  plan.tool_note = tool_note(c.tool, *c.prefill, *c.decode, with_backend);
  plan.prefill_ip = c.prefill->pod_ip;
  plan.decode_ip = c.decode->pod_ip;
  fill_commands(plan, *c.prefill, *c.decode, with_backend);
  const bool bypassed = c.prefill->library != "NIXL" || c.decode->library != "NIXL";
  plan.runnable = c.tool != TestTool::none &&
                  !(c.tool == TestTool::nixlbench_etcd && o.etcd_endpoints.empty()) &&
                  !(bypassed && c.tool != TestTool::ucx_perftest);
  if (bypassed && c.tool != TestTool::ucx_perftest && c.tool != TestTool::none)
    plan.tool_note = std::string(to_string(c.tool)) +
                     " would test NIXL, which these pods bypass: "
                     "ucx_perftest in both images would test the fabric their KV uses";
  if (!plan.runnable)
    fill_debug_commands(plan, *c.prefill, *c.decode, with_backend);
  return plan;
}

TransferPlan plan_for(const PairCandidate& prefill, const PairCandidate& decode,
                      const PairingOptions& o) {
  Choice c{&prefill, &decode, best_tool(prefill, decode, o), prefill.node != decode.node};
  return plan_choice(c, o);
}

int multinode_workers(const PairCandidate& a, const PairCandidate& b) {
  auto worker = [](const PairCandidate& p) {
    return p.multinode == dynamo::MultinodePart::worker ? 1 : 0;
  };
  return worker(a) + worker(b);
}

TransferPlan plan_transfer(const std::vector<PairCandidate>& pods, const PairingOptions& o) {
  if (o.pair) {
    const auto* p = by_name(pods, o.pair->first);
    const auto* d = by_name(pods, o.pair->second);
    if (!p || !d) {
      TransferPlan plan;
      plan.timeout_s = o.timeout_s;
      plan.why_not =
          "--pair names a pod that was not probed: " + (p ? o.pair->second : o.pair->first);
      return plan;
    }
    return plan_for(*p, *d, o);
  }
  auto c = choose(pods, o);
  if (!c.prefill) {
    TransferPlan plan;
    plan.timeout_s = o.timeout_s;
    plan.why_not =
        "no prefill and decode pod (with pod IPs) to pair: not a disaggregated deployment?";
    return plan;
  }
  return plan_choice(c, o);
}

} // namespace icheck::rules
