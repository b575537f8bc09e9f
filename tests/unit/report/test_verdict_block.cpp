#include "report/render.hpp"
#include "report/text_table.hpp"
#include "report/verdict.hpp"
#include "report/verdict_block.hpp"
#include "sample_report.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>
#include <string>
#include <vector>

using namespace icheck::report;
using icheck::test::finding;
using icheck::test::pod;

namespace {

// The env finding of a real run (tests/recipes, a disagg recipe without an RDMA resource).
const std::string kLongDetail =
    "no rdma/*, vpc.amazonaws.com/efa or nvidia.com/hostdev resource and no hostNetwork on the "
    "worker: the KV cache goes over TCP (request the cluster's RDMA resource, e.g. rdma/ib: 1, "
    "or hostNetwork)";

Report manifest_report() {
  Report r;
  r.mode = "env";
  Target t;
  t.name = "deploy.yaml";
  t.kind = TargetKind::manifest;
  t.node = "/r/deploy.yaml";
  t.findings.push_back(finding("rdma-resource", Layer::env, Status::warn, kLongDetail));
  r.targets.push_back(t);
  return r;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t at = 0, nl; (nl = text.find('\n', at)) != std::string::npos; at = nl + 1) {
    out.push_back(text.substr(at, nl - at));
  }
  return out;
}

std::string line_starting(const std::string& text, const std::string& start) {
  for (const auto& l : lines_of(text)) {
    if (l.starts_with(start))
      return l;
  }
  return {};
}

// The text of a labelled entry of the verdict block: its line and the lines under it, joined.
std::string entry(const std::string& text, const std::string& label) {
  const auto lines = lines_of(text);
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!lines[i].starts_with(label))
      continue;
    out = lines[i].substr(label.size());
    for (std::size_t j = i + 1; j < lines.size() && lines[j].starts_with("         "); ++j)
      out += " " + lines[j].substr(9);
    break;
  }
  return out;
}

Report many_pods(int pods, int failing) {
  Report r;
  for (int i = 0; i < pods; ++i) {
    const auto status = i < failing ? Status::fail : Status::ok;
    r.targets.push_back(pod("vllm-decode-" + std::to_string(i), "decode", "n" + std::to_string(i),
                            {finding("memlock", Layer::rdma_access, status, "64 KiB")}));
  }
  return r;
}

}  // namespace

TEST_CASE("fit_words keeps what fits and cuts at a word boundary with an ellipsis") {
  CHECK(fit_words("devices: not mounted", 20) == "devices: not mounted");
  CHECK(fit_words("devices: not mounted", 19) == "devices: not…");
  CHECK(fit_words("devices: not mounted", 13) == "devices: not…");
  CHECK(fit_words("devices: not mounted", 12) == "devices…");  // the colon goes with the cut
  CHECK(fit_words("devices: not mounted", 5) == "");
  CHECK(fit_words("ééé ééé", 6) == "ééé…");  // code points, not bytes
}

TEST_CASE("the VERDICT line fits 100 columns, the whole reason and the targets go under it") {
  const auto r = manifest_report();
  const auto text = render(r, decide(r), {Format::table, false});
  const auto verdict = line_starting(text, "VERDICT");
  CHECK(verdict.starts_with("VERDICT  unconfirmed  at env on 1 of 1 manifest (rdma-resource: no "
                            "rdma/*, vpc.amazonaws.com/efa"));
  CHECK(verdict.ends_with("…)"));
  CHECK(display_width(verdict) <= kVerdictWidth);
  CHECK(verdict.find("unconfirmed", 22) == std::string::npos);         // the status once
  CHECK(entry(text, "  why    ") == "rdma-resource: " + kLongDetail);  // wrapped, whole
  for (const auto& line : lines_of(text.substr(text.find("VERDICT"))))
    CHECK(display_width(line) <= kVerdictWidth);
  CHECK(line_starting(text, "  files  ") == "  files  deploy.yaml");
}

TEST_CASE("a reason that fits is not repeated under the line") {
  auto r = manifest_report();
  r.targets[0].findings[0].detail = "no RDMA resource";
  const auto text = render(r, decide(r), {Format::table, false});
  CHECK(line_starting(text, "VERDICT") ==
        "VERDICT  unconfirmed  at env on 1 of 1 manifest (rdma-resource: no RDMA resource)");
  CHECK(text.find("  why ") == std::string::npos);
}

