#include "rules/transfer/matrix.hpp"
#include "rules/transfer/matrix_parts.hpp"
#include "util/join.hpp"

#include <algorithm>

namespace icheck::rules {
namespace {

using report::Finding;
using report::Status;

constexpr double kSlowRailShare = 0.5;
constexpr std::size_t kNamed = 4;  // cells named in one line, then "and N more"

enum class CellState { reached, unreachable, not_run };

CellState state_of(const CellResult& r) {
  if (!r.ran)
    return CellState::not_run;
  return r.gbps ? CellState::reached : CellState::unreachable;
}

std::string arrow(const MatrixCell& c) {
  return c.prefill_nic + " -> " + c.decode_nic;
}

using Part = MatrixPart;

struct Grid {
  const std::vector<MatrixCell>& cells;
  const std::vector<CellResult>& results;
  std::size_t rows, cols;

  CellState at(std::size_t r, std::size_t c) const { return state_of(results[r * cols + c]); }
  // Every cell of the line ran and none reached.
  bool dead_row(std::size_t r) const {
    for (std::size_t c = 0; c < cols; ++c)
      if (at(r, c) != CellState::unreachable)
        return false;
    return true;
  }
  bool dead_col(std::size_t c) const {
    for (std::size_t r = 0; r < rows; ++r)
      if (at(r, c) != CellState::unreachable)
        return false;
    return true;
  }
  bool rail_isolated() const {
    if (rows != cols || rows < 2)
      return false;
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c)
        if (at(r, c) != (r == c ? CellState::reached : CellState::unreachable))
          return false;
    return true;
  }
  // The mean figure of a row (or column) over its cells that moved data.
  std::optional<double> mean(std::size_t line, bool row) const {
    double sum = 0;
    int n = 0;
    for (std::size_t k = 0; k < (row ? cols : rows); ++k) {
      const auto& res = results[row ? line * cols + k : k * cols + line];
      if (res.gbps) {
        sum += *res.gbps;
        ++n;
      }
    }
    return n ? std::optional(sum / n) : std::nullopt;
  }
};

const std::string kAnyToAny =
    "the engine assumes any NIC reaches any NIC (kvcache-ai/Mooncake #166: \"Failed to select "
    "remote NIC\")";

void unreachable_parts(const Grid& g, const std::vector<std::string>& pn,
                       const std::vector<std::string>& dn, std::vector<Part>& parts) {
  if (g.rail_isolated()) {
    std::vector<std::string> diag;
    for (std::size_t i = 0; i < g.rows; ++i)
      diag.push_back(arrow(g.cells[i * g.cols + i]));
    parts.push_back({Status::fail,
                     "rail-isolated fabric: each prefill NIC reaches only the decode NIC of its "
                     "own rail (" +
                         join_first(diag, kNamed) + "); " + kAnyToAny,
                     "route every rail to every rail (or pin each GPU's KV to its own rail on "
                     "both sides), then run --matrix rails again"});
    return;
  }
  std::vector<bool> covered(g.cells.size(), false);
  for (std::size_t r = 0; r < g.rows; ++r)
    if (g.dead_row(r)) {
      parts.push_back({Status::fail,
                       "prefill NIC " + pn[r] + " reaches none of decode's NICs (" +
                           join_first(dn, kNamed) + ")",
                       {}});
      for (std::size_t c = 0; c < g.cols; ++c)
        covered[r * g.cols + c] = true;
    }
  for (std::size_t c = 0; c < g.cols; ++c)
    if (g.dead_col(c)) {
      parts.push_back({Status::fail,
                       "decode NIC " + dn[c] +
                           " is reached by none of prefill's "
                           "NICs (" +
                           join_first(pn, kNamed) + ")",
                       {}});
      for (std::size_t r = 0; r < g.rows; ++r)
        covered[r * g.cols + c] = true;
    }
  std::vector<std::string> rest;
  std::string first_why;
  for (std::size_t i = 0; i < g.cells.size(); ++i)
    if (!covered[i] && state_of(g.results[i]) == CellState::unreachable) {
      rest.push_back(arrow(g.cells[i]));
      if (first_why.empty())
        first_why = g.results[i].finding.detail;
    }
  if (!rest.empty())
    parts.push_back(
        {Status::fail, "cannot connect: " + join_first(rest, kNamed) + " (" + first_why + ")", {}});
}

void slow_rail_parts(const Grid& g, const std::vector<std::string>& names, bool row,
                     std::vector<Part>& parts) {
  const std::size_t n = row ? g.rows : g.cols;
  if (n < 2)
    return;
  for (std::size_t i = 0; i < n; ++i) {
    auto mine = g.mean(i, row);
    double sum = 0;
    int others = 0;
    for (std::size_t k = 0; k < n; ++k)
      if (auto m = g.mean(k, row); k != i && m) {
        sum += *m;
        ++others;
      }
    if (!mine || !others || *mine >= kSlowRailShare * (sum / others))
      continue;
    parts.push_back({Status::warn,
                     std::string("slow rail: ") + (row ? "prefill" : "decode") + " NIC " +
                         names[i] + " moves " + gbs_text(*mine) + " against " +
                         gbs_text(sum / others) + " on the other " + (row ? "prefill" : "decode") +
                         " NICs",
                     "compare that NIC's port (rate, errors, cable) with the others: "
                     "kubectl dynamo-icheck node -o wide"});
  }
}

// The slowest cell that moved data, with its own verdict when that is not ok.
void reached_parts(const Grid& g, std::vector<Part>& parts) {
  std::optional<std::size_t> worst;
  for (std::size_t i = 0; i < g.results.size(); ++i) {
    const auto& r = g.results[i];
    if (state_of(r) != CellState::reached)
      continue;
    if (!worst ||
        report::severity(r.finding.status) > report::severity(g.results[*worst].finding.status) ||
        (r.finding.status == g.results[*worst].finding.status && *r.gbps < *g.results[*worst].gbps))
      worst = i;
  }
  if (!worst)
    return;
  const auto& f = g.results[*worst].finding;
  parts.push_back({f.status, "slowest cell " + arrow(g.cells[*worst]) + ": " + f.detail, f.next});
}

void not_run_part(const Grid& g, std::vector<Part>& parts) {
  std::vector<std::string> cells;
  std::string why;
  for (std::size_t i = 0; i < g.results.size(); ++i)
    if (state_of(g.results[i]) == CellState::not_run) {
      cells.push_back(arrow(g.cells[i]));
      if (why.empty())
        why = g.results[i].why_not;
    }
  if (!cells.empty())
    parts.push_back({Status::skipped,
                     std::to_string(cells.size()) + " of " + std::to_string(g.results.size()) +
                         " cells not run (" + join_first(cells, kNamed) + "): " + why,
                     {}});
}

}  // namespace

