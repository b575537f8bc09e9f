// The readers' flattening into fact names, and the rule that every fact a row names is one a
// reader provides.
#include "knowledge/evaluate.hpp"
#include "knowledge/load.hpp"
#include "probe/parsers.hpp"
#include "probe/stack/stack_versions.hpp"
#include "rules/known/stack_facts.hpp"
#include "rules/known/stack_versions_rule.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <fstream>

using namespace icheck;
using knowledge::FactMap;

TEST_CASE("known: every fact a row names is one a reader provides") {
  for (const auto& row : knowledge::rows())
    for (const auto& c : row.when) {
      CAPTURE(row.id);
      CAPTURE(c.fact);
      CHECK(rules::known::provided_fact(c.fact));
    }
  CHECK_FALSE(rules::known::provided_fact("version.nixl_cu12"));  // the wheel is spelled nixl-cu12
  CHECK_FALSE(rules::known::provided_fact("gpu.name"));
  CHECK_FALSE(rules::known::provided_fact("env."));
}

TEST_CASE("known: the engine's command line, kv-transfer-config and backends into facts") {
  FactMap facts;
  rules::KvBackends b;
  b.framework = dynamo::Framework::vllm;
  b.names = {"UCX", "LIBFABRIC"};
  rules::known::add_engine(
      facts,
      {"python3", "-m", "dynamo.vllm", "--model", "m", "--enforce-eager", "--kv-transfer-config",
       R"({"kv_connector":"NixlConnector","kv_role":"kv_both","kv_connector_extra_config":{"backends":["UCX","LIBFABRIC"]}})",
       "--block-size=64"},
      b, std::nullopt);
  CHECK(facts.get("engine.framework") == "vllm");
  CHECK(facts.get("engine.kv_backend") == "nixl");
  CHECK(facts.get("engine.nixl_backends") == "UCX,LIBFABRIC");
  CHECK(facts.get("engine.kv_connector") == "NixlConnector");
  CHECK(facts.get("engine.kv_transfer.kv_role") == "kv_both");
  CHECK(facts.get("engine.kv_transfer.kv_connector_extra_config.backends") ==
        R"(["UCX","LIBFABRIC"])");
  CHECK(facts.get("engine.flag.--model") == "m");
  CHECK(facts.get("engine.flag.--enforce-eager") == "true");
  CHECK(facts.get("engine.flag.--block-size") == "64");
  CHECK(facts.known_absent("engine.flag.--enable-sleep-mode"));
  // A multinode worker pod whose leader was not probed: the backend is unknown, not the default.
  FactMap worker;
  b.unknown = "the leader was not probed";
  rules::known::add_engine(worker, {}, b, std::nullopt);
  CHECK_FALSE(worker.get("engine.kv_backend"));
  CHECK_FALSE(worker.known_absent("engine.flag.--x"));
}

TEST_CASE("known: TRT-LLM's cache_transceiver_config fields") {
  FactMap facts;
  rules::known::add_engine(
      facts, {}, rules::KvBackends{},
      std::string("cache_transceiver_config:\n  backend: UCX\n  max_tokens_in_buffer: 8192\n"));
  CHECK(facts.get("engine.cache_transceiver.backend") == "UCX");
  CHECK(facts.get("engine.cache_transceiver.max_tokens_in_buffer") == "8192");
  CHECK(facts.known_absent("engine.cache_transceiver.other"));
}

TEST_CASE("known: stack versions into facts, nixl wheels that disagree warn, never ok") {
  probe::StackVersions stack;
  stack.read = true;
  stack.add("nixl", "1.3.1", "/a/nixl-1.3.1.dist-info");
  stack.add("nixl-cu12", "1.3.0", "/a/nixl_cu12-1.3.0.dist-info");
  stack.add("nccl.wheel", "2.21.5", "/a/nvidia_nccl_cu12-2.21.5.dist-info");
  FactMap facts;
  rules::known::add_stack(facts, stack);
  CHECK(facts.get("version.nixl") == "1.3.1");
  CHECK(facts.get("version.nixl-cu12") == "1.3.0");
  CHECK(facts.get("version.nccl") == "2.21.5");
  rules::KvBackends b;  // NIXL with UCX, the default
  auto f = rules::known::stack_versions_finding(stack, facts, b);
  REQUIRE(f);
  CHECK(f->status == report::Status::warn);
  CHECK(f->required);
  CHECK(f->detail == "copies disagree: nixl 1.3.1 beside nixl-cu12 1.3.0; version unknown: ucx (no "
                     "known-trouble row can place it)");
  // Agreeing wheels and a known UCX: nothing to say.
  probe::StackVersions agree;
  agree.read = true;
  agree.add("nixl", "1.3.2", "a");
  agree.add("nixl-cu12", "1.3.2", "b");
  FactMap known;
  rules::known::add_stack(known, agree);
  known.set("version.ucx", "1.21.0");
  CHECK_FALSE(rules::known::stack_versions_finding(agree, known, b));
  known = FactMap{};
  rules::known::add_stack(known, agree);
  auto unknown = rules::known::stack_versions_finding(agree, known, b);
  REQUIRE(unknown);
  CHECK_FALSE(unknown->required);
  CHECK(unknown->detail == "version unknown: ucx (no known-trouble row can place it)");
  // An image where the probe named no KV library at all: nothing said here.
  probe::StackVersions bare;
  bare.read = true;
  bare.add("kernel", "6.8.0", "/proc/sys/kernel/osrelease");
  CHECK_FALSE(rules::known::stack_versions_finding(bare, FactMap{}, b));
}

