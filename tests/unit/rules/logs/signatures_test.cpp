#include "knowledge/load.hpp"
#include "rules/logs/signatures.hpp"

#include <doctest/doctest.h>
#include <fstream>
#include <sstream>

using namespace icheck;
using icheck::report::Layer;
using icheck::report::Status;

namespace {

std::string fixture(const std::string& rel) {
  std::ifstream in(std::string(ICHECK_TEST_DATA) + "/fixtures/" + rel, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

rules::LogSource log_of(const std::string& container, const std::string& text) {
  return {container, probe::parse_log(text, true), false};
}

}  // namespace

TEST_CASE(
    "signatures: a libfabric registration failure in the previous container, named with its time") {
  rules::WorkerEvidence e;
  e.logs.push_back(
      log_of("current", "2026-12-03T10:00:00Z INFO 12-03 10:00:00 [api_server.py:1] up\n"));
  // ofiwg/libfabric #12019, as the worker printed it (the row's failing line), twice
  const std::string line =
      "libfabric::efa:mr:efa_mr_reg_impl():893<warn> Unable to register MR of 11279546368 bytes: "
      "Bad address, flags 0";
  e.logs.push_back(
      log_of("previous", "2026-12-03T09:00:01Z " + line + "\n2026-12-03T09:00:02Z " + line + "\n"));
  const auto found = rules::signature_findings(knowledge::signature_rows(), e);
  REQUIRE(found.size() == 1);
  const auto& f = found[0];
  CHECK(f.name == "efa-mr-registration");
  CHECK(f.layer == Layer::gpudirect);
  CHECK(f.status == Status::fail);
  CHECK(f.detail.find("(ofiwg/libfabric #12019)") != std::string::npos);
  CHECK(f.detail.find("; log, previous container, 2026-12-03T09:00:02Z: \"" + line +
                      "\" (and 1 more line)") != std::string::npos);
  CHECK_FALSE(f.next.empty());
  const auto facts = rules::evidence_facts(e, found);
  CHECK(facts.at("current").at("lines").as_uint64() == 1);
  CHECK(facts.at("previous").at("lines").as_uint64() == 2);
  CHECK(facts.at("signatures").as_uint64() == 1);
}

TEST_CASE("signatures: the SR-IOV VF GUID event of a ContainerCreating pod, with reason, count and "
          "time") {
  rules::WorkerEvidence e;
  auto events = probe::parse_events_json(fixture("events/sriov_guid.json"));
  REQUIRE(events);
  e.events = *events;
  e.events_read = true;
  const auto found = rules::signature_findings(knowledge::signature_rows(), e);
  REQUIRE(found.size() == 1);
  CHECK(found[0].layer == Layer::rdma_access);
  CHECK(found[0].status == Status::fail);
  CHECK(found[0].detail.find(
            "; event Warning FailedCreatePodSandBox ×12, 2026-12-03T10:04:31Z: \"") !=
        std::string::npos);
  CHECK(found[0].detail.find("GUID is not valid") != std::string::npos);
}

TEST_CASE("signatures: healthy start-up logs give no finding at all (no green either)") {
  for (const char* name : {"logs/healthy/vllm-nixl-connector-startup-vllm29369.log",
                           "logs/healthy/sglang-decode-nixl-startup-dynamo4855.log",
                           "logs/healthy/trtllm-executor-startup-trtllm2518.log"}) {
    CAPTURE(name);
    const auto text = fixture(name);
    REQUIRE_FALSE(text.empty());
    rules::WorkerEvidence e;
    e.logs.push_back({"current", probe::parse_log(text, false), false});
    CHECK(e.logs[0].text.lines.size() > 5);
    CHECK(rules::signature_findings(knowledge::signature_rows(), e).empty());
  }
}

TEST_CASE("shown around: a long line is cut around its match, on UTF-8 boundaries") {
  const std::string head(1000, 'a');
  const std::string line = head + "MATCH" + std::string(1000, 'b');
  const auto shown = rules::shown_around(line, 1000, 5, 100);
  CHECK(shown.find("MATCH") != std::string::npos);
  CHECK(shown.rfind("…", 0) == 0);
  CHECK(shown.size() <= 100 + 2 * std::string("…").size());
  CHECK(rules::shown_around("short", 0, 0) == "short");
  std::string accents;
  for (int i = 0; i < 100; ++i)
    accents += "\xc3\xa9";  // é, two bytes each
  const auto cut = rules::shown_around(accents, 0, 0, 21);
  CHECK(cut == std::string(accents, 0, 20) + "…");  // never half an é
}

TEST_CASE("signatures: a crafted 4 KiB line against every signature row completes (issue 40)") {
  // `ibv_create_ah() for ` repeated held std::regex's backtracking for minutes per line (the
  // ucx-ibv-create-ah-failed row's `ibv_create_ah\(.*\) for .* failed: `); RE2 is linear.
  std::string crafted;
  while (crafted.size() < probe::kMaxLogLine)
    crafted += "ibv_create_ah() for ";
  rules::WorkerEvidence quiet;
  quiet.logs.push_back(log_of("current", "2026-12-03T10:00:00Z " + crafted + "\n"));
  CHECK(rules::signature_findings(knowledge::signature_rows(), quiet).empty());

  // The same line ending in the failure: the row fires, its shown part cut around RE2's match.
  const std::string failed = crafted.substr(0, 3000) + "failed: Invalid argument";
  rules::WorkerEvidence loud;
  loud.logs.push_back(log_of("current", "2026-12-03T10:00:00Z " + failed + "\n"));
  const auto found = rules::signature_findings(knowledge::signature_rows(), loud);
  REQUIRE(found.size() == 1);
  CHECK(found[0].name == "gid");
  CHECK(found[0].detail.find("ibv_create_ah() for ibv_create_ah()") != std::string::npos);

  // Every row's own failing line, repeated to 4 KiB: each row's pattern runs over it.
  for (const auto& row : knowledge::signature_rows()) {
    auto line = row.failing.count("log.line") ? row.failing.at("log.line") : std::string("x");
    std::string long_line;
    while (long_line.size() < probe::kMaxLogLine)
      long_line += line + " ";
    rules::WorkerEvidence e;
    e.logs.push_back(log_of("current", "2026-12-03T10:00:00Z " + long_line + "\n"));
    CHECK_NOTHROW(rules::signature_findings(knowledge::signature_rows(), e));
  }
}

TEST_CASE("signatures: the shown line is cut around where RE2 matched, not at its start") {
  const std::string line = std::string(2000, 'a') + " NIXL_ERR_BACKEND " + std::string(1000, 'b');
  rules::WorkerEvidence e;
  e.logs.push_back(log_of("current", "2026-12-03T10:00:00Z " + line + "\n"));
  const auto found = rules::signature_findings(knowledge::signature_rows(), e);
  REQUIRE_FALSE(found.empty());
  bool shown = false;
  for (const auto& f : found)
    shown = shown || f.detail.find("NIXL_ERR_BACKEND") != std::string::npos;
  CHECK(shown);
}
