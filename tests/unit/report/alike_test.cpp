// Golden views of many pods (issue 32): pods alike print one table headed by how many they are
// and their names, the same next step for many pods is printed once, and every line of the
// default view fits the width but a runnable command, which stands whole on its own line. The
// findings are those the plugin printed for the e2e scenarios many-alike-4 / many-kinds-64
// (H100 pods of one image without ucx_info; 4 of them without /dev/infiniband).
#include "report/fit_lines.hpp"
#include "report/pod_kinds.hpp"
#include "report/render.hpp"
#include "report/text_table.hpp"
#include "report/verdict.hpp"
#include "sample_report.hpp"

#include <doctest/doctest.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace icheck::report;
using icheck::test::finding;
using icheck::test::pod;

namespace {

const std::string kExec = "kubectl --context=fake exec ";

// The findings of one healthy pod of the scenario; `no_dev`: its /dev/infiniband is missing.
std::vector<Finding> findings(const std::string& name, const std::string& node, bool no_dev) {
  auto devices =
      no_dev ? finding("devices", Layer::rdma_access, Status::fail,
                       "8 HCAs in sysfs (mlx5_0..7) but no /dev/infiniband: RDMA device not "
                       "mounted into the pod: request an rdma/* resource or the device plugin",
                       "resources.limits[\"rdma/ib\"]: 1 (the rdma/* resource your RDMA device "
                       "plugin advertises: kubectl --context=fake get node " +
                           node + " -o jsonpath='{.status.allocatable}')")
             : finding("devices", Layer::rdma_access, Status::ok, "uverbs0..7 visible in the pod");
  return {
      finding("ports", Layer::fabric, Status::ok, "8/8 ports Active, 400 Gb/s InfiniBand"),
      finding("adapter rate", Layer::fabric, Status::ok,
              "8/8 InfiniBand ports at their adapter's speed: ConnectX-7 (MT4129) 400 Gb/s NDR"),
      devices,
      finding("verbs", Layer::rdma_access, Status::ok, "verbs opens 8/8 devices"),
      finding("memlock", Layer::rdma_access, Status::ok,
              "exec shell (no Dynamo worker process running): CAP_IPC_LOCK effective"),
      finding("peer-memory", Layer::gpudirect, Status::ok, "nvidia_peermem loaded"),
      finding("gdrcopy", Layer::gpudirect, Status::ok, "/dev/gdrdrv present: GDRCopy usable"),
      finding("topology", Layer::nvlink, Status::ok, "NV18 between all 8 GPUs"),
      finding("transports", Layer::ucx, Status::skipped,
              "ucx_info not in the image (Dynamo's vLLM images carry UCX only inside the NIXL "
              "wheel): cannot see the transports UCX picks",
              kExec + name +
                  " -n dynamo -c main -- ls /opt/nvidia/nvda_nixl/lib  # where NIXL's "
                  "UCX is"),
  };
}

// `prefill` + `decode` pods alike, then `no_dev` decode pods without /dev/infiniband.
Report many(int prefill, int decode, int no_dev) {
  Report r;
  r.mode = "node";
  r.context = "fake";
  r.namespace_ = "dynamo";
  const int pods = prefill + decode + no_dev;
  r.header = {"deployment many-alike", "worker " + std::to_string(pods) + " pods (" +
                                           std::to_string(decode + no_dev) + " decode, " +
                                           std::to_string(prefill) + " prefill) on " +
                                           std::to_string(pods) + " nodes"};
  const auto add = [&](const std::string& kind, const std::string& role, int n, bool bad) {
    for (int i = 0; i < n; ++i) {
      const std::string name = "many-alike-0-vllm" + kind + "worker-" + std::to_string(i);
      const std::string node = "h100-node-" + kind.substr(bad ? 6 : 0, 1) + "-" + std::to_string(i);
      r.targets.push_back(pod(name, role, node, findings(name, node, bad)));
      r.targets.back().namespace_ = "dynamo";
      r.targets.back().summary = "8× NVIDIA H100 80GB HBM3 · 8× mlx5 400 Gb/s InfiniBand";
    }
  };
  add("prefill", "prefill", prefill, false);
  add("decode", "decode", decode, false);
  add("decodenodev", "decode", no_dev, true);
  r.limitations = {"no transfer was exercised: kubectl dynamo-icheck nixl --transfer "
                   "--deployment many-alike"};
  return r;
}

std::string view(const Report& r, std::size_t width) {
  return render(r, decide(r), {Format::table, false, false, false, width});
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t at = 0, nl; (nl = text.find('\n', at)) != std::string::npos; at = nl + 1)
    out.push_back(text.substr(at, nl - at));
  return out;
}

