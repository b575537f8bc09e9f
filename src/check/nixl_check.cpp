#include "check/nixl_check.hpp"

#include "check/next_commands.hpp"
#include "check/pod_pipeline.hpp"
#include "check/transfer_matrix.hpp"
#include "check/transfer_run.hpp"
#include "rules/nixl/nixl_rules.hpp"
#include "rules/pair/pairing.hpp"
#include "rules/rdma_access/mooncake.hpp"
#include "rules/transfer/transfer_rules.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

namespace icheck::check {
namespace {

// --matrix nodes plans every (prefill node, decode node) pair up to this many.
constexpr std::size_t kMaxNodePairs = 1024;

rules::NodeContext node_context(const PodRun& run) {
  rules::NodeContext context;
  context.disagg = run.disagg;
  return context;
}

// ucx_info -v printed its configure line and it has no --with-cuda.
bool ucx_without_cuda(const probe::NodeFacts& facts) {
  const auto& v = facts.ucx_version;
  return v && !v->configured_with.empty() && !v->with_cuda;
}

std::vector<rules::PairCandidate> candidates(const PodRun& run) {
  std::vector<rules::PairCandidate> list;
  for (const auto& p : run.probed) {
    if (p.parsed) {
      const auto& pod = p.probe.pod;
      list.push_back({pod.name, pod.namespace_, pod.node, pod.pod_ip, pod.role, pod.container,
                      p.nixl, p.backends.names, p.backends.library, pod.multinode,
                      pod.multinode_group, rules::kv_gpu_index(p.node, node_context(run)),
                      ucx_without_cuda(p.node)});
    }
  }
  return list;
}

// The NIXL Python test's data pattern is derived from this: a run never checks a buffer that an
// earlier run (or another pair) left behind.
std::string run_seed() {
  std::random_device rd;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%08x%08x", rd(), rd());
  return buf;
}

ProbedPod* find(PodRun& run, const std::string& name) {
  auto it = std::find_if(run.probed.begin(), run.probed.end(),
                         [&](const ProbedPod& p) { return p.probe.pod.name == name; });
  return it == run.probed.end() ? nullptr : &*it;
}

// What the pair's KV ports carry: the slower side's slowest port, the smaller side's sum.
rules::PairRates pair_rates(PodRun& run, const rules::TransferPlan& plan) {
  rules::PairRates rates;
  for (const auto& name : {plan.prefill, plan.decode}) {
    const auto* p = find(run, name);
    if (!p || !p->parsed) continue;
    if (auto r = rules::kv_line_rate_gbps(p->node, node_context(run)))
      rates.port_gbps = rates.port_gbps ? std::min(*rates.port_gbps, *r) : *r;
    if (auto r = rules::kv_ports_sum_gbps(p->node, node_context(run)))
      rates.sum_gbps = rates.sum_gbps ? std::min(*rates.sum_gbps, *r) : *r;
  }
  return rates;
}

// The NIXL Python test is this plugin's own script (kilobytes of Python in each argv): its
// next step is the plugin run for that one pair, not the two raw commands.
std::string rerun_pair(const rules::TransferPlan& plan, const Options& options) {
  return plugin_command("nixl --transfer --pair " + plan.prefill + "," + plan.decode +
                            " --test-tool nixl-python",
                        options);
}

void say_commands(const rules::TransferPlan& plan, const Options& options, report::Report& report) {
  if (plan.tool == rules::TestTool::nixl_python) {
    report.next.push_back(rerun_pair(plan, options));
  } else if (plan.tool != rules::TestTool::none) {
    report.next.push_back(plan.listener_command());
    report.next.push_back(plan.initiator_command());
  }
}

void say_debug_commands(const rules::TransferPlan& plan, report::Report& report) {
  if (plan.debug_listener_argv.empty()) return;
  report.limitations.push_back("pair to test: " + plan.pair_line() + "; " + plan.debug_note);
  report.next.push_back(plan.debug_listener_command());
  report.next.push_back(plan.debug_initiator_command());
}

void say_plan(const rules::TransferPlan& plan, const Options& options, report::Report& report) {
  for (const auto& note : {plan.node_note, plan.backend_note, plan.tool_note}) {
    if (!note.empty()) report.limitations.push_back(note);
  }
  if (plan.runnable)
    say_commands(plan, options, report);
  else say_debug_commands(plan, report);
}

// --transfer was asked for and this pair cannot run: its pods say so (required, so the verdict
// is never surface-ok or confirmed), with what is missing and the next command.
report::Finding not_runnable(const std::string& why, const std::string& next) {
  report::Finding f;
  f.name = "transfer";
  f.layer = report::Layer::nixl;
  f.status = report::Status::skipped;
  f.detail = "--transfer asked, but no test can run: " + why;
  f.next = next;
  f.is_transfer = true;
  return f;
}

void add_to_pods(PodRun& run, const rules::TransferPlan& plan, const report::Finding& f) {
  for (const auto& name : {plan.prefill, plan.decode}) {
    if (auto* p = find(run, name)) p->target.findings.push_back(f);
  }
}

// A required NIXL check failed on a pod of the pair (NIXL missing, no UCX plugin): the verdict
// is blocked there, and a transfer test from another image proves nothing about these pods.
bool blocked_at_nixl(PodRun& run, const rules::TransferPlan& plan) {
  for (const auto& name : {plan.prefill, plan.decode}) {
    const auto* p = find(run, name);
    if (p && std::any_of(p->target.findings.begin(), p->target.findings.end(), [](const auto& f) {
          return f.layer == report::Layer::nixl && f.required && f.status == report::Status::fail;
        }))
      return true;
  }
  return false;
}

std::string why_not_runnable(const rules::TransferPlan& plan) {
  return plan.tool_note + " (" + plan.pair_line() + ")";
}

// The slowest pair with a figure, or the first that failed: added to the verdict line.
std::string transfer_summary(const std::vector<rules::TransferPlan>& plans,
                             const std::vector<rules::TransferOutcome>& outcomes,
                             const std::vector<report::Finding>& findings) {
  std::optional<std::size_t> slowest;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    if (findings[i].status == report::Status::fail || findings[i].status == report::Status::skipped)
      return "failing pair: " + plans[i].pair_line();
    auto v = rules::transfer_gbps(outcomes[i]);
    if (v && (!slowest || *v < *rules::transfer_gbps(outcomes[*slowest]))) slowest = i;
  }
  if (!slowest)
    return {};
  return "slowest pair" +
         std::string(plans.size() > 1 ? " of " + std::to_string(plans.size()) : "") + ": " +
         plans[*slowest].pair_line() + ", " +
         rules::gbs_text(*rules::transfer_gbps(outcomes[*slowest]));
}

// After a test between two pods of one node (it ran, but no RDMA was exercised): the command
// that tests a prefill and a decode pod of this run on different nodes, else why there is none.
std::string cross_node_next(const PodRun& run, const Options& options,
                            rules::PairingOptions pairing) {
  pairing.pair.reset();
  pairing.mode = rules::PairMode::cover;
  const auto pods = candidates(run);
  for (const auto& pair : rules::select_pairs(pods, pairing).pairs) {
    const auto& prefill = pods[pair.prefill];
    const auto& decode = pods[pair.decode];
    if (!prefill.node.empty() && !decode.node.empty() && prefill.node != decode.node)
      return plugin_command("nixl --transfer --pair " + prefill.pod + "," + decode.pod, options);
  }
  return "no prefill and decode pod checked here run on different nodes: schedule them apart "
         "(pod anti-affinity), then run --transfer again to test RDMA between nodes";
}

// A transfer that moved data, only slowly: the question is the path (which ports, at what rate,
// how many rails), not where the test stops.
bool finished_slow(const rules::TransferOutcome& outcome, const report::Finding& finding) {
  return outcome.cross_node && finding.status != report::Status::ok &&
         rules::transfer_gbps(outcome).has_value();
}

std::string slow_path_next(const rules::TransferPlan& plan, const report::Finding& finding,
                           Options options) {
  options.targets = {};
  options.targets.pods = {plan.prefill, plan.decode};
  options.targets.container = std::nullopt;
  const std::string compare =
      "compare the pair's ports (state, rate, link layer, GPU-NIC affinity): " +
      plugin_command("node -o wide", options);
  return finding.next.empty() ? compare : finding.next + "; " + compare;
}

bool ran_on_one_node(const rules::TransferOutcome& outcome, const report::Finding& finding) {
  return !outcome.cross_node && finding.status == report::Status::warn &&
         rules::transfer_gbps(outcome).has_value();
}

void run_and_judge(PodRun& run, const std::vector<rules::TransferPlan>& plans,
                   const Options& options, const rules::PairingOptions& pairing,
                   report::Report& report) {
  TransferRunOptions transfer;
  transfer.pod_exec = run.pod_exec.get();
  const auto outcomes = run_transfers(plans, transfer);
  std::vector<report::Finding> findings;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    auto finding = rules::judge_transfer(outcomes[i], pair_rates(run, plans[i]));
    if (ran_on_one_node(outcomes[i], finding)) {
      finding.next = cross_node_next(run, options, pairing);
    } else if (finished_slow(outcomes[i], finding)) {
      finding.next = slow_path_next(plans[i], finding, options);
    } else if (finding.status != report::Status::ok &&
               plans[i].tool == rules::TestTool::nixl_python) {
      finding.next = finding.next.empty() ? rerun_pair(plans[i], options) : finding.next;
    } else if (finding.status != report::Status::ok) {
      // The same commands, by hand, show where the test stops (each in its own terminal).
      finding.next = "run the two commands below by hand to see where the test stops";
      say_commands(plans[i], options, report);
    }
    add_to_pods(run, plans[i], finding);
    if (auto rails = rails_untested(run, plans[i], options)) add_to_pods(run, plans[i], *rails);
    findings.push_back(std::move(finding));
  }
  report.transfer_summary = transfer_summary(plans, outcomes, findings);
}

