#include "rules/transfer/node_matrix.hpp"

#include "rules/transfer/matrix_parts.hpp"
#include "util/join.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace icheck::rules {
namespace {

using report::Finding;
using report::Status;

constexpr double kSlowShare = 0.5;  // as a slow rail (matrix_judge.cpp)
constexpr std::size_t kNamed = 4;

enum class State { reached, unreachable, not_run };

State state_of(const CellResult& r) {
  if (!r.ran)
    return State::not_run;
  return r.gbps ? State::reached : State::unreachable;
}

std::size_t index_in(std::vector<std::string>& list, const std::string& name) {
  auto it = std::find(list.begin(), list.end(), name);
  if (it != list.end())
    return static_cast<std::size_t>(it - list.begin());
  list.push_back(name);
  return list.size() - 1;
}

std::string arrow(const NodeCell& c) {
  return c.plan.prefill_node + " -> " + c.plan.decode_node;
}

using Part = MatrixPart;

// Every node of the matrix once, prefill nodes first.
std::vector<std::string> all_nodes(const NodeMatrix& m) {
  auto out = m.prefill_nodes;
  for (const auto& d : m.decode_nodes)
    if (std::find(out.begin(), out.end(), d) == out.end())
      out.push_back(d);
  return out;
}

bool touches(const NodeCell& c, const std::string& node) {
  return c.plan.prefill_node == node || c.plan.decode_node == node;
}

std::string peer_of(const NodeCell& c, const std::string& node) {
  return c.plan.prefill_node == node ? c.plan.decode_node : c.plan.prefill_node;
}

// Nodes that took part in a cell that ran, and reached in none.
std::vector<std::string> dead_nodes(const NodeMatrix& m, const std::vector<CellResult>& results) {
  std::vector<std::string> dead;
  for (const auto& node : all_nodes(m)) {
    bool tried = false, reached = false;
    for (std::size_t i = 0; i < m.cells.size(); ++i) {
      if (!touches(m.cells[i], node))
        continue;
      const auto s = state_of(results[i]);
      tried = tried || s == State::unreachable;
      reached = reached || s == State::reached;
    }
    if (tried && !reached)
      dead.push_back(node);
  }
  return dead;
}

void unreachable_parts(const NodeMatrix& m, const std::vector<CellResult>& results,
                       std::vector<Part>& parts) {
  const auto dead = dead_nodes(m, results);
  const auto nodes = all_nodes(m);
  std::vector<bool> covered(m.cells.size(), false);
  // Every node dead: no node is to blame more than another; the cells say it.
  if (dead.size() < nodes.size()) {
    for (const auto& node : dead) {
      std::vector<std::string> peers;
      for (std::size_t i = 0; i < m.cells.size(); ++i)
        if (touches(m.cells[i], node) && state_of(results[i]) == State::unreachable) {
          peers.push_back(peer_of(m.cells[i], node));
          covered[i] = true;
        }
      parts.push_back(
          {Status::fail,
           "node " + node + " reaches no peer node (tried " + join_first(peers, kNamed) + ")",
           "compare that node's KV NICs, routes and subnet with the others': "
           "kubectl dynamo-icheck node -o wide"});
    }
  }
  std::vector<std::string> rest;
  std::string first_why;
  for (std::size_t i = 0; i < m.cells.size(); ++i)
    if (!covered[i] && state_of(results[i]) == State::unreachable) {
      rest.push_back(arrow(m.cells[i]));
      if (first_why.empty())
        first_why = results[i].finding.detail;
    }
  if (!rest.empty())
    parts.push_back(
        {Status::fail,
         (rest.size() == m.cells.size() ? "no node pair connects: " : "cannot connect: ") +
             join_first(rest, kNamed) + " (" + first_why + ")",
         {}});
}

// A cell under half the mean of the other cells that moved data; a node whose every cell
// (two or more) is slow is named once instead of its cells.
void slow_parts(const NodeMatrix& m, const std::vector<CellResult>& results,
                std::vector<Part>& parts) {
  std::vector<std::size_t> moved;
  for (std::size_t i = 0; i < results.size(); ++i)
    if (results[i].gbps && state_of(results[i]) == State::reached)
      moved.push_back(i);
  if (moved.size() < 2)
    return;
  std::map<std::size_t, double> others_mean;
  for (auto i : moved) {
    double sum = 0;
    for (auto k : moved)
      if (k != i)
        sum += *results[k].gbps;
    const double mean = sum / static_cast<double>(moved.size() - 1);
    if (*results[i].gbps < kSlowShare * mean)
      others_mean[i] = mean;
  }
  if (others_mean.empty())
    return;
  std::set<std::size_t> named;
  for (const auto& node : all_nodes(m)) {
    std::vector<std::size_t> mine;
    bool all_slow = true;
    for (auto i : moved)
      if (touches(m.cells[i], node)) {
        mine.push_back(i);
        all_slow = all_slow && others_mean.count(i);
      }
    if (mine.size() < 2 || !all_slow)
      continue;
    double sum = 0, ref = 0;
    for (auto i : mine) {
      sum += *results[i].gbps;
      ref += others_mean[i];
      named.insert(i);
    }
    const auto n = static_cast<double>(mine.size());
    parts.push_back({Status::warn,
                     "slow node: " + node + " moves " + gbs_text(sum / n) +
                         " with each peer against " + gbs_text(ref / n) +
                         " between the other pairs",
                     "compare that node's KV ports (rate, errors, cable, PCIe) with the others': "
                     "kubectl dynamo-icheck node -o wide"});
  }
  for (const auto& [i, mean] : others_mean) {
    if (named.count(i))
      continue;
    parts.push_back({Status::warn,
                     "slow node pair: " + arrow(m.cells[i]) + " moves " +
                         gbs_text(*results[i].gbps) + " against " + gbs_text(mean) +
                         " between the other pairs",
                     "compare the two nodes' KV ports and the route between them: "
                     "kubectl dynamo-icheck node -o wide"});
  }
}

// The slowest pair that moved data, with its own verdict (its rate class) when that is worse.
void reached_part(const NodeMatrix& m, const std::vector<CellResult>& results,
                  std::vector<Part>& parts) {
  std::optional<std::size_t> worst;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    if (state_of(r) != State::reached)
      continue;
    const auto& w = worst ? results[*worst] : r;
    if (!worst || report::severity(r.finding.status) > report::severity(w.finding.status) ||
        (r.finding.status == w.finding.status && *r.gbps < *w.gbps))
      worst = i;
  }
  if (worst)
    parts.push_back(
        {results[*worst].finding.status,
         "slowest pair " + arrow(m.cells[*worst]) + ": " + results[*worst].finding.detail,
         results[*worst].finding.next});
}

