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

// `--matrix nodes`: one transfer per (prefill node, decode node) pair. JSON and YAML carry it
// once, at the report's top (`transferNodeMatrix`, every cell); the table view prints it nodes by
// nodes.
struct NodeTransferMatrixCell {
  std::string prefill_node, decode_node;
  std::string prefill, decode;  // the pods that ran the cell
  std::string tool;
  std::string state;  // "reached", "unreachable", "not run"
  std::optional<double> gbps;
  std::string status;  // the cell's own transfer verdict
  std::string detail;
};

struct NodeTransferMatrix {
  std::vector<std::string> prefill_nodes, decode_nodes;  // rows, columns
  std::vector<NodeTransferMatrixCell> cells;             // one per tested node pair
};

// Every matrix in the report (the NIC matrices in its targets' facts, the node matrix at its
// top): heading, one row per prefill NIC or node, the legend; "" when there is none.
std::string render_matrices(const Report& report);

boost::json::object matrix_json(const TransferMatrix& m);
boost::json::object node_matrix_json(const NodeTransferMatrix& m);

}  // namespace icheck::report
