#include "report/verdict.hpp"

#include "report/pod_kinds.hpp"
#include "util/join.hpp"

#include <algorithm>
#include <string>
#include <string_view>

namespace icheck::report {
namespace {

void add_unique(std::vector<std::string>& list, const std::string& item) {
  if (!item.empty() && std::find(list.begin(), list.end(), item) == list.end()) {
    list.push_back(item);
  }
}

bool counts_against(const Finding& f, Status s) {
  return f.status == s && (f.required || s == Status::fail);
}

// The earliest layer at which any target has a finding of status `s`.
std::optional<Layer> first_layer(const Report& report, Status s) {
  std::optional<Layer> first;
  for (const auto& t : report.targets) {
    for (const auto& f : t.findings) {
      if (counts_against(f, s) && (!first || f.layer < *first)) {
        first = f.layer;
      }
    }
  }
  return first;
}

bool has_at(const Target& t, Layer layer, Status s) {
  return std::any_of(t.findings.begin(), t.findings.end(),
                     [&](const Finding& f) { return f.layer == layer && counts_against(f, s); });
}

std::string kind_plural(const Report& report, std::size_t n) {
  const TargetKind kind = report.targets.empty() ? TargetKind::pod : report.targets[0].kind;
  const bool mixed = std::any_of(report.targets.begin(), report.targets.end(),
                                 [&](const Target& t) { return t.kind != kind; });
  const std::string noun = mixed                          ? "target"
                           : kind == TargetKind::manifest ? "manifest"
                           : kind == TargetKind::log      ? "log file"
                           : kind == TargetKind::pod      ? "pod"
                                                          : "machine";
  return noun + (n == 1 ? "" : "s");
}

// The role every one of these pods has ("" when they differ or are not pods): then the count
// is among that role's pods, which tells "every decode pod" from "one pod in eight".
std::string shared_role(const std::vector<const Target*>& hit) {
  const std::string& role = hit.front()->role;
  for (const auto* t : hit) {
    if (t->kind != TargetKind::pod || t->role != role) {
      return {};
    }
  }
  return role;
}

std::vector<const Target*> at_fault(const Report& report, Layer layer, Status s) {
  std::vector<const Target*> hit;
  for (const auto& t : report.targets) {
    if (has_at(t, layer, s)) {
      hit.push_back(&t);
    }
  }
  return hit;
}

// "1 of 4 pods", "all 8 decode pods", "the only decode pod", "3 of 8 decode pods"
std::string scope(const Report& report, const std::vector<const Target*>& hit) {
  if (const auto role = hit.empty() ? std::string() : shared_role(hit); !role.empty()) {
    const auto n = static_cast<std::size_t>(
        std::count_if(report.targets.begin(), report.targets.end(), [&](const Target& t) {
          return t.kind == TargetKind::pod && t.role == role;
        }));
    return n == 1 ? "the only " + role + " pod"
           : hit.size() == n
               ? "all " + std::to_string(n) + " " + role + " pods"
               : std::to_string(hit.size()) + " of " + std::to_string(n) + " " + role + " pods";
  }
  return std::to_string(hit.size()) + " of " + std::to_string(report.targets.size()) + " " +
         kind_plural(report, report.targets.size());
}

// "a, b, c and 2 more"
std::string first_names(const std::vector<std::string>& names) {
  return join_first(names, 3);
}

// The first finding at that layer, so the verdict names the cause, not only the place.
const Finding* first_finding(const Report& report, Layer layer, Status s) {
  for (const auto& t : report.targets) {
    for (const auto& f : t.findings) {
      if (f.layer == layer && counts_against(f, s)) {
        return &f;
      }
    }
  }
  return nullptr;
}

// Fills the parts (scope, affected targets, first check) and the one-sentence summary,
// e.g. "blocked at rdma-access on 1 of 4 pods: a (devices: not mounted)".
void describe_fault(const Report& report, Verdict& v, Status s) {
  const auto hit = at_fault(report, *v.layer, s);
  v.scope = scope(report, hit);
  for (const auto* t : hit) {
    v.affected.push_back(t->name);
  }
  if (const auto* f = first_finding(report, *v.layer, s)) {
    v.check = f->name;
    v.detail = f->detail;
  }
  v.headline = "at " + std::string(to_string(*v.layer)) + " on " + v.scope;
  v.summary = std::string(to_string(v.status)) + " " + v.headline + ": " + first_names(v.affected) +
              " (" + v.check + ": " + v.detail + ")";
}

// The step joins the one that reads the same once each pod's own names are taken out.
void add_step(Verdict& v, std::vector<std::string>& keys, const Target& t,
              const std::string& next) {
  const std::string key = without_names(next, t);
  const auto index =
      static_cast<std::size_t>(std::find(keys.begin(), keys.end(), key) - keys.begin());
  if (index == keys.size()) {
    keys.push_back(key);
    v.steps.push_back({next, {}, false});
  }
  auto& step = v.steps[index];
  step.per_pod = step.per_pod || step.text != next;
  if (t.kind == TargetKind::pod &&
      std::find(step.pods.begin(), step.pods.end(), t.name) == step.pods.end()) {
    step.pods.push_back(t.name);
  }
}

// Next steps of findings with status `s`, those at the verdict's layer first.
void collect_next(const Report& report, Verdict& v, Status s, std::vector<std::string>& keys) {
  for (const bool at_layer : {true, false}) {
    for (const auto& t : report.targets) {
      for (const auto& f : t.findings) {
        if (counts_against(f, s) && (f.layer == v.layer) == at_layer && !f.next.empty()) {
          add_unique(v.next, f.next);
          add_step(v, keys, t, f.next);
        }
      }
    }
  }
}

// The " --pod NAME" flags of a plugin command taken out, and the names they held.
std::string without_pod_flags(const std::string& text, std::vector<std::string>& pods,
                              std::size_t& first) {
  constexpr std::string_view kFlag = " --pod ";
  std::string out = text;
  first = std::string::npos;
  for (auto at = out.find(kFlag); at != std::string::npos; at = out.find(kFlag, at)) {
    auto end = out.find(' ', at + kFlag.size());
    end = end == std::string::npos ? out.size() : end;
    pods.push_back(out.substr(at + kFlag.size(), end - at - kFlag.size()));
    first = std::min(first, at);
    out.erase(at, end - at);
  }
  return out;
}

// One plugin command for many pods: the same `kubectl dynamo-icheck` command that differs only in
// its --pod flags (a pair's each) becomes one naming them all, --pod a --pod b --pod c.
void merge_pod_flags(std::vector<NextStep>& steps) {
  std::vector<NextStep> merged;
  std::vector<std::string> keys;
  for (const auto& step : steps) {
    std::vector<std::string> pods;
    std::size_t first = 0;
    const std::string key = without_pod_flags(step.text, pods, first);
    const bool plugin = step.text.find("kubectl dynamo-icheck ") != std::string::npos;
    const auto index =
        static_cast<std::size_t>(std::find(keys.begin(), keys.end(), key) - keys.begin());
    if (!plugin || pods.empty() || index == keys.size()) {
      keys.push_back(plugin && !pods.empty() ? key : step.text);
      merged.push_back(step);
      continue;
    }
    auto& into = merged[index];
    std::vector<std::string> all;
    std::size_t at = 0;
    std::string text = without_pod_flags(into.text, all, at);
    for (const auto& pod : pods) {
      if (std::find(all.begin(), all.end(), pod) == all.end()) {
        all.push_back(pod);
      }
    }
    std::string flags;
    for (const auto& pod : all) {
      flags += " --pod " + pod;
    }
    into.text = text.insert(at, flags);
    for (const auto& pod : step.pods) {
      add_unique(into.pods, pod);
    }
    into.per_pod = false;  // the command names every pod itself
  }
  steps = std::move(merged);
}

// Every pairwise transfer that was asked for passed (and at least one ran): one slow or
// skipped pair among several keeps the verdict from `confirmed`.
bool transfer_passed(const Report& report) {
  bool passed = false;
  for (const auto& t : report.targets) {
    for (const auto& f : t.findings) {
      if (f.is_transfer && f.required && f.status != Status::ok) {
        return false;
      }
      passed = passed || (f.is_transfer && f.status == Status::ok);
    }
  }
  return passed;
}

// No transfer test ran, and a worker's own metrics show KV moved by live traffic at line-rate
// class (rules/nixl/kv_metrics.hpp): the pods observed that way.
std::vector<std::string> observed_traffic(const Report& report) {
  std::vector<std::string> pods;
  for (const auto& t : report.targets) {
    for (const auto& f : t.findings) {
      if (f.is_transfer)
        return {};
      if (f.is_observed_traffic && f.status == Status::ok)
        add_unique(pods, t.name);
    }
  }
  return pods;
}

Verdict decide_from_findings(const Report& report, std::vector<std::string>& keys) {
  Verdict v;
  for (const auto& l : report.limitations) {
    add_unique(v.limitations, l);
  }
  if (report.targets.empty() || !report.stopped.empty()) {
    v.status = VerdictStatus::error;
    v.summary = !report.stopped.empty() ? report.stopped
                : report.errors.empty() ? "nothing to check"
                                        : report.errors.front();
    v.headline = v.summary;
    return v;
  }
  if (auto layer = first_layer(report, Status::fail)) {
    v.status = VerdictStatus::blocked;
    v.layer = layer;
    describe_fault(report, v, Status::fail);
    collect_next(report, v, Status::fail, keys);
    return v;
  }
  const auto warn = first_layer(report, Status::warn);
  const auto skipped = first_layer(report, Status::skipped);
  if (transfer_passed(report) && !report.transport_not_exercised) {
    v.status = VerdictStatus::confirmed;
    v.headline = "a pairwise transfer ran at line-rate-class bandwidth";
    v.summary = "confirmed: " + v.headline;
    return v;
  }
  if (const auto pods = observed_traffic(report);
      !pods.empty() && !warn && !report.transport_not_exercised) {
    v.status = VerdictStatus::confirmed;
    v.headline = "observed traffic: the workers' own metrics show KV moved at line-rate class on " +
                 std::to_string(pods.size()) + " " + (pods.size() == 1 ? "pod" : "pods") + " (" +
                 pods.front() + (pods.size() > 1 ? " and more" : "") + ")";
    v.summary = "confirmed: " + v.headline;
    add_unique(v.limitations, "no transfer test ran: the evidence is the traffic the workers "
                              "served while they were read");
    return v;
  }
  if (warn || skipped) {
    v.status = VerdictStatus::unconfirmed;
    v.layer = (warn && (!skipped || *warn <= *skipped)) ? warn : skipped;
    const Status s = (v.layer == warn) ? Status::warn : Status::skipped;
    describe_fault(report, v, s);
    collect_next(report, v, Status::warn, keys);
    collect_next(report, v, Status::skipped, keys);
    return v;
  }
  // What could not be checked at all (`all` over a recipe whose deployment has no running
  // worker pods, a manifest that did not parse beside others that did) keeps every ok from
  // concluding: the run said an error, so it saw less than it was asked to.
  if (!report.errors.empty()) {
    v.status = VerdictStatus::unconfirmed;
    v.headline = "not everything asked could be checked: " + report.errors.front();
    v.summary = "unconfirmed: " + v.headline;
    return v;
  }
  // A target where nothing was judged (a saved log without a known signature) is no evidence
  // of a working transport: unknown never concludes, a row never makes a green.
  const auto unjudged = std::count_if(report.targets.begin(), report.targets.end(),
                                      [](const Target& t) { return t.findings.empty(); });
  if (unjudged > 0) {
    v.status = VerdictStatus::unconfirmed;
    v.headline = "nothing judged on " + std::to_string(unjudged) + " " +
                 kind_plural(report, static_cast<std::size_t>(unjudged));
    v.summary = "unconfirmed: " + v.headline;
    return v;
  }
  v.status = VerdictStatus::surface_ok;
  v.headline = "every required check is ok on " + std::to_string(report.targets.size()) + " " +
               kind_plural(report, report.targets.size());
  v.summary = "surface-ok: " + v.headline;
  return v;
}

// What was decided before the signal stays readable ("so far blocked at ..."); the status says
// the run did not finish, whatever it had found.
void mark_interrupted(const std::string& signal, Verdict& v) {
  const std::string so_far = std::string(to_string(v.status)) + " " + v.headline;
  v.status = VerdictStatus::interrupted;
  v.summary = "interrupted by " + signal + " (so far: " + v.summary + ")";
  v.headline = "by " + signal + " (so far: " + so_far + ")";
  add_unique(v.limitations,
             "interrupted by " + signal + ": only what was gathered before it is shown");
}

}  // namespace

Verdict decide(const Report& report) {
  std::vector<std::string> keys;  // each step's text without its pod's names
  Verdict v = decide_from_findings(report, keys);
  if (!report.transfer_summary.empty() && v.status != VerdictStatus::error) {
    v.summary += "; " + report.transfer_summary;
    v.transfer = report.transfer_summary;
  }
  if (!report.interrupted.empty()) {
    mark_interrupted(report.interrupted, v);
  }
  for (const auto& n : report.next) {  // mode-level commands come after the findings' own
    if (std::find(v.next.begin(), v.next.end(), n) == v.next.end() && !n.empty()) {
      v.next.push_back(n);
      if (std::find(keys.begin(), keys.end(), n) == keys.end()) {
        keys.push_back(n);
        v.steps.push_back({n, {}, false});
      }
    }
  }
  merge_pod_flags(v.steps);
  return v;
}

}  // namespace icheck::report
