#include "report/render.hpp"
#include "report/text_table.hpp"
#include "report/verdict.hpp"
#include "sample_report.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

using namespace icheck::report;
using icheck::test::finding;
using icheck::test::pod;

namespace {

Report sample() {
  Report r;
  r.mode = "node";
  r.context = "prod-a";
  r.namespace_ = "dynamo";
  r.header = {"deployment llama", "2 worker pods"};
  r.targets.push_back(pod("llama-prefill-0", "prefill", "gpu-a01",
                          {finding("ports", Layer::fabric, Status::ok, "8/8 ports Active"),
                           finding("memlock", Layer::rdma_access, Status::ok, "CAP_IPC_LOCK")}));
  r.targets.push_back(pod("llama-decode-0", "decode", "gpu-a04",
                          {finding("devices", Layer::rdma_access, Status::fail,
                                   "/dev/infiniband not mounted", "request rdma/ib")}));
  r.limitations.push_back("no transfer was exercised");
  return r;
}

}  // namespace

TEST_CASE("text table aligns columns by code points and leaves the last one ragged") {
  TextTable t("  ");
  t.add_row({{"A", ""}, {"BB", ""}, {"x", ""}});
  t.add_row({{"ééé", ""}, {"C", ""}, {"long tail", ""}});
  CHECK(t.render(false) == "  A    BB  x\n  ééé  C   long tail\n");
}

TEST_CASE("colour wraps the padded cell and only when allowed") {
  TextTable t;
  t.add_row({{"ok", "32"}, {"x", ""}});
  CHECK(t.render(true) == "\x1b[32mok\x1b[0m  x\n");
  CHECK(t.render(false) == "ok  x\n");
}

// The failing pod's table and the verdict: the end of the table output with one pod or two.
constexpr const char* kDecodeTableAndVerdict =
    "llama-decode-0  decode  node gpu-a04\n"
    "  LAYER        CHECK    STATUS  DETAIL\n"
    "  rdma-access  devices  fail    /dev/infiniband not mounted\n"
    "\n"
    "VERDICT  blocked  at rdma-access on the only decode pod (devices: /dev/infiniband "
    "not mounted)\n"
    "  pods   llama-decode-0\n"
    "  next   request rdma/ib\n"
    "  limit  no transfer was exercised\n";

TEST_CASE("table output, exact") {
  const auto r = sample();
  const auto text = render(r, decide(r), {Format::table, false});
  CHECK(text == "context prod-a · namespace dynamo · deployment llama · 2 worker pods\n"
                "\n"
                "2 pods, the worst status of each layer:\n"
                "POD              ROLE     FABRIC  RDMA-ACCESS\n"
                "llama-prefill-0  prefill  ok      ok\n"
                "llama-decode-0   decode   -       fail\n"
                "\n"
                "1 pod has every check ok: their tables are left out (-o wide shows "
                "every table)\n"
                "\n" +
                    std::string(kDecodeTableAndVerdict));
}

TEST_CASE("one pod: its table, exact") {
  auto r = sample();
  r.targets.erase(r.targets.begin());
  const auto text = render(r, decide(r), {Format::table, false});
  CHECK(text == "context prod-a · namespace dynamo · deployment llama · 2 worker pods\n"
                "\n" +
                    std::string(kDecodeTableAndVerdict));
}

TEST_CASE("wide output adds the next column") {
  const auto r = sample();
  const auto text = render(r, decide(r), {Format::wide, false});
  CHECK(text.find("  LAYER        CHECK    STATUS  DETAIL                       NEXT\n") !=
        std::string::npos);
  CHECK(text.find("  rdma-access  devices  fail    /dev/infiniband not mounted  request rdma/ib\n") !=
        std::string::npos);
}

