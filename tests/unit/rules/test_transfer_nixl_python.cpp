// The transfer through the worker image's own NIXL Python API: how a pair is planned with it,
// how its outputs are judged (tests/fixtures/transfer/nixl_python), which GPU it uses.
#include "../probe/fixture.hpp"
#include "pair_fixture.hpp"
#include "probe/transfer/nixl_python_script.hpp"
#include "rules/pair/pairing.hpp"
#include "rules/transfer/transfer_rules.hpp"
#include "test_node_fixture.hpp"

#include <doctest/doctest.h>

using namespace icheck;
using report::Layer;
using report::Status;
using rules::TestTool;

namespace {

rules::SideOutput side_from(const std::string& file, int exit_code = 0, bool timed_out = false) {
  rules::SideOutput s;
  s.ran = true;
  s.exit_code = exit_code;
  s.timed_out = timed_out;
  s.out = probe::test::fixture("transfer/nixl_python/" + file);
  return s;
}

rules::TransferOutcome python_pair(const std::string& name, int decode_rc = 0, int prefill_rc = 0) {
  rules::TransferOutcome o;
  o.tool = TestTool::nixl_python;
  o.prefill = "p";
  o.decode = "d";
  o.prefill_node = "node-a";
  o.decode_node = "node-b";
  o.timeout_s = 20;
  o.listener = side_from(name + "-decode.txt", decode_rc);
  o.initiator = side_from(name + "-prefill.txt", prefill_rc);
  return o;
}

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// A pod whose python3 imports nixl.
rules::PairCandidate pod(std::string name, dynamo::Role role, std::string node, std::string ip) {
  auto p = rules::test::pair_pod(std::move(name), role, std::move(node), std::move(ip));
  p.nixl.python_import.attempted = p.nixl.python_import.ok = true;
  return p;
}

rules::PairingOptions options() {
  rules::PairingOptions o;
  o.kubectl_base = {"kubectl"};
  o.seed = "3f9c2a7d41e08b65";
  return o;
}

}  // namespace

TEST_CASE("nixl python: GPU memory at line-rate class, data checked both ways: ok, and says so") {
  auto f = rules::judge_transfer(python_pair("vram-ok"), 400.0);
  CHECK(f.status == Status::ok);
  CHECK(f.layer == Layer::nixl);
  CHECK(f.detail ==
        "NIXL Python API p (node node-a) -> d (node node-b): 41.2 GB/s (82 % of 50.0 GB/s line "
        "rate); data verified both ways (16 blocks of 16 MiB, pattern unique to this run), GPU 3 "
        "memory (256 MiB, CUDA runtime) on both sides");
}

TEST_CASE("nixl python: host memory is said and never ok, even at line rate") {
  auto slow = rules::judge_transfer(python_pair("host-ok"), 400.0);
  CHECK(slow.status == Status::fail);  // 0.7 GB/s: TCP class, whatever the memory
  CHECK(has(slow.detail, "KV transfer falls back to TCP: NIXL Python API p (node node-a) -> d "
                         "(node node-b): 0.7 GB/s"));
  CHECK(has(slow.detail, "host memory (64 MiB) on both sides; host memory only (CUDA runtime: "
                         "RuntimeError: cudaSetDevice returned CUDA error 35; no cupy; no torch): "
                         "GPUDirect not tested"));
  auto fast = python_pair("host-ok");
  auto& out = fast.initiator.out;
  out.replace(out.find("gbps=0.727"), 10, "gbps=41.20");
  auto f = rules::judge_transfer(fast, 400.0);
  CHECK(f.status == Status::warn);
  CHECK(has(f.detail, "41.2 GB/s (82 % of 50.0 GB/s line rate)"));
  CHECK(has(f.detail, "GPUDirect not tested"));
  CHECK(has(f.next, "cupy or torch"));
}

