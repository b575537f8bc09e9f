#include "check/known_trouble_pods.hpp"

#include "knowledge/evaluate.hpp"
#include "knowledge/finding.hpp"
#include "knowledge/load.hpp"
#include "rules/known/stack_facts.hpp"
#include "rules/known/stack_versions_rule.hpp"

#include <algorithm>
#include <set>

namespace icheck::check {
namespace {

constexpr std::size_t kMaxPairs = 64;  // prefill x decode pairs judged per run

bool has_finding(const report::Target& t, const report::Finding& f) {
  return std::any_of(t.findings.begin(), t.findings.end(), [&](const report::Finding& x) {
    return x.layer == f.layer && x.name == f.name && x.detail == f.detail;
  });
}

void add_unique(report::Target& t, report::Finding f) {
  if (!has_finding(t, f))
    t.findings.push_back(std::move(f));
}

rules::known::PodNetwork network_of(const kube::PodInfo& pod,
                                    const std::map<std::string, kube::NodeObject>& nodes) {
  rules::known::PodNetwork n;
  n.host_network = pod.host_network;
  n.host_ipc = pod.host_ipc;
  n.host_pid = pod.host_pid;
  n.pod_ip = pod.pod_ip;
  n.host_ip = pod.host_ip;
  if (auto it = nodes.find(pod.node); it != nodes.end()) {
    n.node_internal_ip = it->second.internal_ip;
    n.cloud = it->second.cloud;
  }
  return n;
}

// facts.kubeNode on the pod's target: what its node object said (only where it was read).
void add_node_fact(report::Target& target, const kube::PodInfo& pod,
                   const std::map<std::string, kube::NodeObject>& nodes) {
  auto it = nodes.find(pod.node);
  if (it == nodes.end())
    return;
  boost::json::object o;
  o["name"] = pod.node;
  o["internalIP"] = it->second.internal_ip.empty() ? boost::json::value(nullptr)
                                                   : boost::json::value(it->second.internal_ip);
  o["cloud"] =
      it->second.cloud.empty() ? boost::json::value(nullptr) : boost::json::value(it->second.cloud);
  target.facts["kubeNode"] = std::move(o);
}

// The index of the first RoCE v2 IPv4 GID of the pod's first Active Ethernet port; nullopt when
// none was read.
std::optional<int> roce_v2_index(const probe::NodeFacts& node) {
  for (const auto& g : node.roce_gids)
    if (g.v2() && g.ipv4())
      return g.index;
  return std::nullopt;
}

std::optional<bool> differs(const ProbedPod& a, const ProbedPod& b) {
  auto x = roce_v2_index(a.node), y = roce_v2_index(b.node);
  if (!x || !y)
    return std::nullopt;
  return *x != *y;
}

void add_pairs(PodRun& run, const std::vector<knowledge::FactMap>& facts) {
  std::size_t pairs = 0;
  for (std::size_t i = 0; i < run.probed.size(); ++i) {
    for (std::size_t j = 0; j < run.probed.size(); ++j) {
      auto& p = run.probed[i];
      auto& d = run.probed[j];
      if (run.pods[i].role != dynamo::Role::prefill || run.pods[j].role != dynamo::Role::decode)
        continue;
      // KV moves within one deployment: a run over a namespace never pairs two of them.
      if (run.pods[i].namespace_ != run.pods[j].namespace_ || run.pods[i].dgd != run.pods[j].dgd)
        continue;
      if (!p.parsed || !d.parsed || ++pairs > kMaxPairs)
        continue;
      std::optional<bool> same_node;
      if (!run.pods[i].node.empty() && !run.pods[j].node.empty())
        same_node = run.pods[i].node == run.pods[j].node;
      auto pair = rules::known::pair_facts(facts[i], facts[j], same_node, differs(p, d));
      for (const auto& hit : knowledge::evaluate(knowledge::trouble_rows(), pair)) {
        // Rows over one pod's facts fire on the pod itself; only rows over the pair go here.
        const bool pair_row =
            std::any_of(hit.row->when.begin(), hit.row->when.end(), [](const auto& c) {
              return c.fact.starts_with("pair.") || c.fact.starts_with("prefill.") ||
                     c.fact.starts_with("decode.");
            });
        if (!pair_row)
          continue;
        auto f = knowledge::to_finding(hit);
        auto on_p = f, on_d = f;
        on_p.detail = "with " + run.pods[j].name + ": " + f.detail;
        on_d.detail = "with " + run.pods[i].name + ": " + f.detail;
        add_unique(p.target, on_p);
        add_unique(d.target, on_d);
      }
    }
  }
}

}  // namespace

void add_known_trouble(PodRun& run) {
  const auto& nodes = run.nodes;  // read beside the probes (run_pods)
  std::vector<knowledge::FactMap> facts(run.probed.size());
  for (std::size_t i = 0; i < run.probed.size(); ++i) {
    auto& p = run.probed[i];
    if (!p.parsed)
      continue;
    const auto& pod = run.pods[i];
    facts[i] = rules::known::pod_facts(p.node, p.nixl, pod.command_line, p.backends,
                                       network_of(pod, nodes));
    add_node_fact(p.target, pod, nodes);
    for (auto& f : knowledge::to_findings(knowledge::evaluate(knowledge::trouble_rows(), facts[i])))
      add_unique(p.target, std::move(f));
    if (auto f = rules::known::stack_versions_finding(p.node.stack, facts[i], p.backends))
      add_unique(p.target, std::move(*f));
  }
  add_pairs(run, facts);
}

}  // namespace icheck::check
