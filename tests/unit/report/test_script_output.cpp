// What scripts read: check ids without blanks, one status per target, --no-headers rows that
// stand alone, the namespace in each -A heading.
#include "report/render.hpp"
#include "report/text_table.hpp"
#include "report/verdict.hpp"
#include "sample_report.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

using namespace icheck::report;
using icheck::test::finding;
using icheck::test::pod;

namespace {

Report two_pods() {
  Report r;
  r.mode = "node";
  r.context = "prod-a";
  r.namespace_ = "(all namespaces)";
  auto prefill = pod("llama-prefill-0", "prefill", "gpu-a01",
                     {finding("kv transfer", Layer::nixl, Status::ok, "NIXL with UCX")});
  prefill.namespace_ = "dynamo";
  auto decode = pod("llama-decode-0", "decode", "gpu-a04",
                    {finding("devices", Layer::rdma_access, Status::fail, "not mounted")});
  decode.namespace_ = "team-b";
  r.targets = {prefill, decode};
  return r;
}

}  // namespace

TEST_CASE("a check id has no blanks, and an explicit id wins over the name") {
  auto f = finding("kv transfer", Layer::nixl, Status::ok, "");
  CHECK(check_id(f) == "kv-transfer");
  f.name = "VllmDecodeWorker UCX_TLS";
  f.id = "VllmDecodeWorker/UCX_TLS";
  CHECK(check_id(f) == "VllmDecodeWorker/UCX_TLS");
  f.id = "decode/kv transfer";
  CHECK(check_id(f) == "decode/kv-transfer");
}

TEST_CASE("target status: a fail anywhere, else the worst required status") {
  auto t = pod("p", "decode", "n", {finding("ports", Layer::fabric, Status::ok, "")});
  CHECK(target_status(t) == Status::ok);
  auto gdr = finding("gdrcopy", Layer::gpudirect, Status::warn, "absent");
  gdr.required = false;
  t.findings.push_back(gdr);
  CHECK(target_status(t) == Status::ok);  // an optional warn is shown, not counted
  t.findings.push_back(finding("transports", Layer::ucx, Status::skipped, "no ucx_info"));
  CHECK(target_status(t) == Status::skipped);
  auto optional_fail = finding("tool", Layer::nixl, Status::fail, "");
  optional_fail.required = false;
  t.findings.push_back(optional_fail);
  CHECK(target_status(t) == Status::fail);
  CHECK(target_status(pod("empty", "", "", {})) == Status::skipped);
}

TEST_CASE("json: checks carry id and name, targets a status") {
  const auto r = two_pods();
  const auto doc = boost::json::parse(render(r, decide(r), {Format::json, false}));
  const auto& targets = doc.at("targets").as_array();
  CHECK(targets[0].at("status") == "ok");
  CHECK(targets[1].at("status") == "fail");
  CHECK(targets[0].at("checks").as_array()[0].at("id") == "kv-transfer");
  CHECK(targets[0].at("checks").as_array()[0].at("name") == "kv transfer");
}

TEST_CASE("wide rows name the check by its id, table rows by its name") {
  auto r = two_pods();
  CHECK(render(r, decide(r), {Format::wide, false}).find(" kv-transfer ") != std::string::npos);
  r.targets.pop_back();  // one pod: its table, not a grid
  CHECK(render(r, decide(r), {Format::table, false}).find(" kv transfer ") != std::string::npos);
}

TEST_CASE("--no-headers: only data rows, each starting with its target") {
  const auto r = two_pods();
  CHECK(render(r, decide(r), {Format::table, false, true}) ==
        "llama-prefill-0  nixl         kv-transfer  ok    NIXL with UCX\n"
        "llama-decode-0   rdma-access  devices      fail  not mounted\n");
  CHECK(render(r, decide(r), {Format::table, false, true, true}) ==
        "dynamo  llama-prefill-0  nixl         kv-transfer  ok    NIXL with UCX\n"
        "team-b  llama-decode-0   rdma-access  devices      fail  not mounted\n");
}

TEST_CASE("-A: every pod heading names its namespace") {
  const auto r = two_pods();
  const auto text = render(r, decide(r), {Format::wide, false, false, true});
  CHECK(text.find("llama-prefill-0  prefill  node gpu-a01  namespace dynamo\n") !=
        std::string::npos);
  CHECK(text.find("llama-decode-0  decode  node gpu-a04  namespace team-b\n") != std::string::npos);
  CHECK(render(r, decide(r), {Format::wide, false}).find("namespace dynamo\n") ==
        std::string::npos);
}

TEST_CASE("DETAIL is cut to the terminal's width with an ellipsis, never in -o wide") {
  Report r;
  r.targets.push_back(
      pod("p", "decode", "n",
          {finding("ports", Layer::fabric, Status::warn,
                   "2 of 8 ports Down: mlx5_3 mlx5_7, the decode pod loses rails")}));
  RenderOptions narrow{Format::table, false};
  narrow.width = 50;
  const auto text = render(r, decide(r), narrow);
  CHECK(text.find("  fabric  ports  warn    2 of 8 ports Down…\n") != std::string::npos);
  narrow.format = Format::wide;
  CHECK(render(r, decide(r), narrow).find("the decode pod loses rails") != std::string::npos);
  CHECK(render(r, decide(r), {Format::table, false}).find("loses rails") != std::string::npos);
}

TEST_CASE("text table: the last cell fits the limit, cut mid-word when no word fits") {
  TextTable t("  ");
  t.add_row({{"a", ""}, {"one two three", ""}});
  t.limit_width(12);
  CHECK(t.render(false) == "  a  one…\n");
  TextTable u;
  u.add_row({{"a", ""}, {"abcdefghij", ""}});
  u.limit_width(8);
  CHECK(u.render(false) == "a  abcd…\n");
}