TEST_CASE("nixl python: one corrupted byte fails whatever the bandwidth, with its offset") {
  auto o = python_pair("corrupt", 0, 4);
  auto f = rules::judge_transfer(o, 400.0);
  CHECK(f.status == Status::fail);
  CHECK(f.layer == Layer::nixl);
  CHECK(f.detail == "NIXL Python API p (node node-a) -> d (node node-b): data corrupted in "
                    "transit: the decode side found byte 8388608 (block 0) 0x2f, expected 0x75 "
                    "after the WRITE, whatever the bandwidth");
  CHECK(has(f.next, "GPUDirect"));
}

TEST_CASE("nixl python: NIXL's backend error fails at nixl with its line") {
  auto f = rules::judge_transfer(python_pair("backend-error", 1, 1), 400.0);
  CHECK(f.status == Status::fail);
  CHECK(f.layer == Layer::nixl);
  CHECK(has(f.detail, "NIXL error: decode side: icheck-nixl: error: create agent with backend "
                      "UCX: nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND"));
}

TEST_CASE("nixl python: connected, then nothing: fails as data that did not move") {
  auto o = python_pair("hang", 3, 3);
  auto f = rules::judge_transfer(o, 400.0);
  CHECK(f.status == Status::fail);
  CHECK(has(f.detail, "connected, then decode side: icheck-nixl: stalled: the prefill side's "
                      "transfers did not finish within 8 s: data did not move"));
}

TEST_CASE("nixl python: an API it cannot drive is skipped with the reason, never a failure") {
  auto o = python_pair("host-ok");
  o.listener = side_from("api-differs-decode.txt");
  o.initiator.out = "icheck-nixl: skipped: could not reach the decode side's test port "
                    "10.0.2.7:13340 (errno 111)\n";  // synthetic: the script's own line
  auto f = rules::judge_transfer(o, 400.0);
  CHECK(f.status == Status::skipped);
  CHECK(f.detail == "NIXL Python transfer test not run: nixl._api not in this NIXL (No module "
                    "named 'nixl._api')");
}

TEST_CASE("nixl python: a figure without both checks is not a result") {
  auto o = python_pair("host-ok");
  o.listener.out = "icheck-nixl: connected peer=10.0.1.5\n";  // synthetic: no check printed
  auto f = rules::judge_transfer(o, 400.0);
  CHECK(f.status == Status::skipped);
  CHECK(f.detail == "NIXL Python transfer test ended without checking the data on both sides");
  o.listener.exit_code = 1;
  CHECK(rules::judge_transfer(o, 400.0).status == Status::fail);
}

TEST_CASE("pairing: the worker's own NIXL Python API first, with the exact argv and why") {
  auto p = pod("p", dynamo::Role::prefill, "a", "10.0.1.5");
  auto d = pod("d", dynamo::Role::decode, "b", "10.0.2.7");
  p.kv_gpu = 3;
  for (auto* c : {&p, &d}) {
    c->nixl.tools.nixlbench = probe::NixlBench{"/usr/local/nixlbench/bin/nixlbench", true};
    c->nixl.tools.ucx_perftest = "/usr/bin/ucx_perftest";
  }
  auto plan = rules::plan_for(p, d, options());
  CHECK(plan.tool == TestTool::nixl_python);
  CHECK(plan.runnable);
  CHECK(plan.tool_note ==
        "NIXL's own Python API (nixl._api) in both worker containers: the KV cache's NIXL, UCX, "
        "environment and GPU memory, data pattern checked; chosen over nixlbench, ucx_perftest, "
        "in both images too");
  const std::vector<std::string> tail = {
      "target",           "--ip",      "10.0.2.7", "--port", "13340", "--backend", "UCX", "--seed",
      "3f9c2a7d41e08b65", "--timeout", "60",       "--gpu",  "0",     "--max-mib", "256"};
  auto at = std::find(plan.listener_argv.begin(), plan.listener_argv.end(), "python3");
  REQUIRE(at != plan.listener_argv.end());
  CHECK(at[1] == "-c");
  CHECK(at[2] == probe::nixl_python_script());
  CHECK(std::vector<std::string>(at + 3, plan.listener_argv.end()) == tail);
  CHECK(std::vector<std::string>(plan.listener_argv.begin(), at) ==
        std::vector<std::string>{"kubectl", "exec", "d", "-n", "dynamo", "-c", "main", "--",
                                 "timeout", "60"});
  auto init = std::find(plan.initiator_argv.begin(), plan.initiator_argv.end(), "initiator");
  REQUIRE(init != plan.initiator_argv.end());
  CHECK(init[2] == "10.0.2.7");                 // the decode side's address
  CHECK(plan.initiator_argv.end()[-3] == "3");  // the prefill pod's own KV GPU
}