TEST_CASE("known: pair facts carry both pods' facts under their role") {
  FactMap p, d;
  p.set("env.UCX_TLS", "rc");
  p.complete("env.");
  d.set("version.ucx", "1.19.0");
  auto pair = rules::known::pair_facts(p, d, true, false);
  CHECK(pair.get("prefill.env.UCX_TLS") == "rc");
  CHECK(pair.get("decode.version.ucx") == "1.19.0");
  CHECK(pair.known_absent("prefill.env.X"));
  CHECK_FALSE(pair.known_absent("decode.env.X"));
  CHECK(pair.get("pair.same_node") == "true");
  CHECK(pair.get("pair.roce_v2_gid_index_differs") == "false");
}

namespace {

// A capture without its `# source:` first line and the shell lines before the matrix.
std::string topo_fixture(const std::string& name) {
  std::ifstream in(std::string(ICHECK_TEST_DATA) + "/fixtures/nvidia-smi-topo/" + name);
  std::string line, out;
  std::getline(in, line);
  while (std::getline(in, line))
    if (!line.starts_with("$ "))
      out += line + "\n";
  return out;
}

}  // namespace

TEST_CASE("known: nvlink.local from nvidia-smi topo -m, unknown with one GPU or nothing read") {
  auto local = [](const std::string& capture) {
    probe::NodeFacts node;
    if (!capture.empty())
      node.topo = probe::parse_nvidia_smi_topo(topo_fixture(capture));
    FactMap facts;
    rules::known::add_node(facts, node);
    auto v = facts.get("nvlink.local");
    return v ? std::string(*v) : std::string("(unknown)");
  };
  CHECK(local("h100-8gpu-nv18-no-nics.txt") == "true");
  CHECK(local("a100-pcie-2gpu-2nic-old-mlx5-headers-della.txt") == "false");
  CHECK(local("rtx6000ada-4gpu-pcie-4nic-numa2-stelline.txt") == "false");
  CHECK(local("single-gpu-no-nic-tabs.txt") == "(unknown)");
  CHECK(local("") == "(unknown)");
}

