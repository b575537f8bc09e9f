#pragma once
// The signature rows (docs/knowledge.md, kind: signature) over what a worker already said: each
// line of its current and previous container's log, each of its pod's events. One finding per
// row that fired, in the row's layer with its status, naming its evidence: the matching line
// (cut around the match), its time and container, or the event's type, reason, count and
// time; how many more lines or events matched. A row never makes a green; no hit, no finding.
// Pure.

#include "knowledge/row.hpp"
#include "probe/logs/log_lines.hpp"
#include "probe/logs/pod_events.hpp"
#include "report/model.hpp"

#include <boost/json/object.hpp>
#include <string>
#include <vector>

namespace icheck::rules {

struct LogSource {
  std::string container;  // "current" | "previous" (the fact log.container)
  probe::LogText text;
  bool truncated = false;  // the read stopped at its byte limit
};

struct WorkerEvidence {
  std::vector<LogSource> logs;
  std::vector<probe::PodEvent> events;
  bool events_read = false;
  // Events last seen before the running container started: history (a FailedScheduling from
  // before the pod was placed, the trace of a rolling update), kept out of the rows and counted.
  std::size_t events_before_start = 0;
};

// Moves out of `evidence.events` every event last seen before `started_at` (RFC 3339, the
// running container's start; "" keeps them all) and counts them in events_before_start.
void drop_history(WorkerEvidence& evidence, const std::string& started_at);

// The shown part of an untrusted line: whole when it fits in `most` bytes, else `most` bytes
// around [at, at + length) with "…" where it was cut, never splitting a UTF-8 sequence.
std::string shown_around(const std::string& line, std::size_t at, std::size_t length,
                         std::size_t most = 300);

// The part of a log line the engine itself wrote: the line up to where it starts echoing a
// request (a prompt, chat messages), which is the user's text and never a signature (issue 40).
std::string engine_words(const std::string& line);

std::vector<report::Finding> signature_findings(const std::vector<knowledge::Row>& rows,
                                                const WorkerEvidence& evidence);

// What was read, for -o json facts.logs: lines per container (and how many were cut or the
// read truncated), events listed, and the ids of the rows that fired.
boost::json::object evidence_facts(const WorkerEvidence& evidence,
                                   const std::vector<report::Finding>& found);

}  // namespace icheck::rules
