#include "rules/known/stack_versions_rule.hpp"

#include "util/join.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace icheck::rules::known {
namespace {

std::vector<std::string> disagreements(const probe::StackVersions& stack) {
  std::vector<std::string> out;
  for (const auto& [lib, copies] : stack.copies) {
    if (copies.size() < 2)
      continue;
    std::vector<std::string> seen;
    for (const auto& [version, where] : copies)
      seen.push_back(version + " (" + where + ")");
    out.push_back(lib + " " + join(seen, " and "));
  }
  // The nixl meta wheel re-exports one nixl-cuXX wheel's bindings: the two should agree.
  auto nixl = stack.version("nixl");
  for (const auto& [lib, copies] : stack.copies)
    if (!nixl.empty() && lib.starts_with("nixl-cu") && copies.size() == 1 &&
        copies.begin()->first != nixl)
      out.push_back("nixl " + nixl + " beside " + lib + " " + copies.begin()->first);
  return out;
}

// The libraries the pod's KV path depends on, by its backends.
std::vector<std::string> needed(const KvBackends& b) {
  std::vector<std::string> out;
  if (b.via_nixl())
    out.push_back("nixl");
  if (b.over_ucx())
    out.push_back("ucx");
  if (b.via_nixl() && b.uses("LIBFABRIC"))
    out.push_back("libfabric");
  if (b.library == "MOONCAKE")
    out.push_back("mooncake");
  return out;
}

}  // namespace

std::optional<report::Finding> stack_versions_finding(const probe::StackVersions& stack,
                                                      const knowledge::FactMap& facts,
                                                      const KvBackends& backends) {
  if (!stack.read)
    return std::nullopt;
  // Unknown versions are listed where the image holds a KV library the probe could name (a
  // wheel, a system UCX, libfabric, NCCL, Mooncake); an image with none of them says so in the
  // nixl layer's own install and versions findings.
  const bool any_kv_library =
      std::any_of(stack.copies.begin(), stack.copies.end(), [](const auto& c) {
        return c.first.starts_with("nixl") || c.first == "ucx.system" || c.first == "libfabric" ||
               c.first.starts_with("nccl") || c.first == "mooncake";
      });
  std::vector<std::string> unknown;
  for (const auto& lib : needed(backends))
    if (any_kv_library && !facts.get("version." + lib))
      unknown.push_back(lib);
  const auto disagree = disagreements(stack);
  if (disagree.empty() && unknown.empty())
    return std::nullopt;
  report::Finding f;
  f.name = "stack-versions";
  f.layer = report::Layer::nixl;
  f.status = report::Status::warn;
  std::string unknown_text = unknown.empty() ? ""
                                             : "version unknown: " + join(unknown) +
                                                   " (no known-trouble row can place it)";
  if (!disagree.empty()) {
    f.detail =
        "copies disagree: " + join(disagree, "; ") + (unknown.empty() ? "" : "; " + unknown_text);
    f.next =
        "install one version of each (pip list | grep -i nixl shows the wheels; the nixl wheel "
        "pins its nixl-cuXX wheel to the same version)";
  } else {
    f.detail = unknown_text;
    f.required = false;
  }
  return f;
}

}  // namespace icheck::rules::known