// A matrix finding that is not ok: its first part ("node X reaches no peer node (...)") for the
// verdict's transfer line, which names the failing pair for a plain --transfer.
std::string first_part(const report::Finding& f) {
  if (f.status == report::Status::ok) return {};
  const auto from = f.detail.find(": ");
  if (from == std::string::npos) return {};
  const auto to = f.detail.find("; ", from);
  return " (" + f.detail.substr(from + 2, to == std::string::npos ? std::string::npos : to - from - 2) + ")";
}

bool node_matrix_asked(const Options& options) {
  return options.matrix == "nodes" || options.matrix == "full";
}

// --matrix nodes|full: every runnable pair a cell; its judgement goes once to each pod that ran
// a cell (a pod may be in several).
report::Finding node_matrix(PodRun& run, const std::vector<rules::TransferPlan>& plans,
                            const Options& options, report::Report& report) {
  std::vector<rules::PairRates> rates;
  for (const auto& plan : plans) rates.push_back(pair_rates(run, plan));
  auto finding = run_node_matrix(run, plans, rates, options, report);
  std::vector<std::string> done;
  for (const auto& plan : plans) {
    for (const auto& name : {plan.prefill, plan.decode}) {
      if (std::find(done.begin(), done.end(), name) != done.end()) continue;
      done.push_back(name);
      if (auto* p = find(run, name)) p->target.findings.push_back(finding);
    }
  }
  return finding;
}

