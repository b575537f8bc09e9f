#include "report/render.hpp"
#include "report/status_grid.hpp"
#include "report/verdict.hpp"
#include "sample_report.hpp"

#include <doctest/doctest.h>
#include <string>

using namespace icheck::report;
using icheck::test::finding;
using icheck::test::pod;

namespace {

// n decode pods, healthy at fabric and rdma-access; pod 3's memlock fails, pod 5's ucx is skipped.
Report pods(int n) {
  Report r;
  for (int i = 0; i < n; ++i) {
    const std::string name = "vllm-decode-" + std::to_string(i);
    r.targets.push_back(
        pod(name, "decode", "n" + std::to_string(i),
            {finding("ports", Layer::fabric, Status::ok, "8/8 ports Active"),
             finding("memlock", Layer::rdma_access, i == 3 ? Status::fail : Status::ok,
                     i == 3 ? "64 KiB" : "unlimited")}));
    if (i == 5) {
      r.targets.back().findings.push_back(
          finding("transports", Layer::ucx, Status::skipped, "ucx_info not in the image"));
    }
  }
  return r;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

}  // namespace

TEST_CASE("worst status per layer: fail over warn over skipped over ok, none when absent") {
  auto t =
      pod("p", "decode", "n",
          {finding("a", Layer::ucx, Status::ok, ""), finding("b", Layer::ucx, Status::skipped, ""),
           finding("c", Layer::ucx, Status::warn, ""),
           finding("d", Layer::fabric, Status::skipped, "")});
  CHECK(worst_at(t, Layer::ucx) == Status::warn);
  CHECK(worst_at(t, Layer::fabric) == Status::skipped);
  CHECK_FALSE(worst_at(t, Layer::nixl).has_value());
  t.findings.push_back(finding("e", Layer::ucx, Status::fail, ""));
  CHECK(worst_at(t, Layer::ucx) == Status::fail);
  CHECK_FALSE(all_required_ok(t));
  CHECK(all_required_ok(pod("q", "decode", "n", {finding("a", Layer::ucx, Status::ok, "")})));
  auto optional = finding("gdrcopy", Layer::gpudirect, Status::warn, "");
  optional.required = false;
  CHECK(all_required_ok(pod("r", "decode", "n", {optional})));
  optional.status = Status::fail;  // a fail counts even when optional (verdict.cpp)
  CHECK_FALSE(all_required_ok(pod("r", "decode", "n", {optional})));
}

TEST_CASE("the grid, exact: one row per pod, one column per layer some pod has") {
  const auto grid = status_grid(pods(21), {Format::table, false});
  CHECK(grid.starts_with("21 pods, the worst status of each layer:\n"
                         "POD             ROLE    FABRIC  RDMA-ACCESS  UCX\n"
                         "vllm-decode-0   decode  ok      ok           -\n"));
  CHECK(grid.find("vllm-decode-3   decode  ok      fail         -\n") != std::string::npos);
  CHECK(grid.find("vllm-decode-5   decode  ok      ok           skipped\n") != std::string::npos);
  CHECK(grid.ends_with("vllm-decode-20  decode  ok      ok           -\n\n"));
  CHECK(count(grid, "\n") == 2 + 21 + 1);
}

TEST_CASE("no grid for a single pod, and its table is printed") {
  const auto r = pods(1);
  CHECK(status_grid(r, {Format::table, false}).empty());
  const auto text = render(r, decide(r), {Format::table, false});
  CHECK(count(text, "  LAYER ") == 1);
}

TEST_CASE("two pods alike: no grid, one table headed by how many they are and their names") {
  const auto r = pods(2);
  const auto text = render(r, decide(r), {Format::table, false});
  CHECK(text.starts_with("2 pods alike  2 decode\n"
                         "  pods   vllm-decode-0, vllm-decode-1\n"
                         "  LAYER"));
  CHECK(count(text, "  LAYER ") == 1);
  CHECK(text.find("VERDICT  surface-ok") != std::string::npos);
  CHECK(count(render(r, decide(r), {Format::wide, false}), "  TARGET ") == 2);
}

TEST_CASE("from two kinds of pods up the default view is the grid, a row per kind, the tables of "
          "the kinds not all ok, the verdict") {
  const auto r = pods(4);  // 3 alike, pod 3 fails
  const auto text = render(r, decide(r), {Format::table, false});
  CHECK(text.starts_with("4 pods of 2 kinds, the worst status of each layer:\n"
                         "PODS  ROLE    FABRIC  RDMA-ACCESS\n"
                         "3     decode  ok      ok\n"
                         "1     decode  ok      fail\n\n"
                         "3 pods have every check ok: their tables are left out (-o wide shows "
                         "every table)\n\n"
                         "vllm-decode-3  decode  node n3\n"
                         "  LAYER"));
  CHECK(count(text, "  LAYER ") == 1);
}

TEST_CASE("a pod whose grid row shows an optional skip is not summed up as every check ok") {
  auto r = pods(3);
  auto gdr = finding("gdrcopy", Layer::gpudirect, Status::skipped, "cannot tell");
  gdr.required = false;
  r.targets[1].findings.push_back(gdr);
  CHECK(all_required_ok(r.targets[1]));
  CHECK_FALSE(every_check_ok(r.targets[1]));
  CHECK(every_check_ok(r.targets[0]));
  const auto text = render(r, decide(r), {Format::table, false, false, false, 200});  // one line
  CHECK(text.find("\n2 pods have every check ok and 1 every required check ok but an optional one "
                  "skipped or warn (see the grid): their tables are left out (-o wide shows every "
                  "table)\n") != std::string::npos);
  CHECK(text.find("\n1     decode  ok      ok           skipped\n") != std::string::npos);
}

TEST_CASE("the left-out line counts each kind once") {
  CHECK(left_out_line(0, 0).empty());
  CHECK(left_out_line(2, 0) ==
        "2 pods have every check ok: their tables are left out (-o wide shows every table)\n\n");
  CHECK(left_out_line(0, 1) == "1 pod has every required check ok but an optional one skipped or "
                               "warn (see the grid): their tables are left out (-o wide shows "
                               "every table)\n\n");
}

TEST_CASE("several manifests end with one row per file") {
  Report r;
  r.mode = "env";
  for (const char* name : {"agg/deploy.yaml", "disagg/deploy.yaml"}) {
    Target t;
    t.name = name;
    t.kind = TargetKind::manifest;
    t.findings = {finding("decode UCX_TLS", Layer::env, Status::ok, "")};
    r.targets.push_back(t);
  }
  r.targets[1].findings.push_back(finding("decode memlock", Layer::env, Status::fail, "no"));
  const auto summary = file_summary(r, {Format::table, false});
  CHECK(summary == "2 files, the worst required status of each:\n"
                   "FILE                STATUS  OK  WARN  FAIL  SKIPPED\n"
                   "agg/deploy.yaml     ok      1   0     0     0\n"
                   "disagg/deploy.yaml  fail    1   0     1     0\n\n");
  const auto text = render(r, decide(r), {Format::table, false});
  CHECK(text.find(summary) < text.find("VERDICT"));
  r.targets.pop_back();
  CHECK(file_summary(r, {Format::table, false}).empty());
}

TEST_CASE("under a grid the tables show only pods with something against the verdict, -o wide "
          "keeps them all") {
  const auto r = pods(24);
  const auto v = decide(r);
  const auto text = render(r, v, {Format::table, false});
  CHECK(text.find("PODS  ROLE    FABRIC") < text.find("  LAYER "));
  CHECK(count(text, "  LAYER ") == 2);
  CHECK(text.find("\nvllm-decode-3  decode  node n3\n") != std::string::npos);
  CHECK(text.find("\nvllm-decode-5  decode  node n5\n") != std::string::npos);
  CHECK(text.find("22 pods have every check ok: their tables are left out (-o wide shows "
                  "every table)\n") != std::string::npos);
  CHECK(text.find("VERDICT  blocked  at rdma-access on 1 of 24 decode pods") != std::string::npos);

  const auto wide = render(r, v, {Format::wide, false});
  CHECK(count(wide, "  TARGET ") == 24);
  CHECK(wide.find("POD ") != std::string::npos);
  CHECK(wide.find("left out") == std::string::npos);
}

TEST_CASE("-A puts the namespace first in the grid, --no-headers drops its heading") {
  auto r = pods(21);
  r.targets[0].namespace_ = "staging";
  const auto grid = status_grid(r, {Format::table, false, true, true});
  CHECK(grid.find("NAMESPACE") == std::string::npos);
  CHECK(grid.find("\nstaging  vllm-decode-0") != std::string::npos);
  CHECK(grid.find("\n-        vllm-decode-1 ") != std::string::npos);
}

TEST_CASE("the grid colours each status like the tables do") {
  const auto grid = status_grid(pods(21), {Format::table, true});
  CHECK(grid.find("\x1b[31;1mfail       \x1b[0m") != std::string::npos);  // padded, then coloured
  CHECK(grid.find("\x1b[36mskipped\x1b[0m") != std::string::npos);
}
