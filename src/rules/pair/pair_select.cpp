// Which pairs `nixl --transfer` tests: every node with a prefill or decode pod in at least one
// cross-node test, with as few tests as that takes (pairing.hpp).
#include "rules/pair/pairing.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace icheck::rules {
namespace {

using Indices = std::vector<std::size_t>;

struct Nodes {
  std::map<std::string, Indices> prefill; // node -> its prefill pods (with an IP)
  std::map<std::string, Indices> decode;
  std::set<std::string> all;
};

Nodes group_by_node(const std::vector<PairCandidate>& pods) {
  Nodes n;
  for (std::size_t i = 0; i < pods.size(); ++i) {
    if (pods[i].pod_ip.empty())
      continue;
    if (pods[i].role == dynamo::Role::prefill)
      n.prefill[pods[i].node].push_back(i);
    else if (pods[i].role == dynamo::Role::decode)
      n.decode[pods[i].node].push_back(i);
    else
      continue;
    n.all.insert(pods[i].node);
  }
  return n;
}

using NodePair = std::pair<std::string, std::string>; // prefill node, decode node

// Kuhn's augmenting paths: prefill nodes matched to distinct decode nodes on other nodes.
std::vector<NodePair> max_matching(const Nodes& n) {
  std::map<std::string, std::string> owner; // decode node -> prefill node
  std::function<bool(const std::string&, std::set<std::string>&)> augment =
      [&](const std::string& p, std::set<std::string>& seen) {
        for (const auto& [d, _] : n.decode) {
          if (d == p || !seen.insert(d).second)
            continue;
          if (!owner.count(d) || augment(owner[d], seen)) {
            owner[d] = p;
            return true;
          }
        }
        return false;
      };
  for (const auto& [p, _] : n.prefill) {
    std::set<std::string> seen;
    augment(p, seen);
  }
  std::vector<NodePair> out;
  for (const auto& [d, p] : owner)
    out.emplace_back(p, d);
  std::sort(out.begin(), out.end());
  return out;
}

std::map<std::string, int> uses(const std::vector<NodePair>& pairs) {
  std::map<std::string, int> u;
  for (const auto& [p, d] : pairs) {
    ++u[p];
    ++u[d];
  }
  return u;
}

// A partner on another node for a node the matching left out, the least used first.
std::optional<NodePair> extra_pair(const std::string& node, const Nodes& n,
                                   const std::vector<NodePair>& pairs) {
  auto u = uses(pairs);
  std::optional<NodePair> best;
  std::string best_partner;
  auto consider = [&](const NodePair& candidate, const std::string& partner) {
    if (partner == node || (best && u[partner] >= u[best_partner]))
      return;
    best = candidate;
    best_partner = partner;
  };
  if (n.prefill.count(node))
    for (const auto& [d, _] : n.decode)
      consider({node, d}, d);
  if (!best && n.decode.count(node))
    for (const auto& [p, _] : n.prefill)
      consider({p, node}, p);
  return best;
}

// Drops pairs whose two nodes the other pairs cover already (last first).
void drop_redundant(std::vector<NodePair>& pairs) {
  for (std::size_t i = pairs.size(); i-- > 0;) {
    auto u = uses(pairs);
    if (u[pairs[i].first] > 1 && u[pairs[i].second] > 1)
      pairs.erase(pairs.begin() + static_cast<long>(i));
  }
}

std::vector<NodePair> cover(const Nodes& n, std::vector<std::string>& uncovered) {
  auto pairs = max_matching(n);
  for (const auto& node : n.all) {
    if (uses(pairs).count(node))
      continue;
    if (auto extra = extra_pair(node, n, pairs))
      pairs.push_back(*extra);
    else
      uncovered.push_back(node);
  }
  drop_redundant(pairs);
  return pairs;
}

// On each node, the pods whose tool is best for the pair (a leader before its worker pods); the
// first by name on a tie.
PodPair pick_pods(const NodePair& nodes, const Nodes& n, const std::vector<PairCandidate>& pods,
                  const PairingOptions& o) {
  PodPair best{n.prefill.at(nodes.first).front(), n.decode.at(nodes.second).front()};
  auto tool_of = [&](const PodPair& pp) {
    return plan_for(pods[pp.prefill], pods[pp.decode], o).tool;
  };
  // The better tool, then a multinode worker's leader over its worker pods.
  auto rank = [&](const PodPair& pp) {
    return std::pair{static_cast<int>(tool_of(pp)),
                     multinode_workers(pods[pp.prefill], pods[pp.decode])};
  };
  auto best_rank = rank(best);
  for (auto p : n.prefill.at(nodes.first))
    for (auto d : n.decode.at(nodes.second))
      if (auto r = rank({p, d}); r < best_rank) {
        best = {p, d};
        best_rank = r;
      }
  return best;
}

std::optional<std::size_t> index_of(const std::vector<PairCandidate>& pods,
                                    const std::string& name) {
  for (std::size_t i = 0; i < pods.size(); ++i)
    if (pods[i].pod == name)
      return i;
  return std::nullopt;
}

} // namespace

