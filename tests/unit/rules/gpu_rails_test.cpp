// nvlink "gpu rails": each GPU's nearest NIC (nvidia-smi topo -m) against the NICs UCX uses
// (rules/nvlink/gpu_rails.hpp), on real topologies and the H100 baseline.
#include "probe/parsers.hpp"
#include "rules/nvlink/gpu_rails.hpp"
#include "test_node_fixture.hpp"

using namespace icheck;
using namespace icheck::rules::test;
using report::Layer;
using report::Status;

TEST_CASE(
    "nearest NICs: a DGX A100 (PXB pairs, ties kept) and a two-socket A100 PCIe host (NODE)") {
  auto dgx =
      probe::parse_nvidia_smi_topo(fixture("nvidia-smi-topo/dgx-a100-8gpu-nv12-10nic-numa8.txt"));
  std::set<std::string> nics;
  for (int n = 0; n < 10; ++n)
    nics.insert("mlx5_" + std::to_string(n));
  auto near = rules::node::nearest_nics(dgx, nics);
  CHECK(near.size() == 8);
  CHECK(near["GPU0"] == std::vector<std::string>{"mlx5_0", "mlx5_1"});
  CHECK(near["GPU7"] == std::vector<std::string>{"mlx5_6", "mlx5_7"});
  // Only the NICs asked about: without mlx5_0/1, GPU0's nearest is every SYS one.
  nics.erase("mlx5_0");
  nics.erase("mlx5_1");
  CHECK(rules::node::nearest_nics(dgx, nics)["GPU0"].size() == 8);
  auto della = probe::parse_nvidia_smi_topo(
      fixture_from("nvidia-smi-topo/a100-pcie-2gpu-2nic-old-mlx5-headers-della.txt", "\tGPU0"));
  auto two = rules::node::nearest_nics(della, {"mlx5_0", "mlx5_1"});
  CHECK(two["GPU0"] == std::vector<std::string>{"mlx5_0"});
  CHECK(two["GPU1"] == std::vector<std::string>{"mlx5_1"});
}

TEST_CASE(
    "gpu rails: UCX_NET_DEVICES naming one NIC of eight warns, naming each GPU and the NIC it "
    "should use (openucx/ucx #11259)") {
  auto fs = judge(healthy_h100().set("transport_env", "UCX_NET_DEVICES=mlx5_0:1\n"));
  const auto& f = find(fs, "gpu rails");
  CHECK(f.layer == Layer::nvlink);
  CHECK(f.status == Status::warn);
  CHECK(
      contains(f.detail, "UCX_NET_DEVICES=mlx5_0:1: 7 of 8 GPUs' nearest NIC is not one UCX uses"));
  CHECK(contains(f.detail, "GPU1→mlx5_1 (PIX), GPU2→mlx5_4 (PIX)"));
  CHECK(contains(f.detail, "every GPU's traffic through mlx5_0 while mlx5_1, mlx5_4"));
  CHECK(contains(f.next, "UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_4:1"));
  CHECK_FALSE(contains(f.next, "mlx5_bond_0"));
}

TEST_CASE("gpu rails: every GPU's nearest NIC in use, UCX_NET_DEVICES unset, or no NIC columns: no "
          "finding") {
  CHECK_FALSE(has(judge(healthy_h100()), "gpu rails"));
  CHECK_FALSE(
      has(judge(healthy_h100().set("transport_env", "UCX_TLS=rc,cuda_copy\n")), "gpu rails"));
  auto no_nics = healthy_h100()
                     .set("transport_env", "UCX_NET_DEVICES=mlx5_0:1\n")
                     .set("nvidia_smi_topo", fixture("nvidia-smi-topo/h100-8gpu-nv18-no-nics.txt"));
  CHECK_FALSE(has(judge(no_nics), "gpu rails"));
}

TEST_CASE("gpu rails: the nearest NICs per GPU are in -o json") {
  auto j = rules::node_facts_json(healthy_h100().facts());
  const auto& near = j.at("nearestNics").as_object();
  CHECK(near.at("GPU0").as_array().at(0).as_string() == "mlx5_0");
  CHECK(near.at("GPU2").as_array().at(0).as_string() == "mlx5_4");
}