TEST_CASE("known: NICs each shared by two or more GPUs, and the NIC-per-GPU row beyond 8 on 2") {
  auto node_with = [](int gpus, int active, int down) {
    probe::NodeFacts node;
    for (int i = 0; i < gpus; ++i)
      node.gpus.push_back({i, "NVIDIA H100 80GB HBM3", "GPU-" + std::to_string(i), {}});
    node.sysfs_infiniband = true;
    for (int i = 0; i < active + down; ++i) {
      probe::IbDevice d;
      d.name = "mlx5_" + std::to_string(i);
      probe::IbPort p;
      p.device = d.name;
      p.port = 1;
      p.state = i < active ? probe::PortState::active : probe::PortState::down;
      p.link_layer = probe::LinkLayer::infiniband;
      d.ports.push_back(p);
      node.sysfs_devices.push_back(d);
    }
    return node;
  };
  auto nic_rows = [&](int gpus, int active, int down) {
    FactMap facts;
    rules::known::add_node(facts, node_with(gpus, active, down));
    facts.set("engine.kv_backend", "nixl");
    facts.complete("env.");
    std::vector<std::string> out;
    for (const auto& hit : knowledge::evaluate(knowledge::trouble_rows(), facts))
      if (hit.row->check == "nic-per-gpu")
        out.push_back(hit.detail);
    return out;
  };
  FactMap facts;
  rules::known::add_node(facts, node_with(8, 2, 6));
  CHECK(facts.get("nic.count") == "2");
  CHECK(facts.get("nic.shared_by_gpus") == "true");
  rules::known::add_node(facts, node_with(8, 7, 1));  // one port in INIT: each NIC all but alone
  CHECK(facts.get("nic.shared_by_gpus") == "false");
  rules::known::add_node(facts, node_with(8, 4, 4));
  CHECK(facts.get("nic.shared_by_gpus") == "true");
  FactMap none;
  rules::known::add_node(none, node_with(8, 0, 2));  // no Active port: unknown, never "true"
  CHECK_FALSE(none.get("nic.shared_by_gpus"));
  CHECK(nic_rows(8, 2, 6) ==
        std::vector<std::string>{"8 GPUs on 2 RDMA ports with UCX_NET_DEVICES unset: UCX can send "
                                 "every GPU's KV through one NIC and leave the others idle (8 GPUs "
                                 "on 2 NICs: half the pod's RDMA bandwidth)"});
  CHECK(nic_rows(4, 2, 0).size() == 1);  // 4 GPUs on 2 NICs: the same trouble
  CHECK(nic_rows(4, 1, 0).empty());      // one NIC: nothing to choose
  CHECK(nic_rows(8, 8, 0).empty());
  CHECK(nic_rows(8, 7, 1).empty());
  CHECK(nic_rows(2, 4, 0).empty());
}

TEST_CASE("known: libnixl copies, UCX thread support and transports into facts, and their rows") {
  probe::StackVersions stack;
  stack.read = true;
  stack.nixl_libs = {"/opt/nvidia/nvda_nixl/lib/x86_64-linux-gnu/libnixl.so",
                     "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/libs/nixl/libnixl.so"};
  stack.nixl_ld_first = stack.nixl_libs[0];
  FactMap facts;
  rules::known::add_stack(facts, stack);
  CHECK(facts.get("nixl.lib_copies") == "2");
  CHECK(facts.get("nixl.trtllm_bundled") == "true");
  CHECK(facts.get("nixl.ld_library_path_first") == stack.nixl_libs[0]);
  auto ids = [](const FactMap& f) {
    std::vector<std::string> out;
    for (const auto& h : knowledge::evaluate(knowledge::trouble_rows(), f))
      out.push_back(h.row->id);
    std::sort(out.begin(), out.end());
    return out;
  };
  CHECK(ids(facts) == std::vector<std::string>{"nixl-trtllm-bundle-shadowed-by-ld-library-path"});
  // LD_LIBRARY_PATH resolving TRT-LLM's own copy, or naming none: no row.
  FactMap own;
  stack.nixl_ld_first = stack.nixl_libs[1];
  rules::known::add_stack(own, stack);
  CHECK(ids(own).empty());
  FactMap none;
  stack.nixl_ld_first.clear();
  rules::known::add_stack(none, stack);
  CHECK_FALSE(none.get("nixl.ld_library_path_first"));
  CHECK(ids(none).empty());
  // The section not read: nothing known.
  FactMap unread;
  rules::known::add_stack(unread, probe::StackVersions{});
  CHECK_FALSE(unread.get("nixl.lib_copies"));

  probe::NodeFacts node;
  node.ucx_version = probe::UcxVersion{};
  node.ucx_version->version = "1.19.0";
  node.ucx_version->enable_mt = false;
  node.ucx_devices = probe::UcxDevices{};
  for (const char* t : {"self", "rc_mlx5", "rc_mlx5", "gga_mlx5", "cuda_copy"}) {
    probe::UcxTransport tr;
    tr.transport = t;
    node.ucx_devices->transports.push_back(tr);
  }
  FactMap ucx;
  rules::known::add_node(ucx, node);
  CHECK(ucx.get("ucx.enable_mt") == "false");
  CHECK(ucx.get("ucx.transports") == "self,rc_mlx5,gga_mlx5,cuda_copy");
  ucx.complete("env.");
  CHECK(ids(ucx) ==
        std::vector<std::string>{"ucx-1-19-gga-left-enabled", "ucx-built-without-enable-mt"});
  ucx.set("env.UCX_TLS", "^gga");
  CHECK(ids(ucx) == std::vector<std::string>{"ucx-built-without-enable-mt"});
  node.ucx_version->enable_mt.reset();  // not read: unknown, no row
  FactMap unknown;
  rules::known::add_node(unknown, node);
  CHECK_FALSE(unknown.get("ucx.enable_mt"));
}
