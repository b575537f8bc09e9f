#pragma once
// `--matrix rails`: every NIC the prefill side's engine may use against every NIC the decode
// side's may use, one transfer per (prefill NIC, decode NIC) cell, each pinned to its two
// devices (UCX_NET_DEVICES). Multi-rail fabrics fail in ways one path cannot show: a
// rail-isolated fabric where mlx5_0 reaches only mlx5_0 (kvcache-ai/Mooncake #166), one slow
// rail among eight. Pure: facts and a pair's plan in, cells and findings out.

#include "probe/facts.hpp"
#include "report/model.hpp"
#include "report/transfer_matrix.hpp"
#include "rules/node/node.hpp"
#include "rules/pair/pairing.hpp"
#include "rules/transfer/transfer_rules.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace icheck::rules {

// The NICs a pod's engine may use, as UCX_NET_DEVICES spells them (mlx5_0:1, or an interface
// name for UCX's tcp): the pod's UCX_NET_DEVICES, else SGLang's --disaggregation-ib-device,
// else every Active port of the NICs that carry KV (GPU-facing).
struct EngineNics {
  std::vector<std::string> nics;
  std::string source;  // "UCX_NET_DEVICES", "--disaggregation-ib-device", "Active GPU-facing ports"
};
EngineNics engine_nics(const probe::NodeFacts& facts, const NodeContext& ctx,
                       const std::vector<std::string>& ib_devices);

struct MatrixCell {
  std::size_t row = 0, col = 0;  // prefill NIC index, decode NIC index
  std::string prefill_nic, decode_nic;
  int port = 0;              // the listener's port: distinct for every cell
  TransferPlan plan;         // the pair's plan, pinned to the two NICs and the port
  std::string not_pinnable;  // set when the tool cannot be pinned (the cell is not run)
};

// Cells row by row. Ports are the tool's own port plus the cell's index, so no two cells of a
// wave share one. A tool other than ucx_perftest, the NIXL Python test or nixlbench (ASIO)
// gives cells with not_pinnable set.
std::vector<MatrixCell> plan_matrix_cells(const TransferPlan& pair,
                                          const std::vector<std::string>& prefill_nics,
                                          const std::vector<std::string>& decode_nics);

// `-- timeout N TOOL ARGS` becomes `-- timeout N env UCX_NET_DEVICES=DEV TOOL ARGS`, and the
// value after the port flag (-p, --port, --asio_port) becomes `port`. Empty when the argv has
// no such shape.
std::vector<std::string> pin_argv(const std::vector<std::string>& argv, const std::string& device,
                                  int port);

// The value after the argv's port flag (-p, --port, --asio_port): 0 when it has none; and the
// argv with that value replaced by `port` (unchanged when it has none).
int argv_port(const std::vector<std::string>& argv);
std::vector<std::string> with_port(const std::vector<std::string>& argv, int port);

// Groups of cell indices to run at once: no NIC (prefill or decode) in two cells of a group,
// at most `parallel` per group, every cell in exactly one group, in order.
std::vector<std::vector<std::size_t>> matrix_waves(const std::vector<MatrixCell>& cells,
                                                   std::size_t parallel);

// One cell after it ran (or did not).
struct CellResult {
  bool ran = false;            // both sides started; false: why_not says why
  std::string why_not;         // budget, interrupt, a side that could not start, not pinnable
  std::optional<double> gbps;  // the figure, when data moved
  report::Finding finding;     // judge_transfer's verdict on the cell
};

// The matrix judged (nixl layer, "transfer"): a cell that cannot connect fails naming its NICs;
// a row or column that never connects, or only the diagonal connecting (rail isolation), fails
// so; a row or column under half the others' is a slow rail (warn); a cell that could not run
// is skipped with why (never confirmed). Every finding has is_transfer set.
report::Finding judge_matrix(const std::vector<MatrixCell>& cells,
                             const std::vector<CellResult>& results,
                             const std::vector<std::string>& prefill_nics,
                             const std::vector<std::string>& decode_nics);

// The matrix for the report (table and JSON).
report::TransferMatrix matrix_view(const TransferPlan& pair, const EngineNics& prefill,
                                   const EngineNics& decode, const std::vector<MatrixCell>& cells,
                                   const std::vector<CellResult>& results);

}  // namespace icheck::rules
