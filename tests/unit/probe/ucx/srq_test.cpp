// ibv_devinfo -v's max_srq per device (probe/ucx/srq_facts.hpp), from the real -vv capture and a
// synthetic Ionic NIC in its layout, and the fragment that reads it run for real.
#include "../fixture.hpp"
#include "probe/node_probe.hpp"
#include "probe/node_script.hpp"
#include "probe/ucx/srq_facts.hpp"
#include "probe/ucx/ucx_caps_script.hpp"
#include "run_shell.hpp"

#include <cstdio>
#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace icheck::probe;
using icheck::probe::test::fixture;

TEST_CASE("ibv_caps: the real -vv capture of two ConnectX-6 gives each device's max_srq") {
  auto f = parse_ibv_caps(fixture("ibv_devinfo/cx6-hdr-vv-port-active-and-port-down-ucx9908.txt") +
                          "rc=0\n");
  CHECK(f.read);
  REQUIRE(f.devices.size() == 2);
  CHECK(f.devices[0].device == "mlx5_0");
  CHECK(f.devices[0].max_srq == 8388608);
  CHECK(f.find("mlx5_1")->max_srq == 8388608);
  CHECK(f.find("mlx5_2") == nullptr);
}

TEST_CASE("ibv_caps: an Ionic NIC with max_srq 0 (synthetic, sglang #30099), a failed or cut run") {
  auto f =
      parse_ibv_caps(fixture("ibv_devinfo/synthetic-ionic-max-srq-0-sglang30099.txt") + "rc=0\n");
  CHECK(f.read);
  REQUIRE(f.devices.size() == 1);
  CHECK(f.devices[0].device == "ionic_0");
  CHECK(f.devices[0].max_srq == 0);  // max_srq_wr and max_srq_sge are other keys
  // ibv_devinfo failed, or the section ended before its exit status: nothing is vouched for.
  CHECK_FALSE(parse_ibv_caps("hca_id:\tionic_0\n\tmax_srq:\t\t\t0\nrc=255\n").read);
  CHECK_FALSE(parse_ibv_caps("hca_id:\tionic_0\n\tmax_srq:\t\t\t0\n").read);
  CHECK_FALSE(parse_ibv_caps("No IB devices found\nrc=0\n").read);
}

TEST_CASE("ibv_caps fragment: a fake ibv_devinfo -v printing the synthetic capture, under dash and "
          "busybox") {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("icheck_ibv_caps_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto capture = dir / "capture.txt";
  std::ofstream(capture) << fixture("ibv_devinfo/synthetic-ionic-max-srq-0-sglang30099.txt");
  std::ofstream(dir / "ibv_devinfo")
      << "#!/bin/sh\n[ \"$1\" = -v ] || exit 2\ncat " << capture.string() << "\n";
  fs::permissions(dir / "ibv_devinfo", fs::perms::owner_all);
  const std::string script = "PATH=" + dir.string() + ":$PATH\n" + std::string(node_probe_script());
  for (const std::string& shell : icheck::test::installed_shells()) {
    CAPTURE(shell);
    auto facts = parse_node_probe(icheck::test::run_shell(shell, script));
    REQUIRE(facts.tool("ibv_caps") != nullptr);
    CHECK(facts.tool("ibv_caps")->output.find("GID") ==
          std::string::npos);  // only two kinds of lines
    CHECK(facts.srq.read);
    REQUIRE(facts.srq.devices.size() == 1);
    CHECK(facts.srq.devices[0].max_srq == 0);
  }
  fs::remove_all(dir);
  CHECK_FALSE(icheck::test::installed_shells().empty());
}
