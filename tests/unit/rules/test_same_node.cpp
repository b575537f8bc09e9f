// Same node is not NVLink: a prefill and a decode pod on one node need RDMA in both pods, else KV
// goes over TCP (rules/pair/same_node.hpp). Facts are built from the real H100 fixtures.
#include "rules/pair/same_node.hpp"
#include "test_node_fixture.hpp"

using namespace icheck;
using report::Status;
using rules::SameNodePod;
using rules::test::contains;
using rules::test::healthy_h100;

namespace {

SameNodePod pod(std::string name, dynamo::Role role, std::string node,
                const probe::NodeFacts& facts) {
  return {std::move(name), role, std::move(node), false, false, &facts};
}

// The H100 pod without its uverbs nodes: HCAs in sysfs, none mounted (no rdma/* resource).
probe::NodeFacts no_rdma() {
  return healthy_h100().set("dev_infiniband", "rdma_cm\n").facts();
}

}  // namespace

TEST_CASE("same node with RDMA Active in both pods: no finding") {
  const auto rdma = healthy_h100().facts();
  const auto f = rules::same_node_findings({pod("p-0", dynamo::Role::prefill, "n1", rdma),
                                            pod("d-0", dynamo::Role::decode, "n1", rdma)});
  REQUIRE(f.size() == 2);
  CHECK(f[0].empty());
  CHECK(f[1].empty());
}

TEST_CASE("same node and a pod without an RDMA device: both pods fail as KV goes over TCP") {
  const auto rdma = healthy_h100().facts();
  const auto none = no_rdma();
  const auto f = rules::same_node_findings({pod("p-0", dynamo::Role::prefill, "n1", rdma),
                                            pod("d-0", dynamo::Role::decode, "n1", none)});
  REQUIRE(f[0].size() == 1);
  REQUIRE(f[1].size() == 1);
  const auto& d = f[1][0];
  CHECK(d.name == "same node");
  CHECK(d.layer == report::Layer::nvlink);
  CHECK(d.status == Status::fail);
  CHECK(contains(d.detail, "shares node n1 with prefill pod p-0"));
  CHECK(contains(d.detail, "cannot use NVLink/CUDA IPC between them"));
  CHECK(contains(d.detail, "no hostIPC/hostPID"));
  CHECK(contains(d.detail, "this pod holds no RDMA device, so KV between them goes over TCP"));
  CHECK(contains(d.detail, "d-0: no /dev/infiniband/uverbs*"));
  CHECK(contains(d.detail, "p-0: 9 Active RDMA ports (mlx5_0, mlx5_1, mlx5_4"));
  CHECK(contains(d.next, "RDMA device"));
  CHECK(f[0][0].status == Status::fail);
  CHECK(contains(f[0][0].detail, "shares node n1 with decode pod d-0"));
  CHECK(contains(f[0][0].detail, "d-0 holds no RDMA device"));
}

TEST_CASE("same node without RDMA: hostIPC and hostPID on both warn (hostIPC alone still fails)") {
  const auto none = no_rdma();
  auto p = pod("p-0", dynamo::Role::prefill, "n1", none);
  auto d = pod("d-0", dynamo::Role::decode, "n1", none);
  p.host_ipc = d.host_ipc = true;
  auto f = rules::same_node_findings({p, d});
  REQUIRE(f[0].size() == 1);
  CHECK(f[0][0].status == Status::fail);
  CHECK(contains(f[0][0].detail, "hostIPC without hostPID"));
  p.host_pid = d.host_pid = true;
  f = rules::same_node_findings({p, d});
  REQUIRE(f[0].size() == 1);
  CHECK(f[0][0].status == Status::warn);
  CHECK(contains(f[0][0].detail, "hostIPC and hostPID share the node's namespaces"));
  CHECK(contains(f[0][0].detail, "not verified"));
}

TEST_CASE("a cross-node pair or two pods of one half or an unscheduled pod: not this finding") {
  const auto none = no_rdma();
  const auto f = rules::same_node_findings(
      {pod("p-0", dynamo::Role::prefill, "n1", none), pod("d-0", dynamo::Role::decode, "n2", none),
       pod("p-1", dynamo::Role::prefill, "n2", none), pod("w-0", dynamo::Role::worker, "n1", none),
       pod("d-1", dynamo::Role::decode, "", none)});
  REQUIRE(f.size() == 5);
  // d-0 and p-1 share n2: that pair is judged; p-0 is alone with an aggregated worker on n1.
  CHECK(f[0].empty());
  CHECK(f[1].size() == 1);
  CHECK(f[2].size() == 1);
  CHECK(f[3].empty());
  CHECK(f[4].empty());
}

