#pragma once
// `--matrix nodes`: the transfer test once per distinct (prefill node, decode node) pair of the
// deployment (the pairs `--pairs all` plans, one pod per node), each cell the same test as a
// plain --transfer. A node whose routes differ from the rest shows only node by node: one that
// reaches no peer, one pair far slower than the others. Pure: plans and results in, the
// judgement and the matrix for the report out.

#include "report/model.hpp"
#include "report/transfer_matrix.hpp"
#include "rules/pair/pairing.hpp"
#include "rules/transfer/matrix.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace icheck::rules {

struct NodeCell {
  std::size_t row = 0, col = 0;  // index into prefill_nodes, decode_nodes
  TransferPlan plan;             // the pair's plain --transfer plan
};

// Rows are the prefill nodes, columns the decode nodes, each in the order the plans first name
// them; a cell per plan (a node pair no plan covers has no cell: the same node on both sides,
// or a pair --pairs all's cap left out).
struct NodeMatrix {
  std::vector<std::string> prefill_nodes, decode_nodes;
  std::vector<NodeCell> cells;
};
NodeMatrix node_matrix(const std::vector<TransferPlan>& plans);

// Groups of cell indices to run at once: no node and no pod in two cells of a group (a node's
// NICs carry one cell at a time), at most `parallel` per group, every cell once, in order.
std::vector<std::vector<std::size_t>> node_waves(const NodeMatrix& m, std::size_t parallel);

// The matrix judged (nixl layer, "transfer", is_transfer): a node that reaches no peer node
// fails naming it (and the nodes it was tried against); other cells that could not connect fail
// naming their pairs; a pair whose GB/s is under half the mean of the others' is slow (warn;
// a node slow with every peer is named once); the slowest pair's own verdict (its rate class);
// cells not run are skipped with why (never confirmed).
report::Finding judge_node_matrix(const NodeMatrix& m, const std::vector<CellResult>& results);

// The matrix for the report (table and JSON).
report::NodeTransferMatrix node_matrix_view(const NodeMatrix& m,
                                            const std::vector<CellResult>& results);

}  // namespace icheck::rules
