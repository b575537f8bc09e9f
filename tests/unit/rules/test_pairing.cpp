#include <doctest/doctest.h>

#include "rules/pairing.hpp"

using namespace icheck;
using rules::TestTool;

namespace {

rules::PairCandidate pod(std::string name, dynamo::Role role, std::string node, std::string ip) {
  rules::PairCandidate p;
  p.pod = std::move(name);
  p.namespace_ = "dynamo";
  p.node = std::move(node);
  p.pod_ip = std::move(ip);
  p.role = role;
  p.container = "main";
  return p;
}

void give_nixlbench(rules::PairCandidate& p, std::optional<bool> asio) {
  p.nixl.tools.nixlbench = probe::NixlBench{"/usr/local/nixlbench/bin/nixlbench", asio};
}

rules::PairingOptions options() {
  rules::PairingOptions o;
  o.kubectl_base = {"kubectl", "--context", "prod-a"};
  return o;
}

}  // namespace

TEST_CASE("pairing: prefers pods on different nodes, nixlbench ASIO, exact commands") {
  auto p0 = pod("llm-prefill-0", dynamo::Role::prefill, "gpu-a01", "10.0.1.5");
  auto d0 = pod("llm-decode-0", dynamo::Role::decode, "gpu-a01", "10.0.1.6");
  auto d1 = pod("llm-decode-1", dynamo::Role::decode, "gpu-a02", "10.0.2.7");
  for (auto* p : {&p0, &d0, &d1}) give_nixlbench(*p, true);
  auto plan = rules::plan_transfer({p0, d0, d1}, options());
  REQUIRE(plan.found);
  CHECK(plan.decode == "llm-decode-1");
  CHECK(plan.cross_node);
  CHECK(plan.node_note.empty());
  CHECK(plan.tool == TestTool::nixlbench_asio);
  CHECK(plan.runnable);
  CHECK(plan.listener_command() ==
        "kubectl --context prod-a exec llm-decode-1 -n dynamo -c main -- timeout 60 "
        "/usr/local/nixlbench/bin/nixlbench --runtime_type ASIO --asio_address 10.0.2.7 "
        "--asio_port 12345 --backend UCX --initiator_seg_type VRAM --target_seg_type VRAM "
        "--scheme pairwise --total_buffer_size 1073741824 --start_block_size 1048576 "
        "--max_block_size 67108864 --num_iter 100 --warmup_iter 10");
  CHECK(plan.initiator_argv[3] == "exec");
  CHECK(plan.initiator_argv[4] == "llm-prefill-0");
  CHECK(plan.initiator_command().find("--asio_address 10.0.2.7") != std::string::npos);
}

TEST_CASE("pairing: every pair on one node says RDMA is not exercised") {
  auto p0 = pod("p", dynamo::Role::prefill, "gpu-a01", "10.0.1.5");
  auto d0 = pod("d", dynamo::Role::decode, "gpu-a01", "10.0.1.6");
  p0.nixl.tools.ucx_perftest = d0.nixl.tools.ucx_perftest = "/usr/local/ucx/bin/ucx_perftest";
  auto plan = rules::plan_transfer({p0, d0}, options());
  REQUIRE(plan.found);
  CHECK_FALSE(plan.cross_node);
  CHECK(plan.node_note ==
        "every prefill/decode pair shares a node (gpu-a01): RDMA is not exercised, only NVLink/shared memory");
  CHECK(plan.tool == TestTool::ucx_perftest);
  CHECK(plan.listener_command() ==
        "kubectl --context prod-a exec d -n dynamo -c main -- timeout 60 /usr/local/ucx/bin/ucx_perftest "
        "-t tag_bw -m cuda -s 134217728 -n 100 -p 13337");
  CHECK(plan.initiator_command() ==
        "kubectl --context prod-a exec p -n dynamo -c main -- timeout 60 /usr/local/ucx/bin/ucx_perftest "
        "10.0.1.6 -t tag_bw -m cuda -s 134217728 -n 100 -p 13337");
}

TEST_CASE(
    "pairing: a same-node pair of EFA pods says EFA is not tested, across nodes nothing is said") {
  auto p0 = pod("p", dynamo::Role::prefill, "p5-a", "10.0.1.5");
  auto d0 = pod("d", dynamo::Role::decode, "p5-a", "10.0.1.6");
  p0.nixl.tools.ucx_perftest = d0.nixl.tools.ucx_perftest = "/usr/local/ucx/bin/ucx_perftest";
  p0.nixl.efa_devices = d0.nixl.efa_devices = {"rdmap16s27"};
  auto plan = rules::plan_transfer({p0, d0}, options());
  CHECK(plan.node_note ==
        "every prefill/decode pair shares a node (p5-a): RDMA is not exercised, only "
        "NVLink/shared memory (EFA has no loopback: a same-node pair never tests it)");
  d0.node = "p5-b";
  CHECK(rules::plan_transfer({p0, d0}, options()).node_note.empty());
}

