#include "check/nixl_check.hpp"

#include "check/pod_pipeline.hpp"
#include "check/transfer_run.hpp"
#include "rules/nixl_rules.hpp"
#include "rules/pairing.hpp"
#include "rules/transfer_rules.hpp"

#include <algorithm>

namespace icheck::check {
namespace {

std::vector<rules::PairCandidate> candidates(const PodRun& run) {
  std::vector<rules::PairCandidate> list;
  for (const auto& p : run.probed) {
    if (p.parsed) {
      const auto& pod = p.probe.pod;
      list.push_back({pod.name, pod.namespace_, pod.node, pod.pod_ip, pod.role, pod.container,
                      p.nixl, p.backends.names, p.backends.library});
    }
  }
  return list;
}

ProbedPod* find(PodRun& run, const std::string& name) {
  auto it = std::find_if(run.probed.begin(), run.probed.end(),
                         [&](const ProbedPod& p) { return p.probe.pod.name == name; });
  return it == run.probed.end() ? nullptr : &*it;
}

// The slower of the two sides' KV-carrying ports: the transfer cannot beat it.
std::optional<double> pair_line_rate(PodRun& run, const rules::TransferPlan& plan) {
  std::optional<double> rate;
  for (const auto& name : {plan.prefill, plan.decode}) {
    if (const auto* p = find(run, name); p && p->parsed) {
      rules::NodeContext context;
      context.disagg = run.disagg;
      if (auto r = rules::kv_line_rate_gbps(p->node, context)) {
        rate = rate ? std::min(*rate, *r) : *r;
      }
    }
  }
  return rate;
}

void say_plan(const rules::TransferPlan& plan, report::Report& report) {
  if (!plan.found) {
    report.limitations.push_back("no transfer test possible: " + plan.why_not);
    return;
  }
  for (const auto& note : {plan.node_note, plan.backend_note, plan.tool_note}) {
    if (!note.empty()) {
      report.limitations.push_back(note);
    }
  }
  if (plan.tool == rules::TestTool::none) {
    return;
  }
  report.next.push_back(plan.listener_command());
  report.next.push_back(plan.initiator_command());
}

void run_and_judge(PodRun& run, const rules::TransferPlan& plan, report::Report& report) {
  auto finding = rules::judge_transfer(run_transfer(plan), pair_line_rate(run, plan));
  if (finding.status == report::Status::skipped) {
    // The same commands, by hand, show where the test stops (each in its own terminal).
    finding.next = "run the two commands below by hand to see where the test stops";
    report.next.push_back(plan.listener_command());
    report.next.push_back(plan.initiator_command());
  }
  if (auto* prefill = find(run, plan.prefill)) {
    prefill->target.findings.push_back(std::move(finding));
  } else {
    report.errors.push_back("transfer: " + finding.detail);
  }
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
      p.target.findings.insert(p.target.findings.end(), findings.begin(), findings.end());
      auto facts = nixl_facts_json(p.nixl);
      boost::json::array names;
      for (const auto& n : context.backends.names) {
        names.emplace_back(n);
      }
      facts["backends"] = std::move(names);
      facts["backendSource"] = context.backends.source;
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
  if (!options.pair.empty()) {
    auto pair = rules::parse_pair(options.pair);
    if (!pair) {
      report.errors.push_back("--pair: " + pair.error().message);
    } else {
      pairing.pair = *pair;
    }
  }
  const auto plan = rules::plan_transfer(candidates(run), pairing);
  if (options.transfer && plan.runnable) {
    run_and_judge(run, plan, report);
    return;
  }
  say_plan(plan, report);
  if (options.transfer) {
    report.limitations.push_back("--transfer: no runnable test for this pair");
  } else if (plan.runnable) {
    report.limitations.push_back("no transfer was exercised: add --transfer to run the next "
                                 "commands (loads the fabric for seconds, needs GPUs on both "
                                 "sides)");
  } else {
    report.limitations.push_back("no transfer was exercised");
  }
}

Expected<report::Report> check_nixl(const Options& options) {
  return pods_report(options, true, report::Layer::nixl, judge_nixl_pods);
}

}  // namespace icheck::check
