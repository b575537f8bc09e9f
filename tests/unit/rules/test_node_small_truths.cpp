// Numbers and cells nobody can read are never counted as healthy, and a probe output that ended
// early never says something is absent (issue 21). The real outputs are the fixtures the healthy
// node uses, with one value replaced as named at each case; each shape has its healthy twin.

#include "test_node_fixture.hpp"
#include "util/text.hpp"

using namespace icheck;
using namespace icheck::rules::test;
using report::Layer;
using report::Status;

namespace {

// The healthy sysfs capture with mlx5_6's rate replaced by `rate`.
std::string sysfs_rate(const std::string& rate) {
  auto sysfs = fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt");
  auto at = sysfs.find("==> mlx5_6/ports/1/rate <==\n");
  REQUIRE(at != std::string::npos);
  sysfs.replace(sysfs.find("400 Gb/sec (4X NDR)", at), 19, rate);
  return sysfs;
}

// The real 18-link status with link 3 printed as `rate`.
std::string nvlink_rate(const std::string& rate) {
  auto s = fixture("nvidia-smi-nvlink/h100-gpu0-status-18links-and-capabilities.txt");
  auto at = s.find("Link 3: 26.562 GB/s");
  REQUIRE(at != std::string::npos);
  return s.replace(at, 19, "Link 3: " + rate);
}

}  // namespace

TEST_CASE("leading_rate: only a finite rate above zero") {
  CHECK(text::leading_rate("400 Gb/sec (4X NDR)") == 400.0);
  CHECK(text::leading_rate("26.562 GB/s") == 26.562);
  for (const char* bad : {"nan Gb/sec", "inf Gb/sec", "-0 Gb/sec", "0 Gb/sec", "1e400 Gb/sec",
                          "-5 GB/s", "+5 GB/s", "NaN", ""}) {
    CAPTURE(bad);
    CHECK_FALSE(text::leading_rate(bad));
  }
}

TEST_CASE("node: a sysfs rate of nan, inf, -0 or 1e400 is unreadable, not healthy") {
  for (const char* bad : {"nan Gb/sec (4X NDR)", "inf Gb/sec (4X NDR)", "-0 Gb/sec (4X NDR)",
                          "1e400 Gb/sec (4X NDR)"}) {
    CAPTURE(bad);
    auto p = healthy_h100();
    p.set("sysfs_ib", sysfs_rate(bad));
    auto fs = judge(p);
    auto ports = find(fs, "ports");
    CHECK(ports.status == Status::warn);
    CHECK(contains(ports.detail, "rate unreadable on mlx5_6:1 '" + std::string(bad) + "'"));
    // The adapter-rate check does not count it among the ports at their adapter's speed.
    if (has(fs, "adapter rate"))
      CHECK_FALSE(contains(find(fs, "adapter rate").detail, "9/9"));
  }
  auto healthy = find(judge(healthy_h100()), "ports");
  CHECK(healthy.status == Status::ok);
  CHECK_FALSE(contains(healthy.detail, "unreadable"));
}

TEST_CASE("node: NVLink links at -0 GB/s or nan are not counted as active and healthy") {
  for (const char* bad : {"-0 GB/s", "nan GB/s", "inf GB/s"}) {
    CAPTURE(bad);
    auto p = healthy_h100();
    p.set("nvidia_smi_nvlink", nvlink_rate(bad));
    auto f = find(judge(p), "links");
    CHECK(f.layer == Layer::nvlink);
    CHECK(f.status == Status::warn);
    // A warn, shown as information: NVLink inside one pod is not the KV path between pods.
    CHECK(f.detail.starts_with("NVLink rate unreadable: GPU0 link 3 '" + std::string(bad) +
                               "': not counted as healthy"));
  }
  auto p = healthy_h100();
  p.set("nvidia_smi_nvlink", nvlink_rate("26.562 GB/s"));
  CHECK(find(judge(p), "links").status == Status::ok);
}

TEST_CASE("node: topology cells like NV-1 or NV0 are not NVLink, and never 'no NVLink' either") {
  for (const char* bad : {"NV-1", "NV0", "NVx"}) {
    CAPTURE(bad);
    auto topo = topo_table(8, h100_nics(), 8);
    std::string all = topo;
    for (auto at = all.find("NV18"); at != std::string::npos; at = all.find("NV18", at))
      all.replace(at, 4, bad);
    auto p = healthy_h100();
    p.set("nvidia_smi_topo", all);
    auto f = find(judge(p), "topology");
    CHECK(f.status == Status::warn);
    CHECK(contains(f.detail, "nvidia-smi topo -m cells not understood: GPU0-GPU1 (" +
                                 std::string(bad) + ")"));
  }
  CHECK(find(judge(healthy_h100()), "topology").detail == "NV18 between all 8 GPUs");
}

TEST_CASE("node: an empty or cut probe output does not say /dev/gdrdrv absent") {
  auto p = healthy_h100();
  p.erase("dev_gdrdrv");  // the output ended before the section
  auto f = find(judge(p), "gdrcopy");
  CHECK(f.status == Status::skipped);
  CHECK(f.detail == "/dev/gdrdrv not read: the probe output ended before it");
  CHECK_FALSE(f.required);
  // Read whole and absent: it is absent.
  p.absent("dev_gdrdrv");
  auto absent = find(judge(p), "gdrcopy");
  CHECK(absent.status == Status::warn);
  CHECK(contains(absent.detail, "/dev/gdrdrv absent"));
}

TEST_CASE("node: an empty probe output says what was not read, never that a tool is missing") {
  const auto empty = rules::judge_node(probe::parse_node_probe(""), {});
  for (const auto& f : empty) {
    CAPTURE(f.name);
    CHECK(f.status == Status::skipped);
    CHECK(f.detail.find("not in the image") == std::string::npos);
    CHECK(f.detail.find("absent") == std::string::npos);
  }
  CHECK(find(empty, "transports").detail ==
        "ucx_info -d not read: the probe output ended before it");
  CHECK(find(empty, "topology").detail ==
        "nvidia-smi topo -m not read: the probe output ended before it");
  CHECK(find(empty, "gdrcopy").detail == "/dev/gdrdrv not read: the probe output ended before it");
}

TEST_CASE("node: a probe output cut inside /sys/class/infiniband judges no port state") {
  // synthetic: the sysfs section as the probe prints it (tests/fixtures/sysfs-infiniband), cut
  // in the middle of a state value, no end marker.
  const auto cut = rules::judge_node(
      probe::parse_node_probe("@@icheck:begin sysfs_ib@@\n==> mlx5_0/ports/1/state <==\n4: ACT"),
      {});
  const auto& ports = find(cut, "ports");
  CHECK(ports.status == Status::skipped);
  CHECK(ports.detail ==
        "the probe's output was cut inside /sys/class/infiniband: port states unknown");
  CHECK_FALSE(has(cut, "port mlx5_0:1"));
  CHECK(find(cut, "verbs").detail == "ibv_devinfo not read: the probe output ended before it");
  // The whole capture is judged: its ports are Active.
  CHECK(find(judge(healthy_h100()), "ports").status == Status::ok);
}