// Every line within `width`, but a command standing alone on its line.
void check_width(const std::string& text, std::size_t width) {
  for (const auto& line : lines_of(text)) {
    const auto start = line.find_first_not_of(' ');
    const bool command = start != std::string::npos &&
                         split_command(line).before.find_first_not_of(' ') == std::string::npos &&
                         !split_command(line).command.empty();
    CAPTURE(line);
    CHECK((command || display_width(line) <= width));
  }
}

// tests/unit/report/golden/NAME.txt, the view as it was read and checked by hand.
std::string golden(const std::string& name) {
  std::ifstream in(std::string(ICHECK_TEST_DATA) + "/unit/report/golden/" + name + ".txt");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void check_golden(const Report& r, const std::string& name, std::size_t width) {
  const auto text = view(r, width);
  CHECK(text == golden(name));
  check_width(text, width);
}

}  // namespace

TEST_CASE("golden: 4 pods alike, one table, one next step, at 100 and 80 columns") {
  check_golden(many(2, 2, 0), "alike-4-w100", 100);
  check_golden(many(2, 2, 0), "alike-4-w80", 80);
}

TEST_CASE("golden: 64 pods alike, one table, a few names, at 100 and 80 columns") {
  check_golden(many(32, 32, 0), "alike-64-w100", 100);
  check_golden(many(32, 32, 0), "alike-64-w80", 80);
}

TEST_CASE("golden: 64 pods of two kinds, a grid row and a table per kind, at 100 and 80 columns") {
  check_golden(many(32, 28, 4), "kinds-64-w100", 100);
  check_golden(many(32, 28, 4), "kinds-64-w80", 80);
}

TEST_CASE("-o wide prints each pod's table and every next command, JSON keeps every pod") {
  const auto r = many(32, 28, 4);
  const auto v = decide(r);
  const auto wide = render(r, v, {Format::wide, false, false, false, 100});
  std::size_t tables = 0, nexts = 0;
  for (const auto& line : lines_of(wide)) {
    tables += line.starts_with("  TARGET ");
    nexts += line.starts_with("  next   kubectl --context=fake get node h100-node-n-");
  }
  CHECK(tables == 64);
  CHECK(nexts == 0);  // the 4 steps are prose with a command inside
  CHECK(v.next.size() == 4);
  CHECK(v.steps.size() == 1);
  CHECK(v.steps[0].pods.size() == 4);
  CHECK(v.steps[0].per_pod);
  const auto doc = to_json(r, v);
  CHECK(doc.at("targets").as_array().size() == 64);
  CHECK(doc.at("verdict").at("next").as_array().size() == 4);  // each runnable, as before
}