PairSelection select_pairs(const std::vector<PairCandidate>& pods, const PairingOptions& o) {
  PairSelection sel;
  const auto n = group_by_node(pods);
  std::vector<NodePair> nodes;
  if (o.mode == PairMode::all) {
    for (const auto& [p, _] : n.prefill)
      for (const auto& [d, __] : n.decode)
        if (p != d)
          nodes.emplace_back(p, d);
    if (nodes.size() > o.max_pairs) {
      sel.cut = "--pairs all: " + std::to_string(nodes.size()) + " node pairs, the first " +
                std::to_string(o.max_pairs) + " tested";
      nodes.resize(o.max_pairs);
    }
  } else {
    nodes = cover(n, sel.uncovered);
  }
  for (const auto& np : nodes)
    sel.pairs.push_back(pick_pods(np, n, pods, o));
  if (sel.pairs.empty()) { // no two nodes: the best single pair, on one node
    auto single = plan_transfer(pods, o);
    auto p = index_of(pods, single.prefill);
    auto d = index_of(pods, single.decode);
    if (single.found && p && d)
      sel.pairs.push_back({*p, *d});
    sel.uncovered.clear();
  }
  return sel;
}

TransferPlans plan_transfers(const std::vector<PairCandidate>& pods, const PairingOptions& o) {
  TransferPlans out;
  if (o.pair) {
    auto plan = plan_transfer(pods, o);
    if (plan.found)
      out.plans.push_back(std::move(plan));
    else
      out.why_not = plan.why_not;
    return out;
  }
  auto sel = select_pairs(pods, o);
  for (const auto& pp : sel.pairs)
    out.plans.push_back(plan_for(pods[pp.prefill], pods[pp.decode], o));
  if (out.plans.empty())
    out.why_not = plan_transfer(pods, o).why_not;
  for (const auto& node : sel.uncovered)
    out.notes.push_back("node " + node +
                        " is in no cross-node pair (no prefill or decode pod on another node)");
  if (!sel.cut.empty())
    out.notes.push_back(sel.cut);
  return out;
}

std::vector<std::vector<std::size_t>> transfer_waves(const std::vector<TransferPlan>& plans,
                                                     std::size_t parallel) {
  std::vector<std::vector<std::size_t>> waves;
  std::vector<bool> placed(plans.size(), false);
  std::size_t left = plans.size();
  while (left > 0) {
    std::vector<std::size_t> wave;
    std::set<std::string> busy;
    for (std::size_t i = 0; i < plans.size() && wave.size() < std::max<std::size_t>(parallel, 1);
         ++i) {
      const auto& p = plans[i];
      const std::vector<std::string> keys = {"node/" + p.prefill_node, "node/" + p.decode_node,
                                             "pod/" + p.prefill, "pod/" + p.decode};
      if (placed[i] ||
          std::any_of(keys.begin(), keys.end(), [&](const auto& k) { return busy.count(k); }))
        continue;
      busy.insert(keys.begin(), keys.end());
      wave.push_back(i);
      placed[i] = true;
      --left;
    }
    waves.push_back(std::move(wave));
  }
  return waves;
}

} // namespace icheck::rules
