#include "check/node_objects.hpp"

#include "exec/child.hpp"

#include <algorithm>

namespace icheck::check {
namespace {

constexpr std::size_t kOutputCap = 32u << 20;  // a GPU node's object lists its images: ~100 KB
constexpr std::chrono::milliseconds kDeadline{15'000};

// An RFC 1123 subdomain: 1 to 253 of [-a-z0-9.], starting and ending with [a-z0-9].
bool is_node_name(const std::string& name) {
  auto alnum = [](char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9'); };
  return !name.empty() && name.size() <= 253 && alnum(name.front()) && alnum(name.back()) &&
         std::all_of(name.begin(), name.end(),
                     [&](char ch) { return alnum(ch) || ch == '-' || ch == '.'; });
}

}  // namespace

std::vector<std::string> node_names(const std::vector<kube::PodInfo>& pods) {
  std::vector<std::string> names;
  for (const auto& pod : pods) {
    if (names.size() == kMaxNodes)
      break;
    if (is_node_name(pod.node) && std::find(names.begin(), names.end(), pod.node) == names.end())
      names.push_back(pod.node);
  }
  return names;
}

std::map<std::string, kube::NodeObject> read_node_objects(const KubeSession& session,
                                                          const std::vector<kube::PodInfo>& pods) {
  const auto names = node_names(pods);
  if (names.empty())
    return {};
  exec::ChildSpec spec;
  spec.argv = session.base;
  spec.argv.insert(spec.argv.end(), {"get", "nodes"});
  spec.argv.insert(spec.argv.end(), names.begin(), names.end());
  spec.argv.insert(spec.argv.end(), {"-o", "json"});
  spec.deadline = std::min(session.timeout, kDeadline);
  spec.output_cap = kOutputCap;
  const auto got = exec::run_child(spec);
  if (got.timed_out || got.truncated || got.interrupted || got.not_found)
    return {};
  // Some names NotFound or forbidden: kubectl prints the others and exits 1; each read counts.
  return kube::parse_node_objects(got.out);
}

}  // namespace icheck::check