Finding judge_matrix(const std::vector<MatrixCell>& cells, const std::vector<CellResult>& results,
                     const std::vector<std::string>& prefill_nics,
                     const std::vector<std::string>& decode_nics) {
  Finding f;
  f.name = "transfer";
  f.layer = report::Layer::nixl;
  f.is_transfer = true;
  const std::string shape = "NIC matrix " + std::to_string(prefill_nics.size()) + "x" +
                            std::to_string(decode_nics.size());
  if (cells.empty() || cells.size() != results.size() ||
      cells.size() != prefill_nics.size() * decode_nics.size()) {
    f.status = Status::skipped;
    f.detail = shape + ": no cell to test (a side has no NIC its engine may use)";
    return f;
  }
  const Grid g{cells, results, prefill_nics.size(), decode_nics.size()};
  std::vector<Part> parts;
  unreachable_parts(g, prefill_nics, decode_nics, parts);
  slow_rail_parts(g, prefill_nics, true, parts);
  slow_rail_parts(g, decode_nics, false, parts);
  reached_parts(g, parts);
  not_run_part(g, parts);
  const auto texts = fold_parts(parts, f);
  f.detail = shape + ": " + join(texts, "; ");
  return f;
}

report::TransferMatrix matrix_view(const TransferPlan& pair, const EngineNics& prefill,
                                   const EngineNics& decode, const std::vector<MatrixCell>& cells,
                                   const std::vector<CellResult>& results) {
  report::TransferMatrix m;
  m.prefill = pair.prefill;
  m.decode = pair.decode;
  m.prefill_node = pair.prefill_node;
  m.decode_node = pair.decode_node;
  m.tool = std::string(to_string(pair.tool));
  m.prefill_nics = prefill.nics;
  m.decode_nics = decode.nics;
  m.prefill_source = prefill.source;
  m.decode_source = decode.source;
  for (std::size_t i = 0; i < cells.size() && i < results.size(); ++i) {
    const auto& r = results[i];
    static const char* names[] = {"reached", "unreachable", "not run"};
    m.cells.push_back({cells[i].prefill_nic, cells[i].decode_nic,
                       names[static_cast<int>(state_of(r))], r.gbps,
                       std::string(report::to_string(r.ran ? r.finding.status : Status::skipped)),
                       r.ran ? r.finding.detail : r.why_not});
  }
  return m;
}

}  // namespace icheck::rules
