#include "check/node_check.hpp"

#include "check/next_commands.hpp"
#include "check/nixl_check.hpp"
#include "check/pod_pipeline.hpp"
#include "dynamo/role.hpp"
#include "probe/node_probe.hpp"
#include "probe/node_script.hpp"
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