// Pods in no tested pair: their table says which test covered their node (not judged).
void say_untested(PodRun& run, const std::vector<rules::TransferPlan>& plans) {
  for (auto& p : run.probed) {
    const auto& pod = p.probe.pod;
    if (!p.parsed || !dynamo::is_split(pod.role)) continue;
    auto in = [&](const rules::TransferPlan& plan) { return plan.prefill == pod.name || plan.decode == pod.name; };
    if (std::any_of(plans.begin(), plans.end(), in)) continue;
    auto on_node = std::find_if(plans.begin(), plans.end(), [&](const rules::TransferPlan& plan) {
      return plan.prefill_node == pod.node || plan.decode_node == pod.node;
    });
    report::Finding f;
    f.name = "transfer";
    f.layer = report::Layer::nixl;
    f.status = report::Status::skipped;
    f.required = false;
    f.detail = on_node == plans.end() ? "not in a tested pair"
                                      : "not tested itself: its node " + pod.node + " was, in " + on_node->pair_line();
    p.target.findings.push_back(std::move(f));
  }
}

void transfer(PodRun& run, const Options& options, report::Report& report, rules::PairingOptions pairing) {
  const auto planned = rules::plan_transfers(candidates(run), pairing);
  for (const auto& note : planned.notes) report.limitations.push_back(note);
  if (planned.plans.empty()) {
    report.limitations.push_back("no transfer test possible: " + planned.why_not);
    if (options.transfer) {
      for (auto& p : run.probed) {
        if (p.parsed) p.target.findings.push_back(not_runnable(planned.why_not, {}));
      }
    }
    return;
  }
  std::vector<rules::TransferPlan> runnable;
  for (const auto& plan : planned.plans) {
    if (plan.runnable) {
      runnable.push_back(plan);
      continue;
    }
    const bool blocked = blocked_at_nixl(run, plan);
    if (blocked)
      report.limitations.push_back("no transfer test suggested for " + plan.pair_line() +
                                   ": NIXL fails in its pods; a test is worth running once the "
                                   "NIXL checks pass");
    else
      say_plan(plan, options, report);
    if (options.transfer) {
      auto next = plan.debug_listener_argv.empty() || blocked ? std::string()
                                                              : plan.debug_listener_command();
      add_to_pods(run, plan, not_runnable(why_not_runnable(plan), next));
    }
  }
  if (!options.transfer) {
    if (!runnable.empty()) {
      say_plan(runnable.front(), options, report);
      report.limitations.push_back(
          "no transfer was exercised: add --transfer to run " +
          (planned.plans.size() > 1 ? std::to_string(planned.plans.size()) + " pairs that cover every node"
                                    : std::string("the next commands")) +
          " (loads the fabric for seconds, needs GPUs on both sides)");
    } else {
      report.limitations.push_back("no transfer was exercised");
    }
    return;
  }
  for (const auto& plan : runnable) {
    for (const auto& note : {plan.node_note, plan.backend_note}) {
      if (!note.empty()) report.limitations.push_back(note);
    }
    // Which tool ran and why, when it is the worker's own NIXL (the others say it in their
    // figures' names and notes already).
    if (plan.tool == rules::TestTool::nixl_python &&
        std::find(report.limitations.begin(), report.limitations.end(), plan.tool_note) ==
            report.limitations.end())
      report.limitations.push_back(plan.tool_note);
  }
  std::string matrix_summary;
  auto budget = options.matrix_budget;
  if (node_matrix_asked(options) && !runnable.empty()) {  // every node pair, then (full) rails
    const auto start = std::chrono::steady_clock::now();
    auto finding = node_matrix(run, runnable, options, report);
    matrix_summary = "node matrix of " + std::to_string(runnable.size()) + " node pairs: " +
                     std::string(report::to_string(finding.status)) + first_part(finding);
    const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
    budget = std::max(std::chrono::milliseconds(0), budget - spent);
    if (options.matrix == "nodes") runnable.clear();
    else runnable.resize(1);  // full: the first pair NIC by NIC, in what is left of the budget
  }
  if (options.matrix != "" && options.matrix != "nodes" && !runnable.empty()) {
    const auto plan = runnable.front();  // the first pair, NIC by NIC
    runnable.erase(runnable.begin());
    auto finding = run_pair_matrix(run, plan, pair_rates(run, plan), budget);
    matrix_summary += (matrix_summary.empty() ? "" : "; ") + std::string("NIC matrix of ") +
                      plan.pair_line() + ": " + std::string(report::to_string(finding.status));
    add_to_pods(run, plan, finding);
  }
  if (!runnable.empty())
    run_and_judge(run, runnable, options, pairing, report);
  if (report.transfer_summary.empty()) report.transfer_summary = matrix_summary;
  say_untested(run, planned.plans);
}