TEST_CASE("at most 5 next steps in the default view, the rest in -o wide") {
  auto r = many(2, 2, 0);
  for (int i = 0; i < 7; ++i)
    r.next.push_back("step " + std::to_string(i));
  const auto v = decide(r);
  CHECK(v.steps.size() == 8);  // the pods' one step, then the report's 7
  const auto text = render(r, v, {Format::table, false, false, false, 100});
  std::size_t steps = 0;
  for (const auto& line : lines_of(text))
    steps += line.starts_with("  next   ");
  CHECK(steps == 5);  // 4 steps, then how many more
  CHECK(text.find("  next   step 2\n") != std::string::npos);
  CHECK(text.find("step 3") == std::string::npos);
  CHECK(text.find("  next   and 4 more next steps (-o wide or -o json lists them)\n") !=
        std::string::npos);
  r.next.resize(4);  // 5 steps: all of them
  const auto five = view(r, 100);
  CHECK(five.find("  next   step 3\n") != std::string::npos);
  CHECK(five.find("more next steps") == std::string::npos);
  const auto wide = render(r, v, {Format::wide, false, false, false, 100});
  CHECK(wide.find("  next   step 6\n") != std::string::npos);
}

TEST_CASE("the same step with no names in it is printed once, without 'on each of'") {
  auto r = many(2, 2, 0);
  for (auto& t : r.targets)
    t.findings.back().next = "set UCX_PROTO_INFO=y on the worker";
  const auto text = view(r, 100);
  CHECK(text.find("  next   set UCX_PROTO_INFO=y on the worker\n") != std::string::npos);
  CHECK(text.find("on each of") == std::string::npos);
}

TEST_CASE("pods alike: once their own names are out, a detail, a summary or a namespace apart") {
  auto r = many(3, 0, 0);
  CHECK(pod_kinds(r).size() == 1);
  CHECK(pod_kinds(r)[0].shown.findings.back().next ==
        kExec + "<pod> -n dynamo -c main -- ls /opt/nvidia/nvda_nixl/lib  # where NIXL's UCX is");
  r.targets[1].findings[0].detail = "7/8 ports Active";
  r.targets[2].namespace_ = "staging";
  const auto kinds = pod_kinds(r);
  REQUIRE(kinds.size() == 3);
  CHECK(kinds[0].shown.findings.back().next == r.targets[0].findings.back().next);  // its own
  CHECK(without_names("on node n-1 and n-10: pod p-1", pod("p-1", "", "n-1", {})) ==
        "on node <node> and <node>0: pod <pod>");  // a node's name, wherever it is
}

TEST_CASE("any detail, check name, summary or next fits the width, but a command") {
  const std::string word(150, 'w');
  for (const std::size_t width : {100u, 80u, 40u}) {
    auto r = many(3, 3, 2);
    r.targets[0].summary = "x " + word;
    r.targets[0].findings.push_back(finding(word, Layer::nixl, Status::fail, word + " " + word,
                                            "a b " + word + " c: kubectl get " + word));
    r.targets[1].findings.push_back(
        finding("known trouble", Layer::ucx, Status::warn,
                "UCX 1.18.0 is in the table of versions with known KV-transfer trouble: " + word,
                "upgrade UCX (" + word + ")"));
    r.header.push_back(word);
    r.errors.push_back("error with " + word);
    r.limitations.push_back(word + " " + word);
    CAPTURE(width);
    check_width(view(r, width), width);
  }
}

TEST_CASE("one plugin command for many pairs names every pod: --pod a --pod b --pod c --pod d") {
  auto r = many(2, 2, 0);
  r.next = {"compare the pair's ports: kubectl dynamo-icheck node -o wide --pod p-0 --pod d-0 -n "
            "dynamo",
            "compare the pair's ports: kubectl dynamo-icheck node -o wide --pod p-1 --pod d-1 -n "
            "dynamo",
            "kubectl dynamo-icheck nixl --transfer --pod p-0"};
  const auto v = decide(r);
  REQUIRE(v.steps.size() == 3);  // the pods' step, the merged command, the other command
  CHECK(v.steps[1].text == "compare the pair's ports: kubectl dynamo-icheck node -o wide --pod "
                           "p-0 --pod d-0 --pod p-1 --pod d-1 -n dynamo");
  CHECK(v.steps[2].text == "kubectl dynamo-icheck nixl --transfer --pod p-0");
  CHECK(v.next.size() == 4 + 3);  // JSON keeps each command as it was: the pods' 4, these 3
}