TEST_CASE("json and yaml keep the whole verdict and add its parts") {
  const auto r = manifest_report();
  const auto doc = boost::json::parse(render(r, decide(r), {Format::json, false}));
  const auto& v = doc.at("verdict");
  CHECK(v.at("summary").as_string() ==
        "unconfirmed at env on 1 of 1 manifest: deploy.yaml (rdma-resource: " + kLongDetail + ")");
  CHECK(v.at("scope") == "1 of 1 manifest");
  CHECK(v.at("check") == "rdma-resource");
  CHECK(v.at("detail").as_string() == kLongDetail);
  CHECK(v.at("affected") == boost::json::array{"deploy.yaml"});
}

TEST_CASE("the affected pods are listed under the line, wrapped, a few unless wide") {
  const auto r = many_pods(16, 14);
  const auto v = decide(r);
  const auto all = render(r, v, {Format::table, false});
  const auto text = all.substr(all.find("VERDICT"));  // the kind's table heads its pods too
  CHECK(line_starting(text, "VERDICT") ==
        "VERDICT  blocked  at rdma-access on 14 of 16 decode pods (memlock: 64 KiB)");
  const auto lines = lines_of(text);
  std::string listed;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with("  pods   ")) {
      for (std::size_t j = i; j < lines.size() && (j == i || lines[j].starts_with("         "));
           ++j) {
        CHECK(display_width(lines[j]) <= kVerdictWidth);
        listed += lines[j].substr(9) + " ";
      }
    }
  }
  CHECK(listed == "vllm-decode-0, vllm-decode-1, vllm-decode-2, vllm-decode-3 and 10 more ");

  const auto wide = render(r, v, {Format::wide, false});
  CHECK(wide.find("vllm-decode-13", wide.find("VERDICT")) != std::string::npos);
  CHECK(wide.find("and 10 more") == std::string::npos);
}

TEST_CASE("surface-ok and confirmed say the status once") {
  const auto r = many_pods(2, 0);
  CHECK(line_starting(render(r, decide(r), {Format::table, false}), "VERDICT") ==
        "VERDICT  surface-ok  every required check is ok on 2 pods");
}

TEST_CASE("the transfer's pair goes under the line") {
  auto r = many_pods(2, 0);
  auto t = finding("transfer", Layer::nixl, Status::ok, "12.0 GB/s");
  t.is_transfer = true;
  r.targets[0].findings.push_back(t);
  r.transfer_summary = "slowest pair: p-0 (node a) -> d-0 (node b), 12.0 GB/s";
  const auto text = render(r, decide(r), {Format::table, false});
  CHECK(line_starting(text, "VERDICT") ==
        "VERDICT  confirmed  a pairwise transfer ran at line-rate-class bandwidth");
  CHECK(line_starting(text, "  pairs  ") ==
        "  pairs  slowest pair: p-0 (node a) -> d-0 (node b), 12.0 GB/s");
}

TEST_CASE("a long error is cut on the VERDICT line and shown whole above it") {
  Report r;
  r.errors.push_back("cannot read kubeconfig /home/u/.kube/config: " + std::string(120, 'x') +
                     " is not a YAML mapping");
  const auto text = render(r, decide(r), {Format::table, false});
  // wrapped within the width, a word wider than a line in pieces: nothing lost
  CHECK(text.starts_with("error    cannot read kubeconfig /home/u/.kube/config:\n         " +
                         std::string(91, 'x') + "\n         " + std::string(29, 'x') +
                         " is not a YAML mapping\n"));
  const auto verdict = line_starting(text, "VERDICT");
  CHECK(verdict == "VERDICT  error  cannot read kubeconfig /home/u/.kube/config…");
  CHECK(text.find("  why ") == std::string::npos);
}

TEST_CASE("name_lines wraps under the first name") {
  CHECK(name_lines("pods", {"aaaa", "bbbb", "cccc"}, 12, 20) ==
        "  pods   aaaa, bbbb,\n         cccc\n");
  CHECK(name_lines("pods", {"a", "b", "c", "d"}, 2, 80) == "  pods   a, b and 2 more\n");
  CHECK(name_lines("pods", {"a", "b", "c"}, 2, 80) == "  pods   a, b, c\n");  // not "1 more"
  CHECK(name_lines("pods", {std::string(30, 'n')}, 4, 20) == "  pods   nnnnnnnnnn…\n");
}
