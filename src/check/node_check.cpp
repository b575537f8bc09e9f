#include "check/node_check.hpp"

#include "check/next_commands.hpp"
#include "check/nixl_check.hpp"
#include "check/pod_pipeline.hpp"
#include "dynamo/role.hpp"
#include "knowledge/evaluate.hpp"
#include "knowledge/finding.hpp"
#include "knowledge/load.hpp"
#include "probe/node_probe.hpp"
#include "probe/node_script.hpp"
#include "rules/known/stack_facts.hpp"
#include "rules/known/stack_versions_rule.hpp"
#include "rules/node/node.hpp"

namespace icheck::check {
namespace {

void judge(const probe::NodeFacts& facts, const rules::NodeContext& context,
           report::Target& target) {
  auto findings = rules::judge_node(facts, context);
  target.findings.insert(target.findings.end(), findings.begin(), findings.end());
  if (target.summary.empty()) {
    target.summary = rules::node_summary(facts);
  }
  target.facts = rules::node_facts_json(facts);
}

// The known-trouble rows over what this machine shows: its environment (the worker's, when run
// inside its container), versions, devices. No engine runs here, so what moves KV is unknown
// and no row over the engine fires.
void add_local_known_trouble(const probe::NodeFacts& node, report::Target& target) {
  rules::KvBackends none;
  none.unknown = "the local machine runs no Dynamo worker";
  const auto facts = rules::known::pod_facts(node, {}, {}, none, {});
  for (auto& f : knowledge::to_findings(knowledge::evaluate(knowledge::trouble_rows(), facts)))
    target.findings.push_back(std::move(f));
  if (auto f = rules::known::stack_versions_finding(node.stack, facts, none))
    target.findings.push_back(std::move(*f));
}

report::Report local_report(const Options& options) {
  report::Report r;
  r.mode = options.mode;
  r.header = {"local machine"};
  report::Target t;
  t.kind = report::TargetKind::local;
  // A machine, not a Dynamo component: its role is unknown (the kind says "local").
  t.role = std::string(dynamo::role_name(dynamo::Role::unknown));
  const auto result = probe_local(std::string(probe::node_probe_script()), options.run);
  const auto facts = probe::parse_node_probe(result.out);
  t.name = facts.hostname.empty() ? "localhost" : facts.hostname;
  rules::NodeContext context;
  context.local = true;
  judge(facts, context, t);
  add_local_known_trouble(facts, t);
  r.targets.push_back(std::move(t));
  r.limitations.push_back("no transfer was exercised: node checks read state, they do not move "
                          "data");
  return r;
}

}  // namespace

void judge_node_pods(PodRun& run) {
  for (auto& p : run.probed) {
    if (p.parsed) {
      rules::NodeContext context;
      context.disagg = run.disagg;
      judge(p.node, context, p.target);
    }
  }
}

Expected<report::Report> check_node(const Options& options) {
  if (options.targets.local) {
    return local_report(options);
  }
  return pods_report(
      options, false, report::Layer::fabric, [](PodRun& run, const Options& o, report::Report& r) {
        judge_node_pods(run);
        add_same_node_findings(run);
        add_pair_link_findings(run, pair_candidates(run));
        // Without pods there is nothing to transfer between: no --transfer to suggest.
        r.limitations.push_back(run.pods.empty() ? "no transfer was exercised"
                                                 : "no transfer was exercised: " +
                                                       plugin_command("nixl --transfer", o));
      });
}

}  // namespace icheck::check
