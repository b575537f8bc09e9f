#include <doctest/doctest.h>

#include "fixture.hpp"
#include "probe/parsers.hpp"

using namespace icheck::probe;
using icheck::probe::test::fixture;

TEST_CASE("ucx_info -v: 1.16 source build with CUDA and GDRCopy") {
  auto v = parse_ucx_version(fixture("ucx_info/ucx-1.16-version-source-build.txt"));
  CHECK(v.version == "1.16.0");
  CHECK(v.revision == "e4bb802");
  CHECK(v.with_cuda);
  CHECK(v.with_gdrcopy);
}

TEST_CASE("ucx_info -v and -d | grep Transport: HPC-X 1.17") {
  auto text = fixture("ucx_info/ucx-1.17-hpcx-v-and-transport-grep.txt");
  auto v = parse_ucx_version(text);
  CHECK(v.version == "1.17.0");
  CHECK(v.revision == "39c8f9b");
  auto d = parse_ucx_devices(text);
  CHECK_FALSE(d.old_layout);
  REQUIRE(d.transports.size() >= 30);
  CHECK(d.transports[0].transport == "self");
  CHECK(d.transports[0].device.empty());
  int rc_mlx5 = 0;
  for (const auto& t : d.transports) rc_mlx5 += t.transport == "rc_mlx5";
  CHECK(rc_mlx5 == 4);
}

TEST_CASE("ucx_info -v: MLNX_OFED RPM 1.17") {
  auto v = parse_ucx_version(fixture("ucx_info/ucx-1.17-mlnx-ofed-rpm-v-truncated.txt"));
  CHECK(v.version == "1.17.0");
  CHECK(v.revision == "7bb2722");
  CHECK_FALSE(v.configured_with.empty());
}

TEST_CASE("ucx_info -v without '# ' prefix") {
  auto v = parse_ucx_version("Library version: 1.20.0\nGit branch '', revision abc1234\n");
  CHECK(v.version == "1.20.0");
  CHECK(v.revision == "abc1234");
}

TEST_CASE("ucx_info -d: cuda_cpy memory types with dmabuf, cuda_ipc") {
  auto d = parse_ucx_devices(fixture("ucx_info/ucx-d-excerpt-cuda-cpy-dmabuf-cuda-ipc-vllm26382.txt"));
  REQUIRE(d.transports.size() >= 2);
  CHECK(d.transports[0].transport == "cuda_copy");
  CHECK(d.transports[0].device == "cuda");
  CHECK(d.transports[0].type == "accelerator");
  const UcxMemoryDomain* ipc = nullptr;
  for (const auto& m : d.memory_domains)
    if (m.name == "cuda_ipc") ipc = &m;
  REQUIRE(ipc != nullptr);
  CHECK(ipc->component == "cuda_ipc");
  CHECK(ipc->memory_types == std::vector<std::string>{"cuda"});
  CHECK(d.transports[1].transport == "cuda_ipc");
  CHECK(d.transports[1].type == "intra-node");
  CHECK(d.transports[1].memory_domain == "cuda_ipc");
}

TEST_CASE("ucx_info -d: new layout with IB md, cuda memory type, dmabuf, no devices") {
  auto d = parse_ucx_devices(
      "# Memory domain: mlx5_0\n"
      "#     Component: ib\n"
      "#             register: unlimited, dmabuf, cost: 16000 + 0.060 * N nsec\n"
      "#         memory types: host (access,reg,cache), cuda (reg)\n"
      "#\n"
      "#      Transport: rc_mlx5\n"
      "#         Device: mlx5_0:1\n"
      "#           Type: network\n"
      "#  System device: mlx5_0 (1)\n"
      "#\n"
      "# Memory domain: mlx5_1\n"
      "#     Component: ib\n"
      "#         memory types: host (access,reg,cache)\n"
      "#   < no supported devices found >\n"
      "#\n"
      "# Connection manager: rdmacm\n");
  REQUIRE(d.memory_domains.size() == 2);
  CHECK(d.memory_domains[0].dmabuf);
  CHECK(d.memory_domains[0].memory_types == std::vector<std::string>{"host", "cuda"});
  CHECK(d.memory_domains[1].no_devices);
  CHECK_FALSE(d.memory_domains[0].no_devices);
  REQUIRE(d.transports.size() == 1);
  CHECK(d.transports[0].device == "mlx5_0:1");
  CHECK(d.transports[0].type == "network");
  CHECK(d.transports[0].memory_domain == "mlx5_0");
  CHECK(d.connection_managers == std::vector<std::string>{"rdmacm"});
}

