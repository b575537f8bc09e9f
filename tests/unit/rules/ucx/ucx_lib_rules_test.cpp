// A pod whose only UCX is the NIXL wheel's (no ucx_info): its transports, memory types and
// version come from the library through python3 ctypes and are judged by the same rules, each
// finding saying where they came from; without python3 or a loadable copy it stays skipped.
// The ucx_lib bodies follow what the script prints (tests/fixtures/ucx_lib/ holds real runs);
// the devices part is ucx_info -d's format (test_node_fixture.hpp's ucx_ib).
#include "../test_node_fixture.hpp"
#include "report/verdict.hpp"

#include <doctest/doctest.h>

using namespace icheck;
using namespace icheck::rules::test;
using report::Layer;
using report::Status;

namespace {

constexpr const char* kWheel = "/opt/dynamo/venv/lib/python3.12/site-packages/nixl_cu13.libs";

std::string lib_section(const std::string& devices, const std::vector<std::string>& modules) {
  std::string t = "source maps 57 python3\nlibucp " + std::string(kWheel) +
                  "/libucp-e76cb9e6.so.0.0.0\n==> version <==\n# Library version: 1.19.0\n"
                  "==> devices <==\n" +
                  devices + "==> modules <==\ndir " + kWheel + "/ucx\n";
  for (const auto& m : modules)
    t += "loaded " + m + "\n";
  return t + "==> end <==\n";
}

Probe wheel_only(const std::string& lib_body, int rc = 0) {
  auto p = healthy_h100();
  p.absent("ucx_info_v").absent("ucx_info_d").set("ucx_lib", lib_body, rc);
  return p;
}

const std::vector<std::string> kModules{"libuct_cma.so.0.0.0", "libuct_cuda.so.0.0.0",
                                        "libuct_ib.so.0.0.0", "libuct_rdmacm.so.0.0.0"};

report::Verdict verdict_of(const std::vector<report::Finding>& fs) {
  report::Report r;
  r.mode = "node";
  report::Target t;
  t.name = "vllm-prefill-0";
  t.role = "prefill";
  t.findings = fs;
  r.targets.push_back(t);
  return report::decide(r);
}

}  // namespace

TEST_CASE("ucx lib: a healthy pod with only the NIXL wheel's UCX is surface-ok, from the library") {
  auto fs = judge(wheel_only(
      lib_section(ucx_ib({"mlx5_0", "mlx5_1"}, "host (access,reg), cuda (reg)"), kModules)));
  for (const auto& f : fs)
    if (f.required)
      CHECK_MESSAGE(f.status == Status::ok, f.name << ": " << f.detail);
  CHECK(find(fs, "transports").detail ==
        "rc_mlx5, dc_mlx5 on 2 devices (mlx5_0:1, mlx5_1:1) (from libucp via python3 ctypes: " +
            std::string(kWheel) + "/libucp-e76cb9e6.so.0.0.0, mapped by pid 57 python3)");
  CHECK(find(fs, "version").detail == "UCX 1.19.0 (libucp via python3 ctypes)");
  CHECK(find(fs, "ucx gpudirect").detail ==
        "UCX registers cuda memory on mlx5_0: GPUDirect RDMA confirmed");
  CHECK(verdict_of(fs).status == report::VerdictStatus::surface_ok);
  auto facts = wheel_only(lib_section(ucx_ib({"mlx5_0"}, "host (access,reg)"), kModules)).facts();
  const auto ucx = rules::node_facts_json(facts).at("ucx");
  CHECK(ucx.at("source").as_string().starts_with("libucp via"));
  CHECK(ucx.at("modules").at("dir").as_string() == std::string(kWheel) + "/ucx");
  CHECK(ucx.at("modules").at("loaded").as_array().size() == 4);
  CHECK(rules::node_facts_json(healthy_h100().facts()).at("ucx").at("modules").is_null());
}

TEST_CASE("ucx lib: the library lists no RC or DC: transports fail, said from the library") {
  auto fs = judge(wheel_only(lib_section(ucx_tcp_only(), kModules)));
  const auto& t = find(fs, "transports");
  CHECK(t.status == Status::fail);
  CHECK(contains(t.detail,
                 "UCX would fall back to TCP: libucp lists posix, cuda_copy, tcp, no rc/dc"));
  CHECK(contains(t.detail, "(from libucp via python3 ctypes: "));
  CHECK(verdict_of(fs).status == report::VerdictStatus::blocked);
}

TEST_CASE("ucx lib: a wheel UCX without its cuda module warns at version and gpudirect") {
  // Without the module UCX has no cuda_copy domain either: host memory only, on every domain.
  const std::string no_cuda =
      ucx_md("posix", "posix", "host (access,alloc)", {{"posix", "memory"}}) +
      ucx_md("mlx5_0", "ib", "host (access,reg)",
             {{"rc_mlx5", "mlx5_0:1"}, {"dc_mlx5", "mlx5_0:1"}});
  auto fs = judge(wheel_only(lib_section(no_cuda, {"libuct_ib.so.0.0.0", "libuct_cma.so.0.0.0"})));
  CHECK(find(fs, "version").status == Status::warn);
  CHECK(find(fs, "version").detail ==
        "UCX 1.19.0 has no cuda module in " + std::string(kWheel) +
            "/ucx (libuct_cuda): no cuda_copy/cuda_ipc, no GPUDirect");
  CHECK(find(fs, "ucx gpudirect").status == Status::warn);
  CHECK(contains(find(fs, "ucx gpudirect").detail, "the UCX NIXL loads has no CUDA support"));
}

TEST_CASE("ucx lib: no python3, no copy that loads, a run that died: skipped with why, never ok") {
  auto p = healthy_h100();
  p.absent("ucx_info_v").absent("ucx_info_d").absent("ucx_lib");
  auto t = find(judge(p), "transports");
  CHECK(t.status == Status::skipped);
  CHECK(contains(t.detail, "and no python3 to ask its UCX library: cannot see the transports"));

  t = find(judge(wheel_only("error: no UCX copy loads: /x/libucp.so.0: cannot open\n", 1)),
           "transports");
  CHECK(t.status == Status::skipped);
  CHECK(contains(t.detail, "; asking its UCX library through python3 failed: no UCX copy loads"));

  auto cut = lib_section(ucx_ib({"mlx5_0"}, "host (access,reg)"), kModules);
  cut = cut.substr(0, cut.find("==> modules"));
  auto fs = judge(wheel_only(cut, 139));
  CHECK(find(fs, "transports").status == Status::skipped);
  CHECK_FALSE(has(fs, "version"));
  CHECK(verdict_of(fs).status == report::VerdictStatus::unconfirmed);

  t = find(judge(wheel_only("skipped: python3 has no ctypes (x)\n")), "transports");
  CHECK(contains(t.detail, "its UCX library could not be asked: python3 has no ctypes (x)"));
}