TEST_CASE("pairing: --test-tool chooses, and a tool one image lacks is none with why") {
  auto p = pod("p", dynamo::Role::prefill, "a", "10.0.1.5");
  auto d = pod("d", dynamo::Role::decode, "b", "10.0.2.7");
  for (auto* c : {&p, &d})
    c->nixl.tools.nixlbench = probe::NixlBench{"/usr/local/nixlbench/bin/nixlbench", true};
  auto o = options();
  o.test_tool = *rules::parse_test_tool("nixlbench");
  CHECK(rules::plan_for(p, d, o).tool == TestTool::nixlbench_asio);
  d.nixl.python_import.ok = false;
  auto bench = rules::plan_for(p, d, options());
  CHECK(bench.tool == TestTool::nixlbench_asio);
  CHECK(bench.tool_note == "nixlbench, ASIO runtime (no etcd); start the decode side first (NIXL's "
                           "Python API, the first choice, is not usable in d)");
  o.test_tool = *rules::parse_test_tool("nixl-python");
  auto plan = rules::plan_for(p, d, o);
  CHECK(plan.tool == TestTool::none);
  CHECK_FALSE(plan.runnable);
  CHECK(plan.tool_note == "--test-tool nixl-python: not in both images");
  CHECK_FALSE(*rules::parse_test_tool("auto"));
  CHECK_FALSE(rules::parse_test_tool("ib_write_bw"));
}

TEST_CASE("pairing: pods that move KV with UCX directly keep ucx_perftest before NIXL") {
  auto p = pod("p", dynamo::Role::prefill, "a", "10.0.1.5");
  auto d = pod("d", dynamo::Role::decode, "b", "10.0.2.7");
  for (auto* c : {&p, &d}) {
    c->library = "UCX";
    c->nixl.tools.ucx_perftest = "/usr/bin/ucx_perftest";
  }
  CHECK(rules::plan_for(p, d, options()).tool == TestTool::ucx_perftest);
  p.nixl.tools.ucx_perftest.clear();  // only NIXL's Python API left: it tests NIXL, not their path
  auto plan = rules::plan_for(p, d, options());
  CHECK(plan.tool == TestTool::nixl_python);
  CHECK_FALSE(plan.runnable);
}

TEST_CASE("kv gpu: the GPU under a NIC that carries KV, PIX first, none without affinity") {
  auto p = rules::test::healthy_h100();
  CHECK(rules::kv_gpu_index(p.facts(), {}) == 0);
  p.set("transport_env", "UCX_NET_DEVICES=mlx5_5:1\n");  // h100_nics()[3]: under GPU3
  CHECK(rules::kv_gpu_index(p.facts(), {}) == 3);
  p.set("nvidia_smi_topo", rules::test::topo_table(8, rules::test::h100_nics(), 0));
  CHECK_FALSE(rules::kv_gpu_index(p.facts(), {}));
  p.absent("nvidia_smi_topo");
  CHECK_FALSE(rules::kv_gpu_index(p.facts(), {}));
}

