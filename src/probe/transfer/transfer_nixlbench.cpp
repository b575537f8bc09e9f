#include "probe/transfer/transfer_numbers.hpp"
#include "probe/transfer/transfer_output.hpp"

#include <algorithm>
#include <cmath>

namespace icheck::probe {
namespace {

using transfer_detail::numbers;
using transfer_detail::strip_stamp;

// Header cells are separated by two or more blanks (or '|'); names have single blanks.
std::vector<std::string_view> header_cells(std::string_view line) {
  std::vector<std::string_view> cells;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '|')) ++i;
    if (i >= line.size()) break;
    auto start = i;
    while (i < line.size() && line[i] != '|' && line[i] != '\t' &&
           !(line[i] == ' ' && i + 1 < line.size() && line[i + 1] == ' '))
      ++i;
    cells.push_back(text::trim(line.substr(start, i - start)));
  }
  return cells;
}

struct Columns {
  std::size_t block = 0, batch = 1, bw = 2;
};

std::optional<Columns> header_columns(std::string_view line) {
  if (!text::contains(line, "Block Size (B)") || !text::contains(line, "B/W (GB/Sec)"))
    return std::nullopt;
  auto cells = header_cells(line);
  Columns c;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i] == "Block Size (B)") c.block = i;
    else if (cells[i] == "Batch Size") c.batch = i;
    else if (cells[i] == "B/W (GB/Sec)") c.bw = i;
  }
  return c;
}

// A block or batch size as nixlbench prints it: a whole number from 0 to 2^53. Anything else
// (1e38, nan, a negative) is not a size; converting it would be undefined behaviour.
std::optional<long long> as_count(double v) {
  if (!std::isfinite(v) || v < 0 || v > 9007199254740992.0 || v != std::floor(v))
    return std::nullopt;
  return static_cast<long long>(v);
}

}  // namespace

std::optional<double> NixlbenchResult::gb_per_s() const {
  if (rows.empty()) return std::nullopt;
  const NixlbenchRow* best = &rows.front();
  for (const auto& r : rows)
    if (r.block_size > best->block_size ||
        (r.block_size == best->block_size && r.gb_per_s > best->gb_per_s))
      best = &r;
  return best->gb_per_s;
}

std::optional<double> NixlbenchResult::max_gb_per_s() const {
  if (rows.empty()) return std::nullopt;
  return std::max_element(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
           return a.gb_per_s < b.gb_per_s;
         })->gb_per_s;
}

NixlbenchResult parse_nixlbench(std::string_view output) {
  NixlbenchResult out;
  std::optional<Columns> cols;
  for (auto raw : text::lines(output)) {
    auto line = strip_stamp(raw);
    if (auto c = header_columns(line)) {
      cols = c;
      continue;
    }
    if (!cols) continue;
    auto n = numbers(line);
    if (n.size() <= std::max({cols->block, cols->batch, cols->bw})) continue;
    auto block = as_count(n[cols->block]);
    auto batch = as_count(n[cols->batch]);
    if (!block || !batch)
      continue;  // not a size nixlbench prints: not a result row
    out.rows.push_back({*block, *batch, n[cols->bw]});
  }
  return out;
}

}  // namespace icheck::probe