TEST_CASE("same node: one finding per pod naming how many more pods of the other half") {
  const auto rdma = healthy_h100().facts();
  const auto none = no_rdma();
  const auto f = rules::same_node_findings({pod("p-0", dynamo::Role::prefill, "n1", none),
                                            pod("d-0", dynamo::Role::decode, "n1", rdma),
                                            pod("d-1", dynamo::Role::decode, "n1", rdma)});
  REQUIRE(f[0].size() == 1);
  CHECK(contains(f[0][0].detail, "1 more such pod on this node"));
  CHECK(f[1].size() == 1);
  CHECK(f[2].size() == 1);
}

TEST_CASE("same node: devices unknown (output cut) is skipped and EFA only warns") {
  auto cut = healthy_h100().erase("dev_infiniband").erase("nvidia_smi_topo");
  auto cut_facts = cut.facts();
  cut_facts.script_complete = false;
  const auto rdma = healthy_h100().facts();
  auto f = rules::same_node_findings({pod("p-0", dynamo::Role::prefill, "n1", cut_facts),
                                      pod("d-0", dynamo::Role::decode, "n1", rdma)});
  REQUIRE(f[1].size() == 1);
  CHECK(f[1][0].status == Status::skipped);
  CHECK(contains(f[1][0].detail, "unknown"));

  probe::NodeFacts efa;
  efa.script_complete = true;
  efa.dev_infiniband_present = true;
  efa.dev_infiniband = {"uverbs0"};
  auto& dev = efa.sysfs_devices.emplace_back();
  dev.name = "efa_0";
  auto& port = dev.ports.emplace_back();
  port.device = "efa_0";
  port.port = 1;
  port.state = probe::PortState::active;
  port.link_layer = probe::LinkLayer::efa;
  f = rules::same_node_findings(
      {pod("p-0", dynamo::Role::prefill, "n1", efa), pod("d-0", dynamo::Role::decode, "n1", efa)});
  REQUIRE(f[0].size() == 1);
  CHECK(f[0][0].status == Status::warn);
  CHECK(contains(f[0][0].detail, "EFA has no loopback"));
}

TEST_CASE("same node: a pod whose HCAs are unknown is not 'usable' on another HCA's Active port") {
  // 4 uverbs nodes of 9 HCAs, no /sys/class/infiniband_verbs: mlx5_0 Down may be the pod's.
  auto probe = healthy_h100();
  auto sysfs = rules::test::fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt");
  const std::string up = "==> mlx5_0/ports/1/state <==\n4: ACTIVE";
  REQUIRE(sysfs.find(up) != std::string::npos);
  sysfs.replace(sysfs.find(up), up.size(), "==> mlx5_0/ports/1/state <==\n1: DOWN");
  probe.set("dev_infiniband", "rdma_cm\nuverbs0\nuverbs1\nuverbs2\nuverbs3\n")
      .absent("uverbs_ibdev");
  const auto rdma = healthy_h100().facts();
  auto unknown = probe.set("sysfs_ib", sysfs).facts();
  auto f = rules::same_node_findings({pod("p-0", dynamo::Role::prefill, "n1", rdma),
                                      pod("d-0", dynamo::Role::decode, "n1", unknown)});
  REQUIRE(f[1].size() == 1);
  CHECK(f[1][0].status == Status::skipped);
  CHECK(contains(f[1][0].detail,
                 "whether KV between them can use RDMA is unknown (d-0: which HCAs are "
                 "the pod's is unknown"));
  // Every port Active: whichever are the pod's, it holds an Active one.
  unknown = probe
                .set("sysfs_ib",
                     rules::test::fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt"))
                .facts();
  f = rules::same_node_findings({pod("p-0", dynamo::Role::prefill, "n1", rdma),
                                 pod("d-0", dynamo::Role::decode, "n1", unknown)});
  CHECK(f[1].empty());
}
