#include "pair_fixture.hpp"
#include "rules/pair/pairing.hpp"

#include <doctest/doctest.h>
#include <set>

using namespace icheck;
using rules::TestTool;

namespace {

const auto pod = rules::test::pair_pod;

void give_nixlbench(rules::PairCandidate& p, std::optional<bool> asio) {
  p.nixl.tools.nixlbench = probe::NixlBench{"/usr/local/nixlbench/bin/nixlbench", asio};
}

rules::PairingOptions options() {
  rules::PairingOptions o;
  o.kubectl_base = {"kubectl", "--context", "prod-a"};
  return o;
}

} // namespace

TEST_CASE("pairing: prefers pods on different nodes, nixlbench ASIO, exact commands") {
  auto p0 = pod("llm-prefill-0", dynamo::Role::prefill, "gpu-a01", "10.0.1.5");
  auto d0 = pod("llm-decode-0", dynamo::Role::decode, "gpu-a01", "10.0.1.6");
  auto d1 = pod("llm-decode-1", dynamo::Role::decode, "gpu-a02", "10.0.2.7");
  for (auto* p : {&p0, &d0, &d1})
    give_nixlbench(*p, true);
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
        "every prefill/decode pair shares a node (gpu-a01): RDMA is not exercised between nodes; separate pods cannot use NVLink between them, so KV goes through the NIC (RDMA loopback) or TCP");
  CHECK(plan.tool == TestTool::ucx_perftest);
  CHECK(plan.listener_command() == "kubectl --context prod-a exec d -n dynamo -c main -- timeout "
                                   "60 /usr/local/ucx/bin/ucx_perftest "
                                   "-t tag_bw -m cuda -s 134217728 -n 100 -p 13337");
  CHECK(plan.initiator_command() == "kubectl --context prod-a exec p -n dynamo -c main -- timeout "
                                    "60 /usr/local/ucx/bin/ucx_perftest "
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
        "every prefill/decode pair shares a node (p5-a): RDMA is not exercised between nodes; "
        "separate pods cannot use NVLink between them, so KV goes through the NIC (RDMA loopback) "
        "or TCP (EFA has no loopback: a same-node pair never tests it)");
  d0.node = "p5-b";
  CHECK(rules::plan_transfer({p0, d0}, options()).node_note.empty());
}

TEST_CASE(
    "pairing: nixlbench without ASIO needs etcd, falls back to ucx_perftest, then nixl_test") {
  auto p = pod("p", dynamo::Role::prefill, "n1", "10.0.0.1");
  auto d = pod("d", dynamo::Role::decode, "n2", "10.0.0.2");
  give_nixlbench(p, false);
  give_nixlbench(d, false);
  auto plan = rules::plan_transfer({p, d}, options());
  CHECK(plan.tool == TestTool::nixlbench_etcd);
  CHECK_FALSE(plan.runnable);
  CHECK(plan.listener_command().find("--etcd_endpoints http://ETCD_HOST:2379") !=
        std::string::npos);
  auto with_etcd = options();
  with_etcd.etcd_endpoints = "http://etcd.dynamo:2379";
  auto e = rules::plan_transfer({p, d}, with_etcd);
  CHECK(e.tool == TestTool::nixlbench_etcd);
  CHECK(e.runnable);
  p.nixl.tools.nixl_test = d.nixl.tools.nixl_test = "/opt/nvidia/nvda_nixl/bin/nixl_test";
  auto nt = rules::plan_transfer({p, d}, options());
  CHECK(nt.tool == TestTool::nixl_test);
  CHECK(nt.tool_note == "nixl_test: host memory only, does not test GPUDirect");
  CHECK(nt.initiator_command().ends_with(
      "/opt/nvidia/nvda_nixl/bin/nixl_test initiator 10.0.0.2 5555"));
}

TEST_CASE("pairing: --pair is honoured, even on one node, and unknown names are an error") {
  auto p0 = pod("p0", dynamo::Role::prefill, "n1", "10.0.0.1");
  auto d0 = pod("d0", dynamo::Role::decode, "n1", "10.0.0.2");
  auto d1 = pod("d1", dynamo::Role::decode, "n2", "10.0.0.3");
  auto o = options();
  o.pair = std::pair{std::string("p0"), std::string("d0")};
  auto plan = rules::plan_transfer({p0, d0, d1}, o);
  CHECK(plan.decode == "d0");
  CHECK(plan.node_note == "both pods run on node n1: RDMA is not exercised between nodes; separate pods cannot use NVLink between them, so KV goes through the NIC (RDMA loopback) or TCP");
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
  for (auto* p : {&p0, &d0})
    give_nixlbench(*p, true);
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
  CHECK(plan.backend_note ==
        "no NIXL backend in common: p uses LIBFABRIC, d uses UCX (KV cannot move between them)");
}

