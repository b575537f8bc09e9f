#include "check/transfer_matrix.hpp"

#include "check/next_commands.hpp"
#include "exec/fanout.hpp"
#include "exec/interrupt.hpp"

#include <algorithm>

namespace icheck::check {
namespace {

using Clock = std::chrono::steady_clock;

rules::CellResult not_run(std::string why) {
  rules::CellResult r;
  r.why_not = std::move(why);
  r.finding.status = report::Status::skipped;
  r.finding.detail = r.why_not;
  return r;
}

rules::CellResult run_cell(const rules::MatrixCell& cell, const rules::PairRates& rates,
                           const TransferRunOptions& o) {
  const auto outcome = run_transfer(cell.plan, o);
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

}  // namespace

std::vector<rules::CellResult> run_matrix_cells(const std::vector<rules::MatrixCell>& cells,
                                                const rules::PairRates& rates,
                                                const MatrixRunOptions& o) {
  std::vector<rules::CellResult> results(cells.size());
  const auto start = Clock::now();
  for (const auto& wave : rules::matrix_waves(cells, o.parallel)) {
    const auto elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    const auto cell_s = std::chrono::seconds(cells[wave.front()].plan.timeout_s);
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
      else if (!cell.not_pinnable.empty())
        results[wave[i]] = not_run(cell.not_pinnable);
      else
        results[wave[i]] = run_cell(cell, rates, o.transfer);
    });
  }
  return results;
}

report::Finding run_pair_matrix(PodRun& run, const rules::TransferPlan& plan,
                                const rules::PairRates& rates, const Options& options) {
  const auto prefill = nics_of(run, plan.prefill);
  const auto decode = nics_of(run, plan.decode);
  const auto cells = rules::plan_matrix_cells(plan, prefill.nics, decode.nics);
  MatrixRunOptions o;
  o.transfer.pod_exec = run.pod_exec.get();
  o.budget = options.matrix_budget;
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