boost::json::object nixl_facts_json(const probe::NixlFacts& f) {
  boost::json::array dirs;
  for (const auto& d : f.plugin_dirs) {
    boost::json::array plugins;
    for (const auto& p : d.plugins) {
      plugins.emplace_back(p);
    }
    dirs.emplace_back(boost::json::object{{"path", d.path}, {"source", d.source},
                                          {"plugins", std::move(plugins)}});
  }
  boost::json::object tools;
  if (f.tools.nixlbench) {
    tools["nixlbench"] = f.tools.nixlbench->path;
  }
  for (const auto& [name, path] : {std::pair{"nixl_test", f.tools.nixl_test},
                                   {"ucx_perftest", f.tools.ucx_perftest},
                                   {"ucx_info", f.tools.ucx_info}}) {
    if (!path.empty()) {
      tools[name] = path;
    }
  }
  return {{"pluginDirs", std::move(dirs)},
          {"pythonImport", f.python_import.ok},
          {"version", f.versions.nixl.value_or("")},
          {"tools", std::move(tools)}};
}

}  // namespace

void judge_nixl_pods(PodRun& run, const Options& options, report::Report& report) {
  for (auto& p : run.probed) {
    if (p.parsed) {
      rules::NixlContext context;
      context.backends = p.backends;
      auto findings = rules::judge_nixl(p.nixl, context);
      if (p.backends.library ==
          "MOONCAKE") {  // an engine with needs of its own (rdma_access/mooncake.hpp)
        auto mooncake = rules::judge_mooncake(p.node, p.backends);
        findings.insert(findings.end(), mooncake.begin(), mooncake.end());
      }
      p.target.findings.insert(p.target.findings.end(), findings.begin(), findings.end());
      auto facts = nixl_facts_json(p.nixl);
      boost::json::array names;
      for (const auto& n : context.backends.names) {
        names.emplace_back(n);
      }
      facts["backends"] = std::move(names);
      facts["backendSource"] = context.backends.source;
      if (!context.backends.unknown.empty())
        facts["backendUnknown"] = context.backends.unknown;  // a multinode worker pod, no leader
      boost::json::array kvbm;
      for (const auto& n : context.backends.kvbm) {
        kvbm.emplace_back(n);
      }
      facts["kvbmBackends"] = std::move(kvbm);
      facts["kvLibrary"] = context.backends.library;
      facts["kvLibrarySource"] = context.backends.library_source;
      if (p.nixl.engine_config) {
        facts["engineConfig"] = p.nixl.engine_config->path;  // the path only: the file may hold anything
      }
      p.target.facts["nixl"] = std::move(facts);
    }
  }
  rules::PairingOptions pairing;
  pairing.kubectl_base = run.session.base;
  pairing.timeout_s = static_cast<int>(options.transfer_timeout.count() / 1000);
  pairing.mode = options.pairs == "all" ? rules::PairMode::all : rules::PairMode::cover;
  if (node_matrix_asked(options)) {  // every node pair; --matrix-budget bounds how many run
    pairing.mode = rules::PairMode::all;
    pairing.max_pairs = kMaxNodePairs;
  }
  pairing.test_image = options.test_image;
  pairing.seed = run_seed();
  if (auto tool = rules::parse_test_tool(options.test_tool); tool)
    pairing.test_tool = *tool;
  else
    report.errors.push_back(tool.error().message);
  if (!options.pair.empty()) {
    auto pair = rules::parse_pair(options.pair);
    if (!pair) {
      report.errors.push_back("--pair: " + pair.error().message);
    } else {
      pairing.pair = *pair;
    }
  }
  transfer(run, options, report, pairing);
}

Expected<report::Report> check_nixl(const Options& options) {
  return pods_report(options, true, report::Layer::nixl,
                     [](PodRun& run, const Options& options, report::Report& report) {
                       add_same_node_findings(run);
                       judge_nixl_pods(run, options, report);
                     });
}

std::vector<rules::PairCandidate> pair_candidates(const PodRun& run) {
  return candidates(run);
}

}  // namespace icheck::check