void not_run_part(const NodeMatrix& m, const std::vector<CellResult>& results,
                  std::vector<Part>& parts) {
  std::vector<std::string> cells;
  std::string why;
  for (std::size_t i = 0; i < results.size(); ++i)
    if (state_of(results[i]) == State::not_run) {
      cells.push_back(arrow(m.cells[i]));
      if (why.empty())
        why = results[i].why_not;
    }
  if (!cells.empty())
    parts.push_back({Status::skipped,
                     std::to_string(cells.size()) + " of " + std::to_string(results.size()) +
                         " node pairs not run (" + join_first(cells, kNamed) + "): " + why,
                     {}});
}

}  // namespace

NodeMatrix node_matrix(const std::vector<TransferPlan>& plans) {
  NodeMatrix m;
  for (const auto& plan : plans) {
    NodeCell cell;
    cell.row = index_in(m.prefill_nodes, plan.prefill_node);
    cell.col = index_in(m.decode_nodes, plan.decode_node);
    cell.plan = plan;
    // A port of its own per cell, as --matrix rails: two cells of a wave never meet on one
    // (pods on the host network, a listener that outlived its cell).
    if (const int base = argv_port(plan.listener_argv); base != 0) {
      const int port = base + static_cast<int>(m.cells.size());
      cell.plan.listener_argv = with_port(plan.listener_argv, port);
      cell.plan.initiator_argv = with_port(plan.initiator_argv, port);
    }
    m.cells.push_back(std::move(cell));
  }
  return m;
}

std::vector<std::vector<std::size_t>> node_waves(const NodeMatrix& m, std::size_t parallel) {
  std::vector<TransferPlan> plans;
  for (const auto& c : m.cells)
    plans.push_back(c.plan);
  return transfer_waves(plans, parallel);
}

Finding judge_node_matrix(const NodeMatrix& m, const std::vector<CellResult>& results) {
  Finding f;
  f.name = "transfer";
  f.layer = report::Layer::nixl;
  f.is_transfer = true;
  const std::string shape = "node matrix " + std::to_string(m.prefill_nodes.size()) + "x" +
                            std::to_string(m.decode_nodes.size());
  if (m.cells.empty() || m.cells.size() != results.size()) {
    f.status = Status::skipped;
    f.detail = shape + ": no node pair to test";
    return f;
  }
  std::vector<Part> parts;
  unreachable_parts(m, results, parts);
  slow_parts(m, results, parts);
  reached_part(m, results, parts);
  not_run_part(m, results, parts);
  const auto texts = fold_parts(parts, f);
  f.detail = shape + " (" + std::to_string(m.cells.size()) + " node pairs): " + join(texts, "; ");
  return f;
}

report::NodeTransferMatrix node_matrix_view(const NodeMatrix& m,
                                            const std::vector<CellResult>& results) {
  report::NodeTransferMatrix v;
  v.prefill_nodes = m.prefill_nodes;
  v.decode_nodes = m.decode_nodes;
  static const char* names[] = {"reached", "unreachable", "not run"};
  for (std::size_t i = 0; i < m.cells.size() && i < results.size(); ++i) {
    const auto& c = m.cells[i];
    const auto& r = results[i];
    v.cells.push_back({c.plan.prefill_node, c.plan.decode_node, c.plan.prefill, c.plan.decode,
                       std::string(to_string(c.plan.tool)), names[static_cast<int>(state_of(r))],
                       r.gbps,
                       std::string(report::to_string(r.ran ? r.finding.status : Status::skipped)),
                       r.ran ? r.finding.detail : r.why_not});
  }
  return v;
}

}  // namespace icheck::rules
