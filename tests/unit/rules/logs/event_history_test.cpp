// Issue 40: an event is evidence about the time it was emitted. A Running pod whose events
// still hold the FailedScheduling of before it was placed is not blocked by it.
#include "knowledge/load.hpp"
#include "rules/logs/signatures.hpp"

#include <doctest/doctest.h>

using namespace icheck;

namespace {

probe::PodEvent scheduling(const std::string& time) {
  // The message kube-scheduler prints (the row rdma-resource-insufficient's failing example's
  // format: "0/N nodes are available: N Insufficient <resource>.").
  return {"Warning",
          "FailedScheduling",
          "0/8 nodes are available: 8 Insufficient rdma/hca_shared_devices_a. preemption: 0/8 "
          "nodes are available: 8 No preemption victims found for incoming pod.",
          1,
          time,
          "Pod/w-0"};
}

}  // namespace

TEST_CASE("event history: a scheduling failure from before the container started is not judged") {
  rules::WorkerEvidence e;
  e.events = {scheduling("2026-12-03T09:58:00Z")};
  e.events_read = true;
  REQUIRE_FALSE(rules::signature_findings(knowledge::signature_rows(), e).empty());  // today's
  rules::drop_history(e, "2026-12-03T10:00:00Z");
  CHECK(e.events.empty());
  CHECK(e.events_before_start == 1);
  CHECK(rules::signature_findings(knowledge::signature_rows(), e).empty());
  CHECK(rules::evidence_facts(e, {}).at("eventsBeforeStart").as_uint64() == 1);
}

TEST_CASE("event history: events after the start, with fractions, or when nothing runs are kept") {
  rules::WorkerEvidence e;
  e.events = {scheduling("2026-12-03T10:00:00Z"), scheduling("2026-12-03T10:05:00.123456Z"),
              scheduling("yesterday")};
  rules::drop_history(e, "2026-12-03T10:00:00Z");
  CHECK(e.events.size() == 3);  // the same second, a later one, and a time not understood
  rules::drop_history(e, "");   // no running container: every event is the present
  CHECK(e.events.size() == 3);
  rules::drop_history(e, "2026-12-03T10:05:01+02:00");  // not UTC: not compared
  CHECK(e.events.size() == 3);
  CHECK(e.events_before_start == 0);
}

TEST_CASE("request echo: a prompt that quotes a signature's words is the user's text, not a line") {
  // vLLM's request logger (vllm/entrypoints/logger.py: "Received request %s: prompt: %r, ...")
  // echoing a prompt that holds the words of row vllm-nixl-not-available's line.
  const std::string echo =
      "INFO 12-03 10:00:00 [logger.py:41] Received request cmpl-9f2: prompt: 'Why does my log say "
      "NIXL is not available and Releasing expired KV blocks?', params: SamplingParams(n=1)";
  CHECK(rules::engine_words(echo) == "INFO 12-03 10:00:00 [logger.py:41] ");
  rules::WorkerEvidence e;
  e.logs.push_back(
      {"current", probe::parse_log("2026-12-03T10:00:00Z " + echo + "\n", true), false});
  CHECK(rules::signature_findings(knowledge::signature_rows(), e).empty());
  // SGLang's tokenizer manager echo (Receive: obj=GenerateReqInput(text=...)).
  CHECK(rules::engine_words("[2026-12-03 10:00:00] Receive: obj=GenerateReqInput(text='UCX ERROR "
                            "no such device')") == "[2026-12-03 10:00:00] ");
  // An engine's own line is whole.
  const std::string own = "ERROR 12-03 10:00:01 [nixl_connector.py:88] NIXL is not available";
  CHECK(rules::engine_words(own) == own);
}