TEST_CASE("pairing: nixlbench without ASIO needs etcd, falls back to ucx_perftest, then nixl_test") {
  auto p = pod("p", dynamo::Role::prefill, "n1", "10.0.0.1");
  auto d = pod("d", dynamo::Role::decode, "n2", "10.0.0.2");
  give_nixlbench(p, false);
  give_nixlbench(d, false);
  auto plan = rules::plan_transfer({p, d}, options());
  CHECK(plan.tool == TestTool::nixlbench_etcd);
  CHECK_FALSE(plan.runnable);
  CHECK(plan.listener_command().find("--etcd_endpoints http://ETCD_HOST:2379") != std::string::npos);
  auto with_etcd = options();
  with_etcd.etcd_endpoints = "http://etcd.dynamo:2379";
  auto e = rules::plan_transfer({p, d}, with_etcd);
  CHECK(e.tool == TestTool::nixlbench_etcd);
  CHECK(e.runnable);
  p.nixl.tools.nixl_test = d.nixl.tools.nixl_test = "/opt/nvidia/nvda_nixl/bin/nixl_test";
  auto nt = rules::plan_transfer({p, d}, options());
  CHECK(nt.tool == TestTool::nixl_test);
  CHECK(nt.tool_note == "nixl_test: host memory only, does not test GPUDirect");
  CHECK(nt.initiator_command().ends_with("/opt/nvidia/nvda_nixl/bin/nixl_test initiator 10.0.0.2 5555"));
}

TEST_CASE("pairing: --pair is honoured, even on one node, and unknown names are an error") {
  auto p0 = pod("p0", dynamo::Role::prefill, "n1", "10.0.0.1");
  auto d0 = pod("d0", dynamo::Role::decode, "n1", "10.0.0.2");
  auto d1 = pod("d1", dynamo::Role::decode, "n2", "10.0.0.3");
  auto o = options();
  o.pair = std::pair{std::string("p0"), std::string("d0")};
  auto plan = rules::plan_transfer({p0, d0, d1}, o);
  CHECK(plan.decode == "d0");
  CHECK(plan.node_note == "both pods run on node n1: RDMA is not exercised, only NVLink/shared memory");
  CHECK(plan.tool == TestTool::none);
  CHECK_FALSE(plan.runnable);
  o.pair = std::pair{std::string("p0"), std::string("nope")};
  auto bad = rules::plan_transfer({p0, d0}, o);
  CHECK_FALSE(bad.found);
  CHECK(bad.why_not == "--pair names a pod that was not probed: nope");
}

TEST_CASE("pairing: no prefill/decode pods") {
  auto plan = rules::plan_transfer({pod("w", dynamo::Role::worker, "n1", "10.0.0.1")}, options());
  CHECK_FALSE(plan.found);
  CHECK_FALSE(plan.why_not.empty());
}

TEST_CASE("pairing: parse_pair and shell quoting") {
  auto ok = rules::parse_pair("a-prefill-0,a-decode-1");
  REQUIRE(ok);
  CHECK(ok->first == "a-prefill-0");
  CHECK(ok->second == "a-decode-1");
  CHECK_FALSE(rules::parse_pair("a"));
  CHECK_FALSE(rules::parse_pair("a,"));
  CHECK_FALSE(rules::parse_pair("a,b,c"));
  CHECK(rules::shell_line({"echo", "it's", "a b"}) == "echo 'it'\\''s' 'a b'");
}

TEST_CASE("pairing: nixlbench tests the backend both pods use, none in common is said") {
  auto p0 = pod("p", dynamo::Role::prefill, "gpu-a01", "10.0.1.5");
  auto d0 = pod("d", dynamo::Role::decode, "gpu-a02", "10.0.2.6");
  for (auto* p : {&p0, &d0}) give_nixlbench(*p, true);
  p0.backends = {"LIBFABRIC", "UCX"};
  d0.backends = {"UCX", "LIBFABRIC"};
  auto plan = rules::plan_transfer({p0, d0}, options());
  CHECK(plan.backend == "LIBFABRIC");
  CHECK(plan.backend_note.empty());
  CHECK(plan.listener_command().find("--backend LIBFABRIC ") != std::string::npos);
  d0.backends = {"UCX"};
  plan = rules::plan_transfer({p0, d0}, options());
  CHECK(plan.backend == "UCX");
  p0.backends = {"LIBFABRIC"};
  plan = rules::plan_transfer({p0, d0}, options());
  CHECK(plan.backend_note == "no NIXL backend in common: p uses LIBFABRIC, d uses UCX (KV cannot move between them)");
}

TEST_CASE("pairing: ucx_perftest on a LIBFABRIC deployment says what it does not test") {
  auto p0 = pod("p", dynamo::Role::prefill, "gpu-a01", "10.0.1.5");
  auto d0 = pod("d", dynamo::Role::decode, "gpu-a02", "10.0.2.6");
  p0.nixl.tools.ucx_perftest = d0.nixl.tools.ucx_perftest = "/usr/local/ucx/bin/ucx_perftest";
  p0.backends = d0.backends = {"LIBFABRIC"};
  auto plan = rules::plan_transfer({p0, d0}, options());
  CHECK(plan.tool == TestTool::ucx_perftest);
  CHECK(plan.backend_note == "ucx_perftest measures UCX, not the LIBFABRIC backend these pods' NIXL uses");
}
