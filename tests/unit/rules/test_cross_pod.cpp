#include "rules/pair/cross_pod.hpp"

#include <doctest/doctest.h>

using namespace icheck;

TEST_CASE("cross-pod: versions across the deployment, env within a role") {
  probe::NodeFacts a, b, c;
  a.ucx_version.emplace().version = "1.19.0";
  b.ucx_version.emplace().version = "1.18.1";
  a.transport_env = {{"UCX_TLS", "rc_x"}, {"NCCL_IB_HCA", "mlx5"}};
  b.transport_env = {{"UCX_TLS", "rc_x"}};
  c.transport_env = {{"UCX_TLS", "tcp"}};
  probe::NixlFacts n;
  const std::vector<rules::PodFacts> pods{{"p-0", dynamo::Role::prefill, &a, &n, ""},
                                          {"p-1", dynamo::Role::prefill, &b, &n, ""},
                                          {"d-0", dynamo::Role::decode, &c, &n, ""}};
  const auto f = rules::cross_pod_findings(pods);
  REQUIRE(f.size() == 3);
  CHECK(f[0].empty());
  REQUIRE(f[1].size() == 2);
  CHECK(f[1][0].name == "transport env");
  CHECK(f[1][0].status == report::Status::warn);
  CHECK(f[1][0].detail == "NCCL_IB_HCA differ from p-0");
  CHECK(f[1][1].name == "ucx version");
  CHECK(f[1][1].detail == "differs from p-0: 1.18.1 here, 1.19.0 there");
  CHECK(f[2].empty());  // the only decode pod: nothing to compare its env with; no UCX version
}

TEST_CASE("cross-pod: KV transfer paths differing across the deployment warn") {
  probe::NodeFacts a;
  probe::NixlFacts n;
  const std::vector<rules::PodFacts> pods{
      {"p-0", dynamo::Role::prefill, &a, &n, "NIXL with LIBFABRIC"},
      {"d-0", dynamo::Role::decode, &a, &n, "NIXL with UCX"},
      {"d-1", dynamo::Role::decode, &a, &n, "NIXL with LIBFABRIC"}};
  const auto f = rules::cross_pod_findings(pods);
  CHECK(f[0].empty());
  REQUIRE(f[1].size() == 1);
  CHECK(f[1][0].name == "kv transfer");
  CHECK(f[1][0].layer == report::Layer::nixl);
  CHECK(f[1][0].detail == "differs from p-0: NIXL with UCX here, NIXL with LIBFABRIC there");
  CHECK(f[2].empty());
}

TEST_CASE("cross-pod: Active ports differing within a role warn, down ports do not count") {
  auto port = [](const std::string& dev, double rate, probe::PortState state) {
    probe::IbPort p;
    p.device = dev;
    p.port = 1;
    p.state = state;
    p.phys_state = probe::PhysState::linkup;
    p.rate_gbps = rate;
    return p;
  };
  auto device = [](const std::string& name, probe::IbPort p) {
    probe::IbDevice d;
    d.name = name;
    d.ports = {std::move(p)};
    return d;
  };
  probe::NodeFacts a, b, c;
  a.sysfs_devices = {device("mlx5_0", port("mlx5_0", 400, probe::PortState::active)),
                     device("mlx5_1", port("mlx5_1", 400, probe::PortState::down))};
  b.sysfs_devices = {device("mlx5_0", port("mlx5_0", 400, probe::PortState::active))};
  c.sysfs_devices = {device("mlx5_0", port("mlx5_0", 2.5, probe::PortState::active))};
  probe::NixlFacts n;
  const auto f = rules::cross_pod_findings({{"d-0", dynamo::Role::decode, &a, &n, ""},
                                            {"d-1", dynamo::Role::decode, &b, &n, ""},
                                            {"d-2", dynamo::Role::decode, &c, &n, ""}});
  CHECK(f[1].empty());  // the same Active ports as d-0: mlx5_1 is down there
  REQUIRE(f[2].size() == 1);
  CHECK(f[2][0].name == "active ports");
  CHECK(f[2][0].layer == report::Layer::fabric);
  CHECK(f[2][0].detail == "differs from d-0: mlx5_0:1 2.5 Gb/s here, mlx5_0:1 400 Gb/s there");
}