TEST_CASE("pairing: ucx_perftest on a LIBFABRIC deployment says what it does not test") {
  auto p0 = pod("p", dynamo::Role::prefill, "gpu-a01", "10.0.1.5");
  auto d0 = pod("d", dynamo::Role::decode, "gpu-a02", "10.0.2.6");
  p0.nixl.tools.ucx_perftest = d0.nixl.tools.ucx_perftest = "/usr/local/ucx/bin/ucx_perftest";
  p0.backends = d0.backends = {"LIBFABRIC"};
  auto plan = rules::plan_transfer({p0, d0}, options());
  CHECK(plan.tool == TestTool::ucx_perftest);
  CHECK(plan.backend_note ==
        "ucx_perftest measures UCX, not the LIBFABRIC backend these pods' NIXL uses");
}

namespace {

// prefill pods on nodes p0..p{np-1}, decode pods on d0..d{nd-1}, `both` nodes b* with one of each
std::vector<rules::PairCandidate> topology(int np, int nd, int both = 0, int pods_per_node = 1) {
  std::vector<rules::PairCandidate> pods;
  int ip = 1;
  auto add = [&](dynamo::Role role, const std::string& node) {
    for (int k = 0; k < pods_per_node; ++k)
      pods.push_back(
          pod(node + "-" + std::string(dynamo::role_name(role)) + "-" + std::to_string(k), role,
              node, "10.0.0." + std::to_string(ip++)));
  };
  for (int i = 0; i < np; ++i)
    add(dynamo::Role::prefill, "p" + std::to_string(i));
  for (int i = 0; i < nd; ++i)
    add(dynamo::Role::decode, "d" + std::to_string(i));
  for (int i = 0; i < both; ++i) {
    add(dynamo::Role::prefill, "b" + std::to_string(i));
    add(dynamo::Role::decode, "b" + std::to_string(i));
  }
  return pods;
}

std::set<std::string> covered(const std::vector<rules::PairCandidate>& pods,
                              const rules::PairSelection& s) {
  std::set<std::string> nodes;
  for (const auto& pp : s.pairs) {
    CHECK(pods[pp.prefill].role == dynamo::Role::prefill);
    CHECK(pods[pp.decode].role == dynamo::Role::decode);
    CHECK(pods[pp.prefill].node != pods[pp.decode].node);
    nodes.insert(pods[pp.prefill].node);
    nodes.insert(pods[pp.decode].node);
  }
  return nodes;
}

} // namespace

TEST_CASE("pair selection: every node is covered by the fewest cross-node pairs") {
  for (int np = 1; np <= 6; ++np) {
    for (int nd = 1; nd <= 6; ++nd) {
      CAPTURE(np);
      CAPTURE(nd);
      auto pods = topology(np, nd, 0, 2);
      auto sel = rules::select_pairs(pods, options());
      CHECK(covered(pods, sel).size() == static_cast<std::size_t>(np + nd));
      // the fewest: one pair covers one prefill and one decode node
      CHECK(sel.pairs.size() == static_cast<std::size_t>(std::max(np, nd)));
      CHECK(sel.uncovered.empty());
    }
  }
}

TEST_CASE("pair selection: nodes running both roles are covered, never more pairs than nodes") {
  for (int both = 1; both <= 5; ++both) {
    for (int extra = 0; extra <= 3; ++extra) {
      CAPTURE(both);
      CAPTURE(extra);
      auto pods = topology(extra, 1, both);
      auto sel = rules::select_pairs(pods, options());
      const std::size_t nodes = static_cast<std::size_t>(both + extra + 1);
      CHECK(covered(pods, sel).size() == nodes);
      CHECK(sel.pairs.size() <= nodes);
      CHECK(sel.pairs.size() >= (nodes + 1) / 2);
    }
  }
}

TEST_CASE("pair selection: four nodes, one pair each way, the slow decode node included") {
  auto pods = topology(2, 2);
  auto sel = rules::select_pairs(pods, options());
  REQUIRE(sel.pairs.size() == 2);
  CHECK(covered(pods, sel) == std::set<std::string>{"p0", "p1", "d0", "d1"});
}

TEST_CASE("pair selection: --pairs all is every prefill node x decode node, bounded") {
  auto pods = topology(3, 4, 1);
  auto o = options();
  o.mode = rules::PairMode::all;
  auto sel = rules::select_pairs(pods, o);
  CHECK(sel.pairs.size() == 4 * 5 - 1); // (3 + b0) x (4 + b0) minus b0 with itself
  CHECK(sel.cut.empty());
  o.max_pairs = 5;
  sel = rules::select_pairs(pods, o);
  CHECK(sel.pairs.size() == 5);
  CHECK(sel.cut == "--pairs all: 19 node pairs, the first 5 tested");
}

