#include "probe/transfer/transfer_numbers.hpp"
#include "probe/transfer/transfer_output.hpp"

namespace icheck::probe {
namespace {

using transfer_detail::numbers;

// Row fields after the label: iterations, three overhead (or latency) columns, bandwidth
// average and overall (MB/s), message rate average and overall. A row cut after the two
// bandwidth columns still counts.
constexpr std::size_t kOverallBandwidth = 5;

struct Row {
  bool final = false;
  std::vector<double> values;
};

std::optional<Row> result_row(std::string_view line, bool unlabelled_is_final) {
  auto t = text::trim(line);
  Row row;
  if (t.starts_with("[thread ")) {
    t = t.substr(t.find(']') + 1);
  } else if (t.starts_with("Final:")) {
    t.remove_prefix(6);
    row.final = true;
  } else if (t.starts_with('[') || t.empty()) {
    return std::nullopt;  // UCX log lines: "[1645557799.919658] [host:pid:0] ..."
  } else {
    row.final = unlabelled_is_final;
  }
  row.values = numbers(t);
  if (row.values.size() <= kOverallBandwidth) return std::nullopt;
  return row;
}

}  // namespace

std::optional<double> PerftestResult::gb_per_s() const {
  if (!mb_per_s) return std::nullopt;
  return *mb_per_s / 1000.0;
}

PerftestResult parse_ucx_perftest(std::string_view output) {
  PerftestResult out;
  bool in_table = false;
  bool unlabelled_is_final = false;  // "Test" header: -f prints one unlabelled final row
  for (auto line : text::lines(output)) {
    if (text::contains(line, "bandwidth (MB/s)")) in_table = true;
    if (text::contains(line, "|     Test     |")) unlabelled_is_final = true;
    if (!in_table) continue;
    auto row = result_row(line, unlabelled_is_final);
    if (!row) continue;
    ++out.rows;
    if (row->final || !out.final_row) out.mb_per_s = row->values[kOverallBandwidth];
    out.final_row = out.final_row || row->final;
  }
  return out;
}

}  // namespace icheck::probe
