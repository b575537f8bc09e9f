#pragma once
// `nixl --transfer --matrix rails|nodes|full`: the tested pair's transfer once per (prefill NIC,
// decode NIC) cell (rules/transfer/matrix.hpp), or once per (prefill node, decode node) pair
// (rules/transfer/node_matrix.hpp); cells on distinct NICs (nodes) at the same time, wave after
// wave while the --matrix-budget lasts; each cell bounded like one transfer (transfer_run.hpp),
// and an interrupt starts no further wave.

#include "check/options.hpp"
#include "check/pod_pipeline.hpp"
#include "check/transfer_run.hpp"
#include "report/model.hpp"
#include "rules/transfer/matrix.hpp"
#include "rules/transfer/node_matrix.hpp"

#include <chrono>
#include <optional>
#include <vector>

namespace icheck::check {

struct MatrixRunOptions {
  TransferRunOptions transfer;
  std::chrono::milliseconds budget{600'000};  // every wave together
  std::size_t parallel = 8;                   // cells at once (on distinct NICs)
};

// Every cell, results[i] for cells[i]; cells not run say why (budget, interrupt, not pinnable).
std::vector<rules::CellResult> run_matrix_cells(const std::vector<rules::MatrixCell>& cells,
                                                const rules::PairRates& rates,
                                                const MatrixRunOptions& options);

// The pair's matrix: its NICs from the two pods' facts, the cells run and judged; the matrix
// goes into both pods' facts (`transferMatrix`), the finding (rules::judge_matrix) is returned.
// `budget`: what is left of --matrix-budget (all of it for --matrix rails).
report::Finding run_pair_matrix(PodRun& run, const rules::TransferPlan& plan,
                                const rules::PairRates& rates, std::chrono::milliseconds budget);

// `--matrix nodes`: every plan (one per node pair, rules/transfer/node_matrix.hpp) a cell,
// rates[i] for plans[i]; cells on distinct nodes and pods at once, waves under --matrix-budget.
// The matrix goes to report.transfer_node_matrix; the judgement is returned.
report::Finding run_node_matrix(PodRun& run, const std::vector<rules::TransferPlan>& plans,
                                const std::vector<rules::PairRates>& rates, const Options& options,
                                report::Report& report);

// After a plain --transfer (no --matrix) of a pair whose engines may each use more than one NIC:
// an optional warn that the test took one path of many, naming --matrix rails for this pair
// (rail isolation and a slow rail show only NIC by NIC). nullopt for single-NIC pods.
std::optional<report::Finding> rails_untested(const PodRun& run, const rules::TransferPlan& plan,
                                              const Options& options);

}  // namespace icheck::check