TEST_CASE("pair selection: one node only gives the single same-node pair") {
  auto pods = topology(0, 0, 1);
  auto sel = rules::select_pairs(pods, options());
  REQUIRE(sel.pairs.size() == 1);
  CHECK(pods[sel.pairs[0].prefill].node == pods[sel.pairs[0].decode].node);
  auto plans = rules::plan_transfers(pods, options());
  REQUIRE(plans.plans.size() == 1);
  CHECK_FALSE(plans.plans[0].cross_node);
  CHECK(rules::plan_transfers({pod("w", dynamo::Role::worker, "n1", "10.0.0.1")}, options())
            .plans.empty());
}

TEST_CASE("pair selection: on a node, the pod whose tool suits its partner") {
  auto pods = topology(1, 1, 0, 2);
  give_nixlbench(pods[1], true); // p0-prefill-1
  give_nixlbench(pods[3], true); // d0-decode-1
  auto sel = rules::select_pairs(pods, options());
  REQUIRE(sel.pairs.size() == 1);
  CHECK(sel.pairs[0] == rules::PodPair{1, 3});
}

TEST_CASE("transfer waves: a few at a time, no node twice in one wave, every plan once") {
  auto pods = topology(2, 6);
  auto o = options();
  o.mode = rules::PairMode::all;
  auto plans = rules::plan_transfers(pods, o).plans;
  REQUIRE(plans.size() == 12);
  auto waves = rules::transfer_waves(plans, 4);
  std::multiset<std::size_t> seen;
  for (const auto& w : waves) {
    CHECK(w.size() <= 4);
    CHECK_FALSE(w.empty());
    std::set<std::string> nodes;
    for (auto i : w) {
      seen.insert(i);
      CHECK(nodes.insert(plans[i].prefill_node).second);
      CHECK(nodes.insert(plans[i].decode_node).second);
    }
  }
  CHECK(seen.size() == plans.size());
  CHECK(std::set<std::size_t>(seen.begin(), seen.end()).size() == plans.size());
  CHECK(rules::transfer_waves({}, 4).empty());
}

TEST_CASE("pairing: the remote side is tied to the exec stream's stdin") {
  std::vector<std::string> argv = {"kubectl",
                                   "exec",
                                   "d",
                                   "-n",
                                   "dynamo",
                                   "-c",
                                   "main",
                                   "--",
                                   "timeout",
                                   "60",
                                   "/usr/bin/ucx_perftest",
                                   "-p",
                                   "13337"};
  auto tied = rules::stdin_tied(argv);
  REQUIRE(tied.size() == argv.size() + 5);
  CHECK(std::vector<std::string>(tied.begin(), tied.begin() + 7) ==
        std::vector<std::string>(argv.begin(), argv.begin() + 7));
  CHECK(tied[7] == "-i");
  CHECK(std::vector<std::string>(tied.begin() + 8, tied.begin() + 13) ==
        std::vector<std::string>{"--", "timeout", "60", "sh", "-c"});
  CHECK(tied[13].find("read -r _ <&3") != std::string::npos);
  CHECK(tied[14] == "icheck-transfer");
  CHECK(std::vector<std::string>(tied.end() - 3, tied.end()) ==
        std::vector<std::string>{"/usr/bin/ucx_perftest", "-p", "13337"});
  CHECK(rules::stdin_tied({"kubectl", "get", "pods"}) ==
        std::vector<std::string>{"kubectl", "get", "pods"});
}

TEST_CASE("pairing: a multinode worker's leader before its worker pod on a tie") {
  auto wkr = pod("big-0-prefill-wkr-0", dynamo::Role::prefill, "gpu-b02", "10.0.2.5");
  auto ldr = pod("big-0-prefill-ldr-0", dynamo::Role::prefill, "gpu-b01", "10.0.1.5");
  auto d0 = pod("big-0-decode-0", dynamo::Role::decode, "gpu-b03", "10.0.3.5");
  wkr.multinode = dynamo::MultinodePart::worker;
  ldr.multinode = dynamo::MultinodePart::leader;
  wkr.multinode_group = ldr.multinode_group = "big-0-prefill";
  for (auto* p : {&wkr, &ldr, &d0})
    give_nixlbench(*p, true);
  std::vector<rules::PairCandidate> pods{wkr, ldr, d0};
  auto plan = rules::plan_transfer(pods, options());
  REQUIRE(plan.found);
  CHECK(plan.prefill == "big-0-prefill-ldr-0");
  CHECK(rules::multinode_workers(pods[0], pods[2]) == 1);
  CHECK(rules::multinode_workers(pods[1], pods[2]) == 0);
}
