#pragma once
// `--matrix rails`: one pair's transfers from every prefill NIC to every decode NIC. JSON and
// YAML carry it in both pods' facts (`transferMatrix`, every cell); the table view prints it
// once, from the prefill pod's facts (prefill NICs as rows, decode NICs as columns).

#include "report/model.hpp"

#include <boost/json/object.hpp>
#include <optional>
#include <string>
#include <vector>

namespace icheck::report {

struct TransferMatrixCell {
  std::string prefill_nic, decode_nic;
  std::string state;           // "reached", "unreachable", "not run"
  std::optional<double> gbps;  // when data moved
  std::string status;          // the cell's own transfer verdict: ok, warn, fail, skipped
  std::string detail;          // the cell's one line (or why it did not run)
};

struct TransferMatrix {
  std::string prefill, decode;  // pod names
  std::string prefill_node, decode_node;
  std::string tool;  // "ucx_perftest", "NIXL Python API", ...
  std::vector<std::string> prefill_nics, decode_nics;
  std::string prefill_source, decode_source;  // where each side's NIC list came from
  std::vector<TransferMatrixCell> cells;      // row by row
};

// Every matrix in the report's targets' facts: heading, one row per prefill NIC, the legend;
// "" when there is none.
std::string render_matrices(const Report& report);

boost::json::object matrix_json(const TransferMatrix& m);

}  // namespace icheck::report