TEST_CASE("pairing: a UCX built without CUDA runs ucx_perftest on host memory, never ok") {
  auto p = rules::test::pair_pod("p", dynamo::Role::prefill, "a", "10.0.1.5");
  auto d = rules::test::pair_pod("d", dynamo::Role::decode, "b", "10.0.2.7");
  for (auto* c : {&p, &d})
    c->nixl.tools.ucx_perftest = "/usr/bin/ucx_perftest";
  CHECK_FALSE(rules::plan_for(p, d, options()).host_memory);
  d.ucx_without_cuda = true;
  auto plan = rules::plan_for(p, d, options());
  CHECK(plan.host_memory);
  CHECK(plan.listener_command() == "kubectl exec d -n dynamo -c main -- timeout 60 "
                                   "/usr/bin/ucx_perftest -t tag_bw -m host -s 16777216 -n 100 -p "
                                   "13337");
  CHECK(plan.tool_note == "ucx_perftest: server on decode, client on prefill, host memory: the "
                          "pods' UCX was built without CUDA, so GPUDirect is not tested");
  rules::TransferOutcome o;
  o.tool = TestTool::ucx_perftest;
  o.prefill = "p";
  o.decode = "d";
  o.host_memory = true;
  o.listener.ran = o.initiator.ran = true;
  o.listener.exit_code = o.initiator.exit_code = 0;
  o.initiator.out = probe::test::fixture(
      "transfer/ucx_perftest/tag-bw-host-bond-roce-thread-and-final-ucx10649.txt");
  auto f = rules::judge_transfer(o, 400.0);
  CHECK(f.status == Status::warn);  // 46.7 GB/s: line-rate class, but no GPU memory moved
  CHECK(has(f.detail, "46.7 GB/s (93 % of 50.0 GB/s line rate); host memory only (this UCX has "
                      "no CUDA): GPUDirect not tested"));
}

TEST_CASE("nixl python: strangers refused on the test port are named, never blamed on a side") {
  // synthetic: the script's own lines (nixl_python_script.cpp's refused_note)
  const std::string strangers = "icheck-nixl: strangers side=decode refused=2 first=10.0.9.9 "
                                "why=closed before a first line\n";
  auto ok = python_pair("vram-ok");
  ok.listener.out += strangers;
  auto f = rules::judge_transfer(ok, 400.0);
  CHECK(f.status == Status::ok);  // the pair's own test ran: they changed nothing
  CHECK(has(f.detail, "GPU 3 memory (256 MiB, CUDA runtime) on both sides; the decode side "
                      "refused 2 connections without this run's seed on the test port (the first "
                      "from 10.0.9.9: closed before a first line)"));

  auto never = python_pair("host-ok", 3, 0);
  never.listener.out = "icheck-nixl: listening on 10.0.2.7:13340\n" + strangers +
                       "icheck-nixl: stalled: waiting for the prefill side's connection did not "
                       "finish within 20 s\n";
  never.initiator.exit_code = 1;
  never.initiator.out = "icheck-nixl: strangers side=prefill refused=5 first=10.0.2.7 why=closed "
                        "before its first line\nicheck-nixl: error: the test port 10.0.2.7:13340 "
                        "answered, but never as this run's decode side (refused 5 connections)\n";
  f = rules::judge_transfer(never, 400.0);
  CHECK(f.status == Status::skipped);
  CHECK(f.detail == "transfer test did not connect: the prefill side refused 5 connections to the "
                    "decode side's test port that answered without this run's seed (the first to "
                    "10.0.2.7: closed before its first line); another client is on port 13340: "
                    "rerun, or find it (ss -tnp in the pod)");
}

TEST_CASE("nixl python: a side stopped at the output cap is said so, not 'never connected'") {
  auto o = python_pair("host-ok", -1, 0);
  o.listener.truncated = true;
  o.listener.out = std::string(4u << 20, 'W');  // one runaway line, cut at the 4 MiB cap
  auto f = rules::judge_transfer(o, 400.0);
  CHECK(f.status == Status::skipped);
  CHECK(f.detail == "the decode side printed more than the 4 MiB output cap (one line of about 4 "
                    "MiB when it was cut), so the test was stopped: not judged");
}
