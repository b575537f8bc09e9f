// A pod without any RDMA device fails once, at fabric; GPUDirect, UCX's RDMA transports and RDMA
// access then say they do not apply instead of failing again, and the verdict stays at fabric.
#include "report/verdict.hpp"
#include "test_node_fixture.hpp"

using namespace icheck;
using namespace icheck::rules::test;
using report::Layer;
using report::Status;

namespace {

// healthy_h100 without its HCAs: no /sys/class/infiniband, no /dev/infiniband, no RDMA tools
// output, no peermem module (nccl #988's empty grep), and a UCX that lists only tcp.
Probe without_rdma() {
  auto p = healthy_h100();
  p.absent("sysfs_ib").absent("dev_infiniband").erase("ibv_devinfo").erase("ibstat");
  p.set("lsmod", fixture("lsmod/grep-peermem-empty-no-module-nccl988.txt"), 1);
  p.set("ucx_info_d", ucx_tcp_only());
  return p;
}

report::Verdict verdict_of(const std::vector<report::Finding>& fs) {
  report::Report r;
  r.mode = "node";
  r.targets.push_back(
      {"decode-0", report::TargetKind::pod, "decode", "", "node-a", "dynamo", "", fs, {}});
  return report::decide(r);
}

}  // namespace

TEST_CASE("no RDMA device: one fabric failure, GPUDirect and UCX transports do not apply") {
  auto fs = judge(without_rdma());
  std::vector<std::string> failed;
  for (const auto& f : fs)
    if (f.status == Status::fail)
      failed.push_back(f.name);
  CHECK(failed == std::vector<std::string>{"hca"});
  CHECK(find(fs, "hca").layer == Layer::fabric);
  for (const char* name : {"peer-memory", "transports"}) {
    const auto& f = find(fs, name);
    CAPTURE(name);
    CHECK(f.status == Status::skipped);
    CHECK_FALSE(f.required);
    CHECK(f.detail == "does not apply: the pod has no RDMA device (fabric hca)");
    CHECK(f.next.empty());
  }
  auto v = verdict_of(fs);
  CHECK(v.status == report::VerdictStatus::blocked);
  REQUIRE(v.layer.has_value());
  CHECK(*v.layer == Layer::fabric);
  CHECK(v.check == "hca");
}

TEST_CASE("with its RDMA devices the same pod's GPUDirect and UCX findings are judged") {
  auto fs = judge(healthy_h100());
  CHECK_FALSE(has(fs, "hca"));  // said only when there is no HCA
  for (const char* name : {"peer-memory", "transports", "memlock"}) {
    const auto& f = find(fs, name);
    CAPTURE(name);
    CHECK(f.status == Status::ok);
    CHECK(f.required);
  }
  // A GPUDirect failure with HCAs present is still a failure, not "does not apply".
  auto p = healthy_h100();
  p.set("lsmod", fixture("lsmod/grep-peermem-empty-no-module-nccl988.txt"), 1);
  p.set("ucx_info_d", ucx_tcp_only());
  auto peer = find(judge(p), "peer-memory");
  CHECK(peer.status == Status::fail);
  CHECK(peer.required);
}
