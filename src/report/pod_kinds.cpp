#include "report/pod_kinds.hpp"

#include "util/join.hpp"

#include <algorithm>
#include <utility>

namespace icheck::report {
namespace {

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  if (from.empty())
    return text;
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::string role_of(const Target& t) {
  return (t.role.empty() ? "-" : t.role) + (t.multinode.empty() ? "" : " " + t.multinode);
}

// What must match for two pods to be alike: everything shown in their table and heading but
// the role (the heading counts roles) and their own names.
Target nameless(const Target& t) {
  Target out;
  out.kind = t.kind;
  out.namespace_ = t.namespace_;
  out.summary = without_names(t.summary, t);
  out.findings = t.findings;
  for (auto& f : out.findings) {
    f.detail = without_names(f.detail, t);
    f.next = without_names(f.next, t);
  }
  return out;
}

bool same(const Finding& a, const Finding& b) {
  return a.name == b.name && a.id == b.id && a.layer == b.layer && a.status == b.status &&
         a.detail == b.detail && a.next == b.next && a.required == b.required &&
         a.is_transfer == b.is_transfer && a.is_observed_traffic == b.is_observed_traffic &&
         a.row == b.row;
}

bool alike(const Target& a, const Target& b) {
  return a.kind == TargetKind::pod && b.kind == TargetKind::pod && a.namespace_ == b.namespace_ &&
         a.summary == b.summary &&
         std::equal(a.findings.begin(), a.findings.end(), b.findings.begin(), b.findings.end(),
                    same);
}

}  // namespace

std::string without_names(const std::string& text, const Target& target) {
  // The pod first: a node named like its pod's prefix must not cut the pod's name in two.
  const std::string out = replaced(text, target.name, "<pod>");
  return target.kind == TargetKind::pod ? replaced(out, target.node, "<node>") : out;
}

std::vector<PodKind> pod_kinds(const Report& report) {
  std::vector<PodKind> kinds;
  std::vector<Target> keys;  // the nameless form of each kind's first pod
  for (const auto& t : report.targets) {
    Target key = nameless(t);
    const auto found =
        std::find_if(keys.begin(), keys.end(), [&](const Target& k) { return alike(k, key); });
    if (found != keys.end()) {
      auto& kind = kinds[static_cast<std::size_t>(found - keys.begin())];
      if (kind.pods.size() == 1) {  // a second pod: the table speaks of <pod> and <node>
        kind.shown.summary = found->summary;
        kind.shown.findings = found->findings;
      }
      kind.pods.push_back(&t);
      continue;
    }
    kinds.push_back({{&t}, t});
    keys.push_back(std::move(key));
  }
  return kinds;
}

std::vector<PodKind> every_target(const Report& report) {
  std::vector<PodKind> kinds;
  for (const auto& t : report.targets) {
    kinds.push_back({{&t}, t});
  }
  return kinds;
}

std::string role_counts(const PodKind& kind) {
  std::vector<std::pair<std::string, std::size_t>> counts;
  for (const auto* t : kind.pods) {
    const std::string role = role_of(*t);
    auto it =
        std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == role; });
    if (it == counts.end())
      counts.emplace_back(role, 1);
    else
      ++it->second;
  }
  if (counts.size() == 1 && kind.pods.size() == 1)
    return counts[0].first;
  std::vector<std::string> parts;
  for (const auto& [role, n] : counts)
    parts.push_back(std::to_string(n) + " " + role);
  return join(parts);
}

}  // namespace icheck::report
