#include "check/pod_evidence.hpp"

#include "knowledge/load.hpp"
#include "probe/logs/log_lines.hpp"
#include "probe/logs/pod_events.hpp"
#include "rules/logs/signatures.hpp"

namespace icheck::check {
namespace {

using Outcome = ReadResult::Outcome;

// A read that came back forbidden or failed, as an optional skipped finding.
report::Finding unread(const ReadResult& r, const std::string& what, const std::string& verb,
                       const std::string& resource, const kube::PodInfo& pod, report::Layer layer) {
  report::Finding f;
  f.name = "logs";
  f.layer = layer;
  f.status = report::Status::skipped;
  f.required = false;  // evidence beside the checks: its absence never blocks a verdict
  if (r.outcome == Outcome::forbidden) {
    const auto d = denied_parts(r.why);
    const auto v = d.verb.empty() ? verb : d.verb;
    const auto res = d.resource.empty() ? resource : d.resource;
    f.detail = what + " not read: " + v + " " + res + " not allowed for " +
               (d.user.empty() ? "this user" : "User \"" + d.user + "\"") + " in namespace \"" +
               pod.namespace_ + "\" (RBAC)";
    f.next = "kubectl auth can-i " + v + " " + res + " -n " + pod.namespace_;
  } else {
    f.detail = what + " not read: " + r.why;
  }
  return f;
}

void take_log(const std::optional<ReadResult>& r, const std::string& container,
              rules::WorkerEvidence& evidence) {
  if (!r || r->outcome != Outcome::read)
    return;
  evidence.logs.push_back({container, probe::parse_log(r->body, true), r->truncated});
}

}  // namespace

bool shown_in_mode(const std::string& mode, report::Layer layer) {
  if (mode == "node")
    return layer != report::Layer::nixl;
  if (mode == "nixl")
    return layer == report::Layer::nixl;
  return true;
}

PodEvidence judge_reads(const PodReads& reads, const kube::PodInfo& pod,
                        report::Layer unread_layer) {
  PodEvidence out;
  rules::WorkerEvidence evidence;
  take_log(reads.current, "current", evidence);
  take_log(reads.previous, "previous", evidence);
  if (reads.events && reads.events->outcome == Outcome::read) {
    auto events = probe::parse_events_json(reads.events->body);
    if (events) {
      evidence.events = std::move(*events);
      evidence.events_read = true;
      rules::drop_history(evidence, pod.started_at);
    } else {
      out.findings.push_back(unread({Outcome::failed, "", false, events.error().message}, "events",
                                    "list", "events", pod, unread_layer));
    }
  }
  // One skipped per pod and kind: the log's two reads share their permission.
  const auto* log_refused = reads.current && reads.current->outcome != Outcome::read &&
                                    reads.current->outcome != Outcome::absent
                                ? &*reads.current
                            : reads.previous && reads.previous->outcome != Outcome::read &&
                                    reads.previous->outcome != Outcome::absent
                                ? &*reads.previous
                                : nullptr;
  if (log_refused != nullptr)
    out.findings.push_back(unread(*log_refused, "log", "get", "pods/log", pod, unread_layer));
  if (reads.events && reads.events->outcome != Outcome::read &&
      reads.events->outcome != Outcome::absent)
    out.findings.push_back(unread(*reads.events, "events", "list", "events", pod, unread_layer));
  auto found = rules::signature_findings(knowledge::signature_rows(), evidence);
  out.facts = rules::evidence_facts(evidence, found);
  out.findings.insert(out.findings.end(), found.begin(), found.end());
  return out;
}

}  // namespace icheck::check
