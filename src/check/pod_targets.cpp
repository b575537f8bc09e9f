#include "check/pod_targets.hpp"

#include "dynamo/role.hpp"
#include "probe/sections.hpp"
#include "util/join.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace icheck::check {
namespace {

report::Finding skipped(std::string name, report::Layer layer, std::string detail,
                        std::string next) {
  report::Finding f;
  f.name = std::move(name);
  f.layer = layer;
  f.status = report::Status::skipped;
  f.detail = std::move(detail);
  f.next = std::move(next);
  return f;
}

std::string mib(std::size_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

// Where a stopped probe was: "section X" (begun, never ended) or "the part after section X";
// "" when it read no whole section (nothing to judge).
std::string cut_at(const PodProbe& probe) {
  const auto out = probe::split_sections(probe.result->out);
  const auto whole = std::find_if(out.sections.rbegin(), out.sections.rend(),
                                  [](const probe::Section& s) { return s.complete; });
  if (out.meta.empty() || whole == out.sections.rend())
    return "";
  if (!out.sections.back().complete)
    return "section " + out.sections.back().name;
  return "the part after section " + whole->name;
}

}  // namespace

std::string pods_phrase(const std::vector<kube::PodInfo>& pods) {
  std::map<std::string, int> roles;
  std::set<std::string> nodes;
  for (const auto& p : pods) {
    ++roles[std::string(dynamo::role_label(p.role))];
    if (!p.node.empty()) {
      nodes.insert(p.node);
    }
  }
  std::string text = std::to_string(pods.size()) + (pods.size() == 1 ? " pod" : " pods");
  std::vector<std::string> parts;
  for (const auto& [role, n] : roles) {
    parts.push_back(std::to_string(n) + " " + role);
  }
  if (!parts.empty()) {
    text += " (" + join(parts) + ")";
  }
  return text + " on " + std::to_string(nodes.size()) + (nodes.size() == 1 ? " node" : " nodes");
}

bool is_disagg(const std::vector<kube::PodInfo>& pods) {
  // The operator gives prefill/decode roles only to disaggregated deployments, so one such pod
  // is enough (a --pod or a decode-only selection still belongs to a disagg deployment). A pod
  // whose role is unknown because a label is outside the vocabulary may be one of them: never
  // read as aggregated (DESIGN.md).
  return std::any_of(pods.begin(), pods.end(), [](const kube::PodInfo& p) {
    return dynamo::is_split(p.role) ||
           (p.role == dynamo::Role::unknown && !p.role_not_understood.empty());
  });
}

bool start_target(const PodProbe& probe, report::Layer layer, const RunOptions& run,
                  report::Target& target) {
  const auto& pod = probe.pod;
  target.name = pod.name;
  target.kind = report::TargetKind::pod;
  target.role = dynamo::role_name(pod.role);
  target.multinode = dynamo::multinode_part_name(pod.multinode);
  target.node = pod.node;
  target.namespace_ = pod.namespace_;
  if (!pod.container_note.empty()) {
    target.summary = pod.container_note;
  }
  if (pod.role == dynamo::Role::unknown && !pod.role_not_understood.empty()) {
    report::Finding f = skipped("role", report::Layer::env,
                                "role unknown: " + pod.role_not_understood +
                                    " is not in Dynamo's vocabulary, and no role flag, role "
                                    "variable or prefill/decode in the name tells it: judged as a "
                                    "disaggregated worker",
                                "");
    f.status = report::Status::warn;
    target.findings.push_back(std::move(f));
  }
  if (!probe.result) {
    target.findings.push_back(skipped("pod", layer, pod.skip_detail(), pod.next_step()));
    return false;
  }
  // A capped output kills kubectl, so this comes before the exec failure it causes; the
  // sections read before the cut are still judged.
  if (probe.result->truncated) {
    target.findings.push_back(skipped("probe", layer,
                                      "probe output exceeded the " + mib(run.output_cap) +
                                          " cap; facts after the cut are missing",
                                      ""));
    return true;
  }
  if (probe.failure.kind != kube::ExecFailureKind::none) {
    // A probe its deadline stopped (a tool that hangs past its own bound, several slow tools)
    // read its sections up to there: those are judged, the rest is missing, and the exec finding
    // keeps the verdict from confirmed.
    if (const auto cut = cut_at(probe);
        probe.failure.kind == kube::ExecFailureKind::timed_out && !cut.empty()) {
      target.findings.push_back(skipped("exec", layer,
                                        probe.failure.detail + " in " + cut +
                                            ": the facts read before it are judged, the "
                                            "rest is missing",
                                        probe.failure.next_step));
      return true;
    }
    target.findings.push_back(
        skipped("exec", layer, probe.failure.detail, probe.failure.next_step));
    return false;
  }
  if (!probe::output_complete(probe.result->out)) {  // twice: probe_pods tried once more
    target.findings.push_back(
        skipped("probe", layer,
                "kubectl exited 0 but the probe's output arrived cut short, twice "
                "(kubernetes/kubernetes#124571); facts after the cut are missing",
                "rerun the check"));
  }
  return true;
}

}  // namespace icheck::check