TEST_CASE("ucx_info -d: old layout (mm/posix, 3-space Transport)") {
  auto d = parse_ucx_devices(fixture("ucx_info/ucx-old-format-d-mm-posix-ucx3956.txt"));
  CHECK(d.old_layout);
  REQUIRE(d.transports.size() >= 2);
  CHECK(d.transports[0].transport == "mm");
  CHECK(d.transports[0].device == "posix");
  CHECK(d.transports[0].type.empty());
  CHECK(d.transports[1].device == "sysv");
  CHECK(d.memory_domains[0].name == "posix");
  CHECK(d.memory_domains[0].component == "posix");
}

TEST_CASE("ucx_info -d: older layout, one tcp Transport with several Devices, ib/mlx5_0 md") {
  auto d = parse_ucx_devices(fixture("ucx_info/ucx-older-format-d-tcp-devices-ucx4388.txt"));
  CHECK(d.old_layout);
  REQUIRE(d.transports.size() >= 3);
  CHECK(d.transports[0].transport == "tcp");
  CHECK(d.transports[0].device == "virbr0");
  CHECK(d.transports[1].transport == "tcp");
  CHECK(d.transports[1].device == "ib0");
  CHECK(d.transports[2].device == "enp7s0f0");
  bool ib_md = false;
  for (const auto& m : d.memory_domains) ib_md = ib_md || (m.name == "ib/mlx5_0" && m.component == "ib");
  CHECK(ib_md);
}

TEST_CASE("ucx_info -d: a line cut right after 'failed to open memory domain' (fuzz_probe crash)") {
  // fuzz_probe found it: the words with nothing after them threw std::out_of_range.
  auto d = parse_ucx_devices(
      "# < failed to open memory domain\n# < failed to open memory domain ib_0 >\n");
  REQUIRE(d.memory_domains.size() == 2);
  CHECK(d.memory_domains[0].name.empty());
  CHECK(d.memory_domains[0].failed_to_open);
  CHECK(d.memory_domains[1].name == "ib_0");
}

TEST_CASE(
    "ucx_info: Debian 12's UCX 1.13.1 on a machine without RDMA: no CUDA, tcp and shared memory") {
  auto v = parse_ucx_version(fixture("ucx_info/debian-1.13-v.txt"));
  CHECK(v.version == "1.13.1");
  CHECK_FALSE(v.with_cuda);
  CHECK(v.configured_with.find("--with-verbs") != std::string::npos);
  auto d = parse_ucx_devices(fixture("ucx_info/debian-1.13-d-no-rdma-vm.txt"));
  std::vector<std::string> tls;
  for (const auto& t : d.transports)
    tls.push_back(t.transport + "/" + t.device);
  CHECK(tls == std::vector<std::string>{"self/memory0", "tcp/eth0", "tcp/lo", "sysv/memory",
                                        "posix/memory", "cma/memory"});
  CHECK(d.connection_managers == std::vector<std::string>{"tcp"});
  for (const auto& m : d.memory_domains)
    CHECK(m.component != "ib");
}

TEST_CASE("ucx_info -v: thread support from the configure line, else HPC-X's library path") {
  // Real captures: a source build and HPC-X's default tree without --enable-mt (ai-dynamo/nixl
  // #96: NIXL's UCX backend then fails), the MLNX_OFED RPM and Debian's package with it.
  auto source = parse_ucx_version(fixture("ucx_info/ucx-1.16-version-source-build.txt"));
  CHECK(source.enable_mt == false);
  auto hpcx = parse_ucx_version(fixture("ucx_info/ucx-1.17-hpcx-v-and-transport-grep.txt"));
  CHECK(hpcx.enable_mt == false);
  CHECK(hpcx.library_path.ends_with("/hpcx-2.20/ucx/lib/libucs.so.0"));
  auto rpm = parse_ucx_version(fixture("ucx_info/ucx-1.17-mlnx-ofed-rpm-v-truncated.txt"));
  CHECK(rpm.enable_mt == true);
  auto debian = parse_ucx_version(fixture("ucx_info/debian-1.13-v.txt"));
  CHECK(debian.enable_mt == true);
  // No configure line: HPC-X's two trees say it; any other path leaves it unknown.
  CHECK(parse_ucx_version(
            "# Library version: 1.17.0\n# Library path: /opt/hpcx/ucx/mt/lib/libucs.so.0\n")
            .enable_mt == true);
  CHECK(parse_ucx_version(
            "# Library version: 1.17.0\n# Library path: /opt/hpcx/ucx/lib/libucs.so.0\n")
            .enable_mt == false);
  CHECK_FALSE(
      parse_ucx_version("# Library version: 1.17.0\n# Library path: /usr/lib64/libucs.so.0\n")
          .enable_mt.has_value());
  CHECK(parse_ucx_version("# Configured with: --prefix=/x --enable-mt --disable-mt\n").enable_mt ==
        false);
}
