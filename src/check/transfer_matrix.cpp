#include "check/transfer_matrix.hpp"

#include "check/next_commands.hpp"
#include "exec/fanout.hpp"
#include "exec/interrupt.hpp"

#include <algorithm>

namespace icheck::check {
namespace {

using Clock = std::chrono::steady_clock;

// One cell for run_in_waves: its plan, why it cannot run (when it cannot), its link's rates.
struct WaveCell {
  const rules::TransferPlan* plan = nullptr;
  std::string not_runnable;
  rules::PairRates rates;
};

rules::CellResult not_run(std::string why) {
  rules::CellResult r;
  r.why_not = std::move(why);
  r.finding.status = report::Status::skipped;
  r.finding.detail = r.why_not;
  return r;
}

rules::CellResult run_cell(const rules::TransferPlan& plan, const rules::PairRates& rates,
                           const TransferRunOptions& o) {
  const auto outcome = run_transfer(plan, o);
  rules::CellResult r;
  r.ran = outcome.listener.ran && outcome.initiator.ran;
  if (!r.ran)
    r.why_not = !outcome.listener.ran
                    ? "decode side did not start: " + outcome.listener.start_error
                    : "prefill side did not start: " + outcome.initiator.start_error;
  r.gbps = rules::transfer_gbps(outcome);
  r.finding = rules::judge_transfer(outcome, rates);
  return r;
}

std::string budget_text(std::chrono::milliseconds ms) {
  return std::to_string(ms.count() / 1000) + " s";
}

const probe::NodeFacts* facts_of(const PodRun& run, const std::string& pod,
                                 const std::vector<std::string>** ib_devices) {
  for (const auto& p : run.probed)
    if (p.parsed && p.probe.pod.name == pod) {
      *ib_devices = &p.backends.ib_devices;
      return &p.node;
    }
  return nullptr;
}

rules::EngineNics nics_of(const PodRun& run, const std::string& pod) {
  const std::vector<std::string>* ib = nullptr;
  const auto* facts = facts_of(run, pod, &ib);
  if (!facts)
    return {};
  rules::NodeContext ctx;
  ctx.disagg = run.disagg;
  return rules::engine_nics(*facts, ctx, *ib);
}

// Wave after wave while the budget still holds a whole cell (its plan's timeout); an interrupt
// starts no further wave; cells of one wave at once.
std::vector<rules::CellResult> run_in_waves(const std::vector<WaveCell>& cells,
                                            const std::vector<std::vector<std::size_t>>& waves,
                                            const MatrixRunOptions& o) {
  std::vector<rules::CellResult> results(cells.size());
  const auto start = Clock::now();
  for (const auto& wave : waves) {
    if (wave.empty())
      continue;
    const auto elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    const auto cell_s = std::chrono::seconds(cells[wave.front()].plan->timeout_s);
    std::string why;
    if (exec::interrupt_signal() != 0)
      why = "interrupted before this cell ran";
    else if (elapsed + cell_s > o.budget)
      why = "the --matrix-budget of " + budget_text(o.budget) + " ran out before this cell (" +
            budget_text(elapsed) + " spent, a cell may take " + budget_text(cell_s) + ")";
    exec::FanoutOptions fan;
    fan.parallel = wave.size();
    exec::parallel_for(wave.size(), fan, [&](std::size_t i) {
      const auto& cell = cells[wave[i]];
      if (!why.empty())
        results[wave[i]] = not_run(why);
      else if (!cell.not_runnable.empty())
        results[wave[i]] = not_run(cell.not_runnable);
      else
        results[wave[i]] = run_cell(*cell.plan, cell.rates, o.transfer);
    });
  }
  return results;
}

}  // namespace

std::vector<rules::CellResult> run_matrix_cells(const std::vector<rules::MatrixCell>& cells,
                                                const rules::PairRates& rates,
                                                const MatrixRunOptions& o) {
  std::vector<WaveCell> runs;
  for (const auto& c : cells)
    runs.push_back({&c.plan, c.not_pinnable, rates});
  return run_in_waves(runs, rules::matrix_waves(cells, o.parallel), o);
}

report::Finding run_pair_matrix(PodRun& run, const rules::TransferPlan& plan,
                                const rules::PairRates& rates, std::chrono::milliseconds budget) {
  const auto prefill = nics_of(run, plan.prefill);
  const auto decode = nics_of(run, plan.decode);
  const auto cells = rules::plan_matrix_cells(plan, prefill.nics, decode.nics);
  MatrixRunOptions o;
  o.transfer.pod_exec = run.pod_exec.get();
  o.budget = budget;
  const auto results = run_matrix_cells(cells, rates, o);
  const auto matrix =
      report::matrix_json(rules::matrix_view(plan, prefill, decode, cells, results));
  for (auto& p : run.probed)
    if (p.probe.pod.name == plan.prefill || p.probe.pod.name == plan.decode)
      p.target.facts["transferMatrix"] = matrix;
  auto f = rules::judge_matrix(cells, results, prefill.nics, decode.nics);
  f.detail = std::string(rules::to_string(plan.tool)) + " " + plan.prefill + " -> " + plan.decode +
             ", " + f.detail;
  return f;
}

report::Finding run_node_matrix(PodRun& run, const std::vector<rules::TransferPlan>& plans,
                                const std::vector<rules::PairRates>& rates, const Options& options,
                                report::Report& report) {
  const auto m = rules::node_matrix(plans);
  MatrixRunOptions o;
  o.transfer.pod_exec = run.pod_exec.get();
  o.budget = options.matrix_budget;
  std::vector<WaveCell> runs;
  for (std::size_t i = 0; i < m.cells.size(); ++i)
    runs.push_back({&m.cells[i].plan,
                    m.cells[i].plan.runnable
                        ? std::string()
                        : "the pair's test cannot run: " + m.cells[i].plan.tool_note,
                    i < rates.size() ? rates[i] : rules::PairRates{}});
  const auto results = run_in_waves(runs, rules::node_waves(m, o.parallel), o);
  report.transfer_node_matrix = report::node_matrix_json(rules::node_matrix_view(m, results));
  return rules::judge_node_matrix(m, results);
}

std::optional<report::Finding> rails_untested(const PodRun& run, const rules::TransferPlan& plan,
                                              const Options& options) {
  const auto prefill = nics_of(run, plan.prefill);
  const auto decode = nics_of(run, plan.decode);
  if (!options.matrix.empty() || prefill.nics.size() < 2 || decode.nics.size() < 2)
    return std::nullopt;
  report::Finding f;
  f.name = "transfer rails";
  f.layer = report::Layer::nixl;
  f.status = report::Status::warn;
  f.required = false;
  f.detail = "the transfer took one path, but the engines may use " +
             std::to_string(prefill.nics.size()) + " NICs (prefill, " + prefill.source + ") and " +
             std::to_string(decode.nics.size()) + " (decode, " + decode.source +
             "): a rail-isolated fabric or one slow rail shows only NIC by NIC";
  f.next = plugin_command(
      "nixl --transfer --matrix rails --pair " + plan.prefill + "," + plan.decode, options);
  return f;
}

}  // namespace icheck::check