TEST_CASE("json has the versioned shape") {
  const auto r = sample();
  const auto doc = boost::json::parse(render(r, decide(r), {Format::json, false}));
  CHECK(doc.at("apiVersion") == "dynamo-icheck/v1");
  CHECK(doc.at("kind") == "Report");
  CHECK(doc.at("mode") == "node");
  CHECK(doc.at("context") == "prod-a");
  CHECK(doc.at("namespace") == "dynamo");
  const auto& targets = doc.at("targets").as_array();
  REQUIRE(targets.size() == 2);
  CHECK(targets[1].at("name") == "llama-decode-0");
  CHECK(targets[1].at("kind") == "pod");
  CHECK(targets[1].at("role") == "decode");
  const auto& check = targets[1].at("checks").as_array()[0];
  CHECK(check.at("layer") == "rdma-access");
  CHECK(check.at("status") == "fail");
  CHECK(check.at("next") == "request rdma/ib");
  CHECK(targets[0].at("checks").as_array()[0].as_object().contains("next") == false);
  CHECK(doc.at("verdict").at("status") == "blocked");
  CHECK(doc.at("verdict").at("layer") == "rdma-access");
  CHECK(doc.at("verdict").at("limitations").as_array().size() == 1);
  CHECK(doc.at("counts").at("ok") == 2);
  CHECK(doc.at("counts").at("fail") == 1);
}

TEST_CASE("yaml carries the same document, strings that look like other types quoted") {
  auto r = sample();
  r.targets[0].facts["memlock"] = "8192";
  r.targets[0].facts["peermem"] = "yes";
  r.targets[0].facts["empty"] = "";
  r.targets[0].facts["rate"] = 400;
  const auto v = decide(r);
  const auto yaml = YAML::Load(render(r, v, {Format::yaml, false}));
  CHECK(yaml["apiVersion"].as<std::string>() == "dynamo-icheck/v1");
  CHECK(yaml["targets"][1]["checks"][0]["status"].as<std::string>() == "fail");
  CHECK(yaml["targets"][0]["facts"]["memlock"].Tag() == "!");
  CHECK(yaml["targets"][0]["facts"]["peermem"].as<std::string>() == "yes");
  CHECK(yaml["targets"][0]["facts"]["peermem"].Tag() == "!");
  CHECK(yaml["targets"][0]["facts"]["empty"].as<std::string>() == "");
  CHECK(yaml["targets"][0]["facts"]["rate"].as<int>() == 400);
  CHECK(yaml["targets"][0]["facts"]["rate"].Tag() == "?");
  CHECK(yaml["verdict"]["status"].as<std::string>() == "blocked");
}

TEST_CASE("a multinode worker's leader or worker pod is named in the table and in json") {
  auto r = sample();
  r.targets[1].multinode = "leader";
  const auto table = render(r, decide(r), {Format::table, false});
  CHECK(table.find("llama-decode-0  decode leader  ") != std::string::npos);
  const auto doc = boost::json::parse(render(r, decide(r), {Format::json, false}));
  const auto& targets = doc.at("targets").as_array();
  CHECK(targets[1].at("multinode") == "leader");
  CHECK_FALSE(targets[0].as_object().contains("multinode"));  // single-node pods carry none
}

TEST_CASE("yaml quotes every string a YAML reader would take for a number, bool or null") {
  boost::json::object o;
  const std::vector<std::string> quoted{
      "",      "1",    "-1.5e3", "+.5",  "1.2.3",
      "1_000", "0x1F", "-0xff",  ".inf", "-.NaN",
      "yes",   "Off",  "~",      "NULL", std::string(60'000, '7')};
  const std::vector<std::string> plain{"1a", "0x",   "0xg",    "v1.2",
                                       ".x", "yess", "rc,tcp", std::string(60'000, '7') + "a"};
  for (std::size_t i = 0; i < quoted.size(); ++i)
    o["q" + std::to_string(i)] = quoted[i];
  for (std::size_t i = 0; i < plain.size(); ++i)
    o["p" + std::to_string(i)] = plain[i];
  const auto text = to_yaml(o);
  const auto yaml = YAML::Load(text);
  for (std::size_t i = 0; i < quoted.size(); ++i) {
    const auto node = yaml["q" + std::to_string(i)];
    CHECK_MESSAGE(node.Tag() == "!", quoted[i].substr(0, 20));
    CHECK(node.as<std::string>() == quoted[i]);
  }
  for (std::size_t i = 0; i < plain.size(); ++i) {
    const auto node = yaml["p" + std::to_string(i)];
    CHECK_MESSAGE(node.Tag() == "?", plain[i].substr(0, 20));
    CHECK(node.as<std::string>() == plain[i]);
  }
}
